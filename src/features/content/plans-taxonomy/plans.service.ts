// Rules for plans: name, description, price in R$ (stored in cents), billing period and
// the units that offer them. Plans are deactivated, never deleted (old contracts).
import type { PlanFields } from '../shared/content.repository';
import { type ActiveRecord, change, type ContentDeps, switchActive } from '../shared/change';
import { NotFoundError } from '../../../staff/errors';
import { type Actor, auditRow } from '../../audit/audit.repository';
import { existing } from '../units/units.service';
import * as v from '../../../staff/validation';
import type { FieldErrors, Result } from '../../../staff/validation';

/**
 * Highest "ordem de exibição": a chain with tens of thousands of plans (regional offers)
 * may number them one by one; the catalog file takes the same range (docs/decisions/178).
 */
export const PLAN_ORDER_MAX = 99_999;

export function parsePlanForm(body: Record<string, unknown>): Result<{ fields: PlanFields; unitIds: number[] }> {
  const e: FieldErrors = {};
  const f = (k: string) => v.field(body, k);
  const periodicidade = f('periodicidade');
  if (!v.PERIODS.some((p) => p.value === periodicidade)) e.periodicidade = 'Escolha a periodicidade da cobrança.';
  const fields: PlanFields = {
    nome: v.requiredText(e, 'nome', f('nome'), 'o nome do plano', 120),
    descricao: v.optionalLongText(e, 'descricao', f('descricao'), 1000),
    preco_centavos: v.priceCents(e, 'preco', f('preco')),
    periodicidade,
    ordem: v.integerIn(e, 'ordem', f('ordem'), 0, PLAN_ORDER_MAX, 0),
  };
  return v.hasErrors(e)
    ? { ok: false, errors: e }
    : { ok: true, value: { fields, unitIds: v.idList(body, 'unidades') } };
}

const PLAN: ActiveRecord = {
  entidade: 'plano',
  find: (repo, id) => repo.findPlan(id),
  set: (repo, id, ativo, now) => repo.setPlanActive(id, ativo, now),
};

export function createPlansService(deps: ContentDeps) {
  const read = deps.repos.content;
  async function snapshot(repo: typeof read, id: number) {
    const plan = await repo.findPlan(id);
    return plan ? { ...plan, unidadeIds: await repo.planUnitIds(id) } : null;
  }
  return {
    list: () => read.listPlans(),
    get: (id: number) => snapshot(read, id),
    async create(actor: Actor, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parsePlanForm(body);
      if (!parsed.ok) return parsed;
      return change(deps, actor, async (repo, audit, _trx, now) => {
        const id = await repo.insertPlan(parsed.value.fields, now);
        await repo.replacePlanUnits(id, await existing(parsed.value.unitIds, (x) => repo.findUnit(x)));
        await audit(auditRow('criar', 'plano', id, null, await snapshot(repo, id)));
        return { ok: true, value: { id } };
      });
    },
    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parsePlanForm(body);
      if (!parsed.ok) return parsed;
      return change(deps, actor, async (repo, audit, _trx, now) => {
        const before = await snapshot(repo, id);
        if (!before) throw new NotFoundError();
        await repo.updatePlan(id, parsed.value.fields, now);
        await repo.replacePlanUnits(id, await existing(parsed.value.unitIds, (x) => repo.findUnit(x)));
        await audit(auditRow('editar', 'plano', id, before, await snapshot(repo, id)));
        return { ok: true, value: { id } };
      });
    },
    setActive: (actor: Actor, id: number, active: boolean) => switchActive(deps, actor, PLAN, id, active),
  };
}

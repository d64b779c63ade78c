// Rules for the prices and terms of a plan at a unit, what online enrolment charges and
// writes in the contract: the monthly price, the enrolment and annual fees (R$, stored in
// integer centavos), the minimum term, the cancellation fine and whether it is sold online.
// Admins edit any unit; a manager the units assigned to them (checked by the routes).
import * as kit from '../../../lib/form/index';
import type { Unidade } from '../../../db/types';
import type { PlanPriceFields, PlanPriceRow } from '../shared/content.repository';
import { change, type ContentDeps } from '../shared/change';
import { NotFoundError } from '../../../staff/errors';
import { type Actor, auditRow } from '../../audit/audit.repository';
import * as v from '../../../staff/validation';
import type { FieldErrors, FormValues, Result } from '../../../staff/validation';

/** R$ 100.000,00: above any real fee; a typo with extra zeros is refused. */
export const PRICE_MAX_CENTS = 10_000_000;
export const TERM_MAX_MONTHS = 36;

export const MONTHS = [
  'Janeiro',
  'Fevereiro',
  'Março',
  'Abril',
  'Maio',
  'Junho',
  'Julho',
  'Agosto',
  'Setembro',
  'Outubro',
  'Novembro',
  'Dezembro',
] as const;

export const LEGAL_ENTITY_MISSING =
  'Para vender online, a unidade precisa de razão social e CNPJ válido ' +
  '(um administrador os cadastra em Editar unidade).';

/** The legal entity online enrolment names in the contract is complete. */
export function legalEntityReady(unit: Pick<Unidade, 'razao_social' | 'cnpj'>): boolean {
  return Boolean(unit.razao_social?.trim()) && unit.cnpj !== null && kit.isValidCnpj(unit.cnpj);
}

/** The form as the screen shows a stored row. */
export function planPriceValues(row: PlanPriceFields): FormValues {
  return {
    mensalidade: row.mensalidade_centavos === null ? '' : kit.moneyInputValue(row.mensalidade_centavos),
    taxa_matricula: row.taxa_matricula_centavos ? kit.moneyInputValue(row.taxa_matricula_centavos) : '',
    taxa_anual: row.taxa_anual_centavos ? kit.moneyInputValue(row.taxa_anual_centavos) : '',
    taxa_anual_mes: row.taxa_anual_mes === null ? '' : String(row.taxa_anual_mes),
    fidelidade_meses: String(row.fidelidade_meses),
    multa_percentual: String(row.multa_percentual),
    venda_online: row.venda_online ? '1' : '',
  };
}

/** Validates the form on its own; whether the unit may sell online is checked by the service. */
export function parsePlanPriceForm(body: Record<string, unknown>): Result<PlanPriceFields> {
  const e: FieldErrors = {};
  const f = (k: string) => v.field(body, k);
  const money = (key: string) => kit.take(e, key, kit.parseMoney(f(key), { max: PRICE_MAX_CENTS }), null);

  const mensalidade = money('mensalidade');
  if (mensalidade === 0)
    e.mensalidade = 'A mensalidade precisa ser maior que zero; em branco, o plano não é vendido online.';
  const taxaMatricula = money('taxa_matricula') ?? 0;
  const taxaAnual = money('taxa_anual') ?? 0;
  const mesRaw = f('taxa_anual_mes').trim();
  let mes: number | null = null;
  if (mesRaw !== '') {
    const r = kit.parseInteger(mesRaw, 1, 12, 0);
    if (r.ok) mes = r.value;
    else e.taxa_anual_mes = 'Escolha um mês da lista.';
  }
  if (taxaAnual > 0 && mes === null) e.taxa_anual_mes ??= 'Escolha o mês em que a taxa anual vence.';
  if (taxaAnual === 0 && mes !== null && !e.taxa_anual)
    e.taxa_anual = 'Informe o valor da taxa anual, ou escolha “Sem taxa anual” no mês.';
  const fidelidade = v.integerIn(e, 'fidelidade_meses', f('fidelidade_meses'), 0, TERM_MAX_MONTHS, 0);
  const multa = v.integerIn(e, 'multa_percentual', f('multa_percentual'), 0, 100, 0);
  // The fine is a share of the months left in the term: without a term there is none.
  if (multa > 0 && fidelidade === 0 && !e.fidelidade_meses)
    e.multa_percentual ??= 'Sem fidelidade não há multa de cancelamento: deixe 0 ou informe a fidelidade.';
  const online = f('venda_online') === '1';
  if (online && mensalidade === null && !e.mensalidade) e.venda_online = 'Para vender online, informe a mensalidade.';
  const fields: PlanPriceFields = {
    mensalidade_centavos: mensalidade,
    taxa_matricula_centavos: taxaMatricula,
    taxa_anual_centavos: taxaAnual,
    taxa_anual_mes: taxaAnual > 0 ? mes : null,
    fidelidade_meses: fidelidade,
    multa_percentual: multa,
    venda_online: online ? 1 : 0,
  };
  return v.hasErrors(e) ? { ok: false, errors: e } : { ok: true, value: fields };
}

/** What the audit row keeps of a plan's prices at a unit. */
const auditForm = (row: PlanPriceRow) => ({
  unidade_id: row.unidade_id,
  plano_id: row.plano_id,
  plano: row.nome,
  mensalidade_centavos: row.mensalidade_centavos,
  taxa_matricula_centavos: row.taxa_matricula_centavos,
  taxa_anual_centavos: row.taxa_anual_centavos,
  taxa_anual_mes: row.taxa_anual_mes,
  fidelidade_meses: row.fidelidade_meses,
  multa_percentual: row.multa_percentual,
  venda_online: row.venda_online,
});

export function createPlanPricesService(deps: ContentDeps) {
  const read = deps.repos.content;
  const unitOf = async (unitId: number) => {
    const unit = await read.findUnit(unitId);
    return unit
      ? {
          id: unit.id,
          nome: unit.nome,
          ativo: unit.ativo,
          razao_social: unit.razao_social,
          cnpj: unit.cnpj,
          legalReady: legalEntityReady(unit),
        }
      : null;
  };

  return {
    /** The unit and the plans it offers with their prices; null when the unit does not exist. */
    async unitPlans(unitId: number) {
      const unit = await unitOf(unitId);
      return unit ? { unit, plans: await read.listUnitPlanPrices(unitId) } : null;
    },

    /** One plan at one unit; null when either is missing or the unit does not offer the plan. */
    async get(unitId: number, planId: number) {
      const [unit, plan] = await Promise.all([unitOf(unitId), read.findPlanPrice(unitId, planId)]);
      return unit && plan ? { unit, plan } : null;
    },

    async update(actor: Actor, unitId: number, planId: number, body: Record<string, unknown>): Promise<Result<null>> {
      const parsed = parsePlanPriceForm(body);
      return change(deps, actor, async (repo, audit) => {
        const [unit, before] = await Promise.all([repo.findUnit(unitId), repo.findPlanPrice(unitId, planId)]);
        if (!unit || !before) throw new NotFoundError();
        const errors: FieldErrors = parsed.ok ? {} : { ...parsed.errors };
        if (v.field(body, 'venda_online') === '1' && !legalEntityReady(unit))
          errors.venda_online ??= LEGAL_ENTITY_MISSING;
        if (!parsed.ok || v.hasErrors(errors)) return { ok: false, errors };
        await repo.updatePlanPrice(unitId, planId, parsed.value);
        const after = await repo.findPlanPrice(unitId, planId);
        await audit(
          auditRow('editar_precos', 'plano_unidade', unitId, auditForm(before), after ? auditForm(after) : null),
        );
        return { ok: true, value: null };
      });
    },
  };
}

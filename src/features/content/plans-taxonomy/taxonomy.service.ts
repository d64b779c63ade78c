// Rules for areas (weight room, pool...) and modalities (spinning, yoga...) and the units
// that have them. Both have unique names; both are deactivated, never deleted (classes
// point to modalities).
import { type ActiveRecord, change, type ContentDeps, switchActive } from '../shared/change';
import { NotFoundError, onUniqueConflict } from '../../../staff/errors';
import { type Actor, auditRow } from '../../audit/audit.repository';
import { existing } from '../units/units.service';
import * as v from '../../../staff/validation';
import type { FieldErrors, Result } from '../../../staff/validation';

export type TaxonomyKind = 'area' | 'modalidade';

interface TaxonomyInput {
  nome: string;
  descricao: string | null;
  unitIds: number[];
}

export function parseTaxonomyForm(kind: TaxonomyKind, body: Record<string, unknown>): Result<TaxonomyInput> {
  const e: FieldErrors = {};
  const nome = v.requiredText(
    e,
    'nome',
    v.field(body, 'nome'),
    kind === 'area' ? 'o nome da área' : 'o nome da modalidade',
    120,
  );
  const descricao = kind === 'modalidade' ? v.optionalLongText(e, 'descricao', v.field(body, 'descricao'), 1000) : null;
  return v.hasErrors(e)
    ? { ok: false, errors: e }
    : { ok: true, value: { nome, descricao, unitIds: v.idList(body, 'unidades') } };
}

export function createTaxonomyService(deps: ContentDeps, kind: TaxonomyKind) {
  const read = deps.repos.content;
  const table = kind === 'area' ? 'areas' : 'modalidades';
  const duplicate = kind === 'area' ? 'Já existe uma área com este nome.' : 'Já existe uma modalidade com este nome.';

  async function snapshot(repo: typeof read, id: number) {
    if (kind === 'area') {
      const row = await repo.findArea(id);
      return row ? { ...row, unidadeIds: await repo.areaUnitIds(id) } : null;
    }
    const row = await repo.findModality(id);
    return row ? { ...row, unidadeIds: await repo.modalityUnitIds(id) } : null;
  }
  const record: ActiveRecord = {
    entidade: kind,
    find: snapshot,
    set: (repo, id, ativo) => (kind === 'area' ? repo.setAreaActive(id, ativo) : repo.setModalityActive(id, ativo)),
  };
  async function save(repo: typeof read, id: number | null, input: TaxonomyInput) {
    const unitIds = await existing(input.unitIds, (x) => repo.findUnit(x));
    if (kind === 'area') {
      const areaId = id ?? (await repo.insertArea(input.nome));
      if (id) await repo.updateArea(id, input.nome);
      await repo.replaceAreaUnits(areaId, unitIds);
      return areaId;
    }
    const modalityId = id ?? (await repo.insertModality(input.nome, input.descricao));
    if (id) await repo.updateModality(id, input.nome, input.descricao);
    await repo.replaceModalityUnits(modalityId, unitIds);
    return modalityId;
  }

  return {
    list: () =>
      (kind === 'area' ? read.listAreas() : read.listModalities()) as Promise<
        { id: number; nome: string; ativo: number; descricao?: string | null }[]
      >,
    get: (id: number) => snapshot(read, id),
    async create(actor: Actor, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseTaxonomyForm(kind, body);
      if (!parsed.ok) return parsed;
      return onUniqueConflict({ nome: duplicate }, () =>
        change(deps, actor, async (repo, audit) => {
          if (await repo.nameTaken(table, parsed.value.nome)) return { ok: false, errors: { nome: duplicate } };
          const id = await save(repo, null, parsed.value);
          await audit(auditRow('criar', kind, id, null, await snapshot(repo, id)));
          return { ok: true, value: { id } };
        }),
      );
    },
    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseTaxonomyForm(kind, body);
      if (!parsed.ok) return parsed;
      return onUniqueConflict({ nome: duplicate }, () =>
        change(deps, actor, async (repo, audit) => {
          const before = await snapshot(repo, id);
          if (!before) throw new NotFoundError();
          if (await repo.nameTaken(table, parsed.value.nome, id)) return { ok: false, errors: { nome: duplicate } };
          await save(repo, id, parsed.value);
          await audit(auditRow('editar', kind, id, before, await snapshot(repo, id)));
          return { ok: true, value: { id } };
        }),
      );
    },
    setActive: (actor: Actor, id: number, active: boolean) => switchActive(deps, actor, record, id, active),
  };
}

// Rules for units: every field of the unit page, opening hours per weekday, the benefit
// platform (https only), the areas, modalities and plans the unit offers.
import { slugify } from '../../../lib/text';
import { WEEKDAYS } from '../../../lib/time';
import type { ContentRepository, HourRow, UnitFields } from '../shared/content.repository';
import { change, NotFoundError, onUniqueConflict, type Actor, type ContentDeps } from '../shared/change';
import * as v from '../shared/validation';
import type { FieldErrors, Result } from '../shared/validation';

export interface UnitInput {
  fields: UnitFields;
  hours: HourRow[];
  areaIds: number[];
  modalityIds: number[];
  planIds: number[];
}

/** Validates the unit form. Pure: the slug's uniqueness is checked by the service. */
export function parseUnitForm(body: Record<string, unknown>): Result<UnitInput> {
  const e: FieldErrors = {};
  const f = (k: string) => v.field(body, k);
  const nome = v.requiredText(e, 'nome', f('nome'), 'o nome da unidade', 120);
  const slugRaw = v.optionalText(e, 'slug', f('slug'), 140);
  const slug = slugify(slugRaw ?? nome);
  if (!e.slug && !e.nome && !slug) e.slug = 'Informe um identificador com letras ou números.';
  const fields: UnitFields = {
    nome,
    slug,
    cidade: v.requiredText(e, 'cidade', f('cidade'), 'a cidade', 120),
    uf: v.uf(e, 'uf', f('uf')),
    bairro: v.requiredText(e, 'bairro', f('bairro'), 'o bairro', 120),
    endereco: v.requiredText(e, 'endereco', f('endereco'), 'o endereço', 255),
    cep: v.cep(e, 'cep', f('cep')),
    telefone: v.phone(e, 'telefone', f('telefone')),
    whatsapp: v.phone(e, 'whatsapp', f('whatsapp')),
    email: v.email(e, 'email', f('email')),
    latitude: v.coordinate(e, 'latitude', f('latitude'), 90),
    longitude: v.coordinate(e, 'longitude', f('longitude'), 180),
    descricao: v.optionalLongText(e, 'descricao', f('descricao'), 2000),
    beneficio_nome: v.optionalText(e, 'beneficio_nome', f('beneficio_nome'), 80),
    beneficio_url: v.httpsUrl(e, 'beneficio_url', f('beneficio_url')),
  };
  if (fields.beneficio_url && !fields.beneficio_nome) e.beneficio_nome ??= 'Informe o nome da plataforma do link.';
  if (fields.beneficio_nome && !fields.beneficio_url && !e.beneficio_url) e.beneficio_url = 'Informe o link da plataforma, começando com https://.';
  const hours = parseHours(e, (d, which) => f(`${which}_${d}`));
  const input = { fields, hours, areaIds: v.idList(body, 'areas'), modalityIds: v.idList(body, 'modalidades'), planIds: v.idList(body, 'planos') };
  return v.hasErrors(e) ? { ok: false, errors: e } : { ok: true, value: input };
}

/** Opening hours: both empty = closed that day. Errors under `horario_<dia>`. */
export function parseHours(e: FieldErrors, get: (day: number, which: 'abre' | 'fecha') => string, keyOf = (d: number) => `horario_${d}`): HourRow[] {
  const hours: HourRow[] = [];
  for (let d = 0; d < 7; d++) {
    const abreRaw = get(d, 'abre').trim();
    const fechaRaw = get(d, 'fecha').trim();
    if (!abreRaw && !fechaRaw) continue;
    const key = keyOf(d);
    if (!abreRaw || !fechaRaw) {
      e[key] = `${WEEKDAYS[d]}: informe abertura e fechamento, ou deixe os dois em branco se a unidade não abre.`;
      continue;
    }
    const abre = v.time(e, key, abreRaw, 'a abertura');
    const fecha = v.time(e, key, fechaRaw, 'o fechamento');
    if (e[key]) e[key] = `${WEEKDAYS[d]}: ${e[key]}`;
    else if (fecha <= abre) e[key] = `${WEEKDAYS[d]}: o fechamento precisa ser depois da abertura.`;
    else hours.push({ dia_semana: d, abre, fecha });
  }
  return hours;
}

export function createUnitsService(deps: ContentDeps) {
  const read = deps.repos.content;

  async function snapshot(repo = read, id: number) {
    const unit = await repo.findUnit(id);
    if (!unit) return null;
    return { ...unit, ...(await repo.unitLinks(id)) };
  }

  return {
    list: () => read.listUnits(),
    listByIds: (ids: number[]) => read.listUnitsByIds(ids),
    get: (id: number) => snapshot(read, id),

    /** Choices for the checkbox groups of the unit form. */
    async formOptions() {
      const [areas, modalities, plans] = await Promise.all([read.listAreas(), read.listModalities(), read.listPlans()]);
      return { areas, modalities, plans: plans.map((p) => ({ id: p.id, nome: p.nome, periodicidade: p.periodicidade, ativo: p.ativo })) };
    },

    async create(actor: Actor, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseUnitForm(body);
      if (!parsed.ok) return parsed;
      const input = parsed.value;
      return onUniqueConflict({ slug: SLUG_TAKEN }, () => change(deps, actor, async (repo, audit, _trx, now) => {
        if (await repo.slugTaken(input.fields.slug)) return { ok: false, errors: { slug: SLUG_TAKEN } };
        const id = await repo.insertUnit(input.fields, now);
        await applyLinks(repo, id, input);
        await audit({ acao: 'criar', entidade: 'unidade', entidadeId: id, antes: null, depois: await snapshot(repo, id) });
        return { ok: true, value: { id } };
      }));
    },

    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseUnitForm(body);
      if (!parsed.ok) return parsed;
      const input = parsed.value;
      return onUniqueConflict({ slug: SLUG_TAKEN }, () => change(deps, actor, async (repo, audit, _trx, now) => {
        const before = await snapshot(repo, id);
        if (!before) throw new NotFoundError();
        if (await repo.slugTaken(input.fields.slug, id)) return { ok: false, errors: { slug: SLUG_TAKEN } };
        await repo.updateUnit(id, input.fields, now);
        await applyLinks(repo, id, input);
        await audit({ acao: 'editar', entidade: 'unidade', entidadeId: id, antes: before, depois: await snapshot(repo, id) });
        return { ok: true, value: { id } };
      }));
    },

    /** Units are never deleted (answers, messages and managers point to them): deactivated. */
    async setActive(actor: Actor, id: number, active: boolean) {
      await change(deps, actor, async (repo, audit, _trx, now) => {
        const before = await repo.findUnit(id);
        if (!before) throw new NotFoundError();
        await repo.setUnitActive(id, active ? 1 : 0, now);
        await audit({ acao: active ? 'ativar' : 'desativar', entidade: 'unidade', entidadeId: id, antes: { ativo: before.ativo }, depois: { ativo: active ? 1 : 0 } });
      });
    },
  };
}

async function applyLinks(repo: ContentRepository, id: number, input: UnitInput) {
  await repo.replaceHours(id, input.hours);
  await repo.replaceUnitAreas(id, await existing(input.areaIds, (x) => repo.findArea(x)));
  await repo.replaceUnitModalities(id, await existing(input.modalityIds, (x) => repo.findModality(x)));
  await repo.replaceUnitPlans(id, await existing(input.planIds, (x) => repo.findPlan(x)));
}

/** Drops ids that do not exist (a tampered form must not break a foreign key). */
export async function existing(ids: number[], find: (id: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (const id of ids) if (await find(id)) out.push(id);
  return out;
}

const SLUG_TAKEN = 'Já existe uma unidade com este identificador.';

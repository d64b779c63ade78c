// Rules for units: every field of the unit page, opening hours per weekday, the benefit
// platform (https only), the legal entity (razão social + CNPJ), the areas, modalities and
// plans the unit offers.
import type { Selectable } from 'kysely';
import type { PlanosTable } from '../../../db/types';
import * as kit from '../../../lib/form/index';
import { slugify } from '../../../lib/text';
import { filterRows } from '../../../staff/list';
import { WEEKDAYS } from '../../../lib/time';
import type { ContentRepository, HourRow, LegalEntityFields, UnitFields } from '../shared/content.repository';
import { type ActiveRecord, change, type ContentDeps, switchActive } from '../shared/change';
import { NotFoundError, onUniqueConflict } from '../../../staff/errors';
import { type Actor, auditRow } from '../../audit/audit.repository';
import * as v from '../../../staff/validation';
import type { FieldErrors, Result } from '../../../staff/validation';

export interface UnitInput {
  fields: UnitFields;
  /** the unit form's legal entity (a catalog import ignores it: the file does not carry it) */
  legal: LegalEntityFields;
  hours: HourRow[];
  areaIds: number[];
  modalityIds: number[];
  /** the plans ticked on the form */
  planIds: number[];
  /**
   * the plans the form showed (`planos_exibidos`): a save links and unlinks these only, so
   * a plan the form did not show keeps its link. null (a client that sends no such field):
   * the ticked plans are the whole list.
   */
  shownPlanIds: number[] | null;
}

/**
 * A catalog with at most this many plans shows them all on the unit form; a larger one
 * shows the unit's own plans and a search for the others (docs/decisions/178).
 */
export const PLAN_FORM_ALL_UP_TO = 60;
/** Search results shown at once; more ask for a narrower search. */
export const PLAN_MATCHES_SHOWN = 50;

/** A plan as the unit form lists it. */
export type PlanChoice = Pick<Selectable<PlanosTable>, 'id' | 'nome' | 'periodicidade' | 'ativo'>;

/** The plan checkboxes of the unit form. */
export interface PlanChoices {
  /** every plan of the catalog is listed (a small catalog): no search */
  all: boolean;
  /** listed outside the search: every plan, or the unit's own (linked now or ticked on the form) */
  listed: PlanChoice[];
  /** the search typed (`planos_q`) */
  q: string;
  /** plans not listed that match `q`: the first PLAN_MATCHES_SHOWN, and how many match */
  matches: PlanChoice[];
  matchCount: number;
  /** plans in the catalog */
  total: number;
  /** every plan with a checkbox on the form: what `planos_exibidos` carries back */
  shownIds: number[];
}

export const periodLabel = (periodicidade: string) =>
  v.PERIODS.find((p) => p.value === periodicidade)?.label ?? periodicidade;

/**
 * The unit form was sent to search plans, not to save: the "Buscar planos" button, or
 * Enter in a field with a search typed (Enter clicks the form's first button, `enviar=padrao`,
 * which saves when the search box is empty).
 */
export function isPlanSearch(body: Record<string, unknown>): boolean {
  if (v.field(body, 'buscar_planos')) return true;
  return v.field(body, 'enviar') === 'padrao' && planQuery(body) !== '';
}

function planQuery(body: Record<string, unknown>): string {
  return v.field(body, 'planos_q').replace(/\s+/g, ' ').trim().slice(0, 100);
}

/** `planos_exibidos`: a comma-separated list of ids; absent → null (see UnitInput). */
function shownPlanIds(body: Record<string, unknown>): number[] | null {
  const raw = v.list(body, 'planos_exibidos');
  if (!raw.length) return null;
  return v.idList({ ids: raw.flatMap((x) => x.split(',')) }, 'ids');
}

/** The unit's own fields, each a text field of the unit form (a catalog import fills them from its file). */
export const UNIT_FIELDS = [
  'nome',
  'slug',
  'cidade',
  'uf',
  'bairro',
  'endereco',
  'cep',
  'telefone',
  'whatsapp',
  'email',
  'latitude',
  'longitude',
  'descricao',
  'beneficio_nome',
  'beneficio_url',
] as const satisfies readonly (keyof UnitFields)[];

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
  if (fields.beneficio_nome && !fields.beneficio_url && !e.beneficio_url)
    e.beneficio_url = 'Informe o link da plataforma, começando com https://.';
  const legal = parseLegalEntity(e, f);
  const hours = parseHours(e, (d, which) => f(`${which}_${d}`));
  const input = {
    fields,
    legal,
    hours,
    areaIds: v.idList(body, 'areas'),
    modalityIds: v.idList(body, 'modalidades'),
    planIds: v.idList(body, 'planos'),
    shownPlanIds: shownPlanIds(body),
  };
  return v.hasErrors(e) ? { ok: false, errors: e } : { ok: true, value: input };
}

/**
 * The company that runs the unit (a franchise is a company of its own), named on the
 * enrolment pages and in the contract. Optional, but razão social and CNPJ go together;
 * an empty registered address means the unit's own.
 */
function parseLegalEntity(e: FieldErrors, f: (k: string) => string): LegalEntityFields {
  const razao_social = v.optionalText(e, 'razao_social', f('razao_social'), 160);
  const cnpj = kit.take(e, 'cnpj', kit.parseCnpj(f('cnpj')), '') || null;
  const endereco_juridico = v.optionalText(e, 'endereco_juridico', f('endereco_juridico'), 300);
  if (razao_social && !cnpj) e.cnpj ??= 'Informe o CNPJ da razão social.';
  if (!razao_social && (cnpj || endereco_juridico) && !e.razao_social)
    e.razao_social = 'Informe a razão social da empresa que responde pela unidade.';
  return { razao_social, cnpj, endereco_juridico };
}

/** Opening hours: both empty = closed that day. Errors under `horario_<dia>`. */
export function parseHours(
  e: FieldErrors,
  get: (day: number, which: 'abre' | 'fecha') => string,
  keyOf = (d: number) => `horario_${d}`,
): HourRow[] {
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

const UNIT: ActiveRecord = {
  entidade: 'unidade',
  find: (repo, id) => repo.findUnit(id),
  set: (repo, id, ativo, now) => repo.setUnitActive(id, ativo, now),
};

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

    /**
     * Choices for the checkbox groups of the unit form. `linked`: the unit's plans now;
     * `body`: the form as sent (its ticked plans and plan search), none on a first display.
     */
    async formOptions(linked: number[], body?: Record<string, unknown>) {
      const [areas, modalities, plans] = await Promise.all([read.listAreas(), read.listModalities(), read.listPlans()]);
      const ticked = body ? v.idList(body, 'planos') : linked;
      return { areas, modalities, plans: planChoices(plans, linked, ticked, body ? planQuery(body) : '') };
    },

    async create(actor: Actor, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseUnitForm(body);
      if (!parsed.ok) return parsed;
      const input = parsed.value;
      return onUniqueConflict({ slug: SLUG_TAKEN }, () =>
        change(deps, actor, async (repo, audit, _trx, now) => {
          if (await repo.slugTaken(input.fields.slug)) return { ok: false, errors: { slug: SLUG_TAKEN } };
          const id = await repo.insertUnit({ ...input.fields, ...input.legal }, now);
          await applyLinks(repo, id, input, []);
          await audit(auditRow('criar', 'unidade', id, null, await snapshot(repo, id)));
          return { ok: true, value: { id } };
        }),
      );
    },

    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseUnitForm(body);
      if (!parsed.ok) return parsed;
      const input = parsed.value;
      return onUniqueConflict({ slug: SLUG_TAKEN }, () =>
        change(deps, actor, async (repo, audit, _trx, now): Promise<Result<{ id: number }>> => {
          const before = await snapshot(repo, id);
          if (!before) throw new NotFoundError();
          if (await repo.slugTaken(input.fields.slug, id)) return { ok: false, errors: { slug: SLUG_TAKEN } };
          // Online sales name the legal entity in the contract: it cannot go while a plan sells.
          if (!input.legal.cnpj && (await repo.countOnlinePlans(id)) > 0)
            return { ok: false, errors: { cnpj: LEGAL_ENTITY_IN_USE } };
          await repo.updateUnit(id, { ...input.fields, ...input.legal }, now);
          await applyLinks(repo, id, input, before.planIds);
          await audit(auditRow('editar', 'unidade', id, before, await snapshot(repo, id)));
          return { ok: true, value: { id } };
        }),
      );
    },

    /** Units are never deleted (answers, messages and managers point to them): deactivated. */
    setActive: (actor: Actor, id: number, active: boolean) => switchActive(deps, actor, UNIT, id, active),
  };
}

function planChoices(plans: PlanChoice[], linked: number[], ticked: number[], q: string): PlanChoices {
  const plain = plans.map(({ id, nome, periodicidade, ativo }) => ({ id, nome, periodicidade, ativo }));
  if (plain.length <= PLAN_FORM_ALL_UP_TO)
    return {
      all: true,
      listed: plain,
      q: '',
      matches: [],
      matchCount: 0,
      total: plain.length,
      shownIds: plain.map((p) => p.id),
    };
  const own = new Set([...linked, ...ticked]);
  const listed = plain.filter((p) => own.has(p.id));
  const found = q
    ? filterRows(plain, q, (p) => `${p.nome} ${periodLabel(p.periodicidade)}`).filter((p) => !own.has(p.id))
    : [];
  const matches = found.slice(0, PLAN_MATCHES_SHOWN);
  return {
    all: false,
    listed,
    q,
    matches,
    matchCount: found.length,
    total: plain.length,
    shownIds: [...listed, ...matches].map((p) => p.id),
  };
}

/** `current`: the unit's plans before the save (none for a new unit). */
async function applyLinks(repo: ContentRepository, id: number, input: UnitInput, current: number[]) {
  await repo.replaceHours(id, input.hours);
  await repo.replaceUnitAreas(id, await existing(input.areaIds, (x) => repo.findArea(x)));
  await repo.replaceUnitModalities(id, await existing(input.modalityIds, (x) => repo.findModality(x)));
  // Plans the form did not show keep their link (a search shows a few of thousands), and
  // only plans it showed can be linked: a stale or crafted POST cannot reach the others.
  const shown = input.shownPlanIds ? new Set(input.shownPlanIds) : null;
  const ticked = await existing(shown ? input.planIds.filter((p) => shown.has(p)) : input.planIds, (x) =>
    repo.findPlan(x),
  );
  const kept = shown ? current.filter((p) => !shown.has(p)) : [];
  await repo.replaceUnitPlans(id, [...new Set([...kept, ...ticked])]);
}

/** Drops ids that do not exist (a tampered form must not break a foreign key). */
export async function existing(ids: number[], find: (id: number) => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (const id of ids) if (await find(id)) out.push(id);
  return out;
}

const SLUG_TAKEN = 'Já existe uma unidade com este identificador.';
const LEGAL_ENTITY_IN_USE =
  'Há planos vendidos online nesta unidade: mantenha a razão social e o CNPJ, ' +
  'ou desmarque antes a venda online em Planos e preços.';

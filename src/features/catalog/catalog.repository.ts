// The only place the catalog's SQL lives. Public pages read active rows only.
import type { Db } from '../../db/index';
import type { ClassRow, Unidade } from '../../db/types';
import type { UnitPhoto } from '../unit-photos/photos';
import type { PlanFields } from '../content/plans-taxonomy/plans.repository';

export interface UnitSummaryRow {
  id: number;
  nome: string;
  cidade: string;
  uf: string;
  bairro: string;
  endereco: string;
  latitude: number | null;
  longitude: number | null;
  beneficio_nome: string | null;
  beneficio_url: string | null;
  whatsapp: string | null;
  /** last edit of the unit (sitemap lastmod) */
  atualizado_em: string;
}

/** A plan as the public pages show it: its id and the fields the plan screen edits. */
export interface PlanRow extends PlanFields {
  id: number;
}

export interface SnapshotRows {
  units: UnitSummaryRow[];
  plans: PlanRow[];
  /** active plan ↔ active unit pairs */
  planUnits: { plano_id: number; unidade_id: number }[];
  /** active modalities and areas of active units, by name: search finds units by what they offer */
  unitTags: { unidade_id: number; nome: string }[];
  /** photos of active units, in their order (the first is the cover) */
  photos: UnitPhoto[];
}

export interface UnitDetailRows {
  unit: Omit<Unidade, 'slug' | 'ativo' | 'criado_em' | 'atualizado_em' | 'razao_social' | 'cnpj' | 'endereco_juridico'>;

  hours: { dia_semana: number; abre: string; fecha: string }[];
  plans: PlanRow[];
  areas: string[];
  modalities: string[];
  classes: Omit<ClassRow, 'id'>[];
}

/** A unit's opening hours by weekday: its public page and its edit form list them alike. */
export function unitHours(db: Db, unitId: number) {
  return db
    .selectFrom('unidade_horarios')
    .select(['dia_semana', 'abre', 'fecha'])
    .where('unidade_id', '=', unitId)
    .orderBy('dia_semana')
    .orderBy('abre')
    .execute();
}

/** A unit's classes (`a`) joined to their modalities (`m`): the timetable screen and the public pages. */
export function classesOf(db: Db, unitId: number) {
  return db
    .selectFrom('aulas as a')
    .innerJoin('modalidades as m', 'm.id', 'a.modalidade_id')
    .where('a.unidade_id', '=', unitId);
}

/** A unit's classes of active modalities by weekday and start: its public page and its trial slots. */
export function unitClasses(db: Db, unitId: number): Promise<ClassRow[]> {
  return classesOf(db, unitId)
    .select(['a.id', 'a.dia_semana', 'a.inicio', 'a.fim', 'm.nome as modalidade', 'a.professor', 'a.sala'])
    .where('m.ativo', '=', 1)
    .orderBy('a.dia_semana')
    .orderBy('a.inicio')
    .orderBy('m.nome')
    .execute();
}

/** What every public list shows of a unit (search, home, nearby units); its page adds the rest. */
const UNIT_CARD_COLUMNS = [
  'id',
  'nome',
  'cidade',
  'uf',
  'bairro',
  'endereco',
  'latitude',
  'longitude',
  'beneficio_nome',
  'beneficio_url',
  'whatsapp',
] as const;

/** What a unit offers besides plans: its areas and modalities, linked alike. */
const OFFERS = {
  areas: { link: 'unidades_areas', column: 'area_id' },
  modalidades: { link: 'unidades_modalidades', column: 'modalidade_id' },
} as const;
type Offer = keyof typeof OFFERS;

/**
 * The names of the active areas or modalities linked to units: the search's tags (`unitId`
 * null: every active unit's) or one unit's page (sorted). Both pairs of tables have the same
 * shape; Kysely is told one of them.
 */
function offerNames(db: Db, offer: Offer, unitId: number | null) {
  const { link, column } = OFFERS[offer];
  const q = db
    .selectFrom(`${offer} as o` as 'areas as o')
    .innerJoin(`${link} as l` as 'unidades_areas as l', `l.${column}` as 'l.area_id', 'o.id')
    .select(['l.unidade_id', 'o.nome'])
    .where('o.ativo', '=', 1);
  if (unitId !== null) return q.where('l.unidade_id', '=', unitId).orderBy('o.nome').execute();
  return q.innerJoin('unidades as u', 'u.id', 'l.unidade_id').where('u.ativo', '=', 1).execute();
}

/** The active plans in the catalog's order: every one (`unitId` null) or those a unit offers. */
function activePlans(db: Db, unitId: number | null): Promise<PlanRow[]> {
  const q = db
    .selectFrom('planos as p')
    .select(['p.id', 'p.nome', 'p.descricao', 'p.preco_centavos', 'p.periodicidade', 'p.ordem'])
    .where('p.ativo', '=', 1)
    .orderBy('p.ordem')
    .orderBy('p.id');
  if (unitId === null) return q.execute();
  return q.innerJoin('planos_unidades as pu', 'pu.plano_id', 'p.id').where('pu.unidade_id', '=', unitId).execute();
}

export function createCatalogRepository(db: Db) {
  return {
    /** Everything the search, the home page and the Pass pages need: small, read at once. */
    async loadSnapshot(): Promise<SnapshotRows> {
      const units = await db
        .selectFrom('unidades')
        .select([...UNIT_CARD_COLUMNS, 'atualizado_em'])
        .where('ativo', '=', 1)
        .orderBy('id')
        .execute();
      const plans = await activePlans(db, null);
      // Every link: buildSnapshot keeps those whose plan and unit are active (no join needed).
      const planUnits = await db
        .selectFrom('planos_unidades')
        .select(['plano_id', 'unidade_id'])
        .orderBy('plano_id')
        .orderBy('unidade_id')
        .execute();
      const modalityTags = await offerNames(db, 'modalidades', null);
      const areaTags = await offerNames(db, 'areas', null);
      const photos = await db
        .selectFrom('unidade_fotos as f')
        .innerJoin('unidades as u', 'u.id', 'f.unidade_id')
        .select(['f.id', 'f.unidade_id', 'f.ordem', 'f.alt', 'f.hash', 'f.largura', 'f.altura', 'f.formatos'])
        .where('u.ativo', '=', 1)
        .orderBy('f.unidade_id')
        .orderBy('f.ordem')
        .orderBy('f.id')
        .execute();
      return { units, plans, planUnits, unitTags: [...modalityTags, ...areaTags], photos };
    },

    /** One active unit with everything its page shows; undefined when unknown or inactive. */
    async findActiveUnitDetail(id: number): Promise<UnitDetailRows | undefined> {
      const unit = await db
        .selectFrom('unidades')
        .select([...UNIT_CARD_COLUMNS, 'cep', 'telefone', 'email', 'descricao'])
        .where('id', '=', id)
        .where('ativo', '=', 1)
        .executeTakeFirst();
      if (!unit) return undefined;
      const [hours, plans, areas, modalities, classes] = await Promise.all([
        unitHours(db, id),
        activePlans(db, id),
        offerNames(db, 'areas', id),
        offerNames(db, 'modalidades', id),
        unitClasses(db, id),
      ]);
      return {
        unit,
        hours,
        plans,
        areas: areas.map((a) => a.nome),
        modalities: modalities.map((m) => m.nome),
        classes,
      };
    },
  };
}

export type CatalogRepository = ReturnType<typeof createCatalogRepository>;

// SQL for the unit screens: the unit row, its opening hours and its links to areas,
// modalities and plans. Takes a Kysely instance or a transaction.
import type { Insertable, Kysely } from 'kysely';
import type { Database, Unidade } from '../../../db/types';
import { relinkPlanUnits, stampedRows } from '../plans-taxonomy/plans.repository';
import { unitHours } from '../../catalog/catalog.repository';

type Q = Kysely<Database>;

/** The unit's legal entity: edited on the unit form, not carried by the catalog file. */
export type LegalEntityFields = Pick<Unidade, 'razao_social' | 'cnpj' | 'endereco_juridico'>;

/** The unit's editable columns (the row less its id, flag, timestamps and legal entity). */
export type UnitFields = Omit<Unidade, 'id' | 'ativo' | 'criado_em' | 'atualizado_em' | keyof LegalEntityFields>;

export interface HourRow {
  dia_semana: number;
  abre: string;
  fecha: string;
}

/** The tables whose rows belong wholly to one unit, area or modality. */
type OwnedTable = 'unidade_horarios' | 'unidades_areas' | 'unidades_modalidades';

/**
 * Sets the rows of one owner (`column` = `ownerId`) to `rows`: they carry nothing else worth
 * keeping, so all are rewritten. The tables differ in shape; Kysely is told one of them.
 */
export async function replaceOwnedRows<T extends OwnedTable>(
  db: Q,
  table: T,
  column: 'unidade_id' | 'area_id' | 'modalidade_id',
  ownerId: number,
  rows: Insertable<Database[T]>[],
) {
  await db
    .deleteFrom(table as 'unidades_areas')
    .where(column as 'area_id', '=', ownerId)
    .execute();
  if (rows.length)
    await db
      .insertInto(table as 'unidades_areas')
      .values(rows as Insertable<Database['unidades_areas']>[])
      .execute();
}

export function createUnitsRepository(db: Q) {
  const units = stampedRows(db, 'unidades');
  return {
    listUnits() {
      return db
        .selectFrom('unidades')
        .select(['id', 'nome', 'slug', 'cidade', 'uf', 'bairro', 'ativo'])
        .orderBy('nome')
        .execute();
    },
    listUnitsByIds(ids: number[]) {
      if (!ids.length) return Promise.resolve([]);
      return db
        .selectFrom('unidades')
        .select(['id', 'nome', 'slug', 'cidade', 'uf', 'bairro', 'ativo'])
        .where('id', 'in', ids)
        .orderBy('nome')
        .execute();
    },
    findUnit(id: number) {
      return db.selectFrom('unidades').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findUnitBySlug(slug: string) {
      return db.selectFrom('unidades').select(['id', 'slug']).where('slug', '=', slug).executeTakeFirst();
    },
    async unitLinks(id: number) {
      const [hours, areas, modalities, plans] = await Promise.all([
        unitHours(db, id),
        db.selectFrom('unidades_areas').select('area_id').where('unidade_id', '=', id).orderBy('area_id').execute(),
        db
          .selectFrom('unidades_modalidades')
          .select('modalidade_id')
          .where('unidade_id', '=', id)
          .orderBy('modalidade_id')
          .execute(),
        db.selectFrom('planos_unidades').select('plano_id').where('unidade_id', '=', id).orderBy('plano_id').execute(),
      ]);
      return {
        hours,
        areaIds: areas.map((r) => r.area_id),
        modalityIds: modalities.map((r) => r.modalidade_id),
        planIds: plans.map((r) => r.plano_id),
      };
    },
    insertUnit: (fields: UnitFields & Partial<LegalEntityFields>, now: string) => units.insert(fields, now),
    updateUnit: (id: number, fields: UnitFields & Partial<LegalEntityFields>, now: string) =>
      units.update(id, fields, now),
    setUnitActive: (id: number, ativo: number, now: string) => units.update(id, { ativo }, now),
    replaceHours: (unitId: number, hours: HourRow[]) =>
      replaceOwnedRows(
        db,
        'unidade_horarios',
        'unidade_id',
        unitId,
        hours.map((h) => ({ ...h, unidade_id: unitId })),
      ),
    replaceUnitAreas: (unitId: number, ids: number[]) =>
      replaceOwnedRows(
        db,
        'unidades_areas',
        'unidade_id',
        unitId,
        ids.map((area_id) => ({ unidade_id: unitId, area_id })),
      ),
    replaceUnitModalities: (unitId: number, ids: number[]) =>
      replaceOwnedRows(
        db,
        'unidades_modalidades',
        'unidade_id',
        unitId,
        ids.map((modalidade_id) => ({ unidade_id: unitId, modalidade_id })),
      ),
    /** Links and unlinks only what changed: a plan that stays keeps its prices at the unit. */
    replaceUnitPlans: (unitId: number, ids: number[]) => relinkPlanUnits(db, 'unidade_id', unitId, ids),
    async slugTaken(slug: string, exceptId?: number) {
      let q = db.selectFrom('unidades').select('id').where('slug', '=', slug);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return Boolean(await q.executeTakeFirst());
    },
  };
}

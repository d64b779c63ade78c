// SQL for the plan screens: the plan row and the units that sell it.
// Takes a Kysely instance or a transaction.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '../../../db/types';

type Q = Kysely<Database>;

/** Ids per statement: a plan may be sold at every unit, a unit thousands of plans (under both engines' limits). */
const CHUNK = 500;

export interface PlanFields {
  nome: string;
  descricao: string | null;
  preco_centavos: number;
  periodicidade: string;
  ordem: number;
}

/** The catalog's tables linking units to what they offer, by the column that names the other side. */
export const UNIT_LINKS = {
  plano_id: 'planos_unidades',
  area_id: 'unidades_areas',
  modalidade_id: 'unidades_modalidades',
} as const;
type UnitLinkColumn = keyof typeof UNIT_LINKS;

/**
 * The units linked to one plan, area or modality, by id. The three tables have the same
 * shape (unidade_id + the other side's id); Kysely is told one of them.
 */
export async function linkedUnitIds(db: Q, column: UnitLinkColumn, id: number): Promise<number[]> {
  const rows = await db
    .selectFrom(UNIT_LINKS[column] as 'planos_unidades')
    .select('unidade_id')
    .where(column as 'plano_id', '=', id)
    .orderBy('unidade_id')
    .execute();
  return rows.map((r) => r.unidade_id);
}

/** What a plan or unit row takes besides the timestamps every one of them gets. */
type StampedFields<T extends 'planos' | 'unidades'> = Omit<Insertable<Database[T]>, 'criado_em' | 'atualizado_em'>;

/**
 * Writes plans or units by id, stamping `atualizado_em` (the public pages' last change): both
 * tables carry the same flag and timestamps; Kysely is told one of them.
 */
export function stampedRows<T extends 'planos' | 'unidades'>(db: Q, name: T) {
  const table = name as 'planos';
  return {
    /** A new row is active unless `fields` says otherwise (a catalog import). */
    async insert(fields: StampedFields<T>, now: string) {
      const row = await db
        .insertInto(table)
        .values({ ativo: 1, ...(fields as StampedFields<'planos'>), criado_em: now, atualizado_em: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async update(id: number, fields: Updateable<Database[T]>, now: string) {
      await db
        .updateTable(table)
        .set({ ...(fields as Updateable<Database['planos']>), atualizado_em: now })
        .where('id', '=', id)
        .execute();
    },
  };
}

type LinkSide = 'plano_id' | 'unidade_id';

/**
 * Sets the links of one plan (side `plano_id`) or one unit (`unidade_id`) in planos_unidades to
 * `ids`, deleting and inserting only what changed: a link that stays keeps the prices it carries.
 */
export async function relinkPlanUnits(db: Q, side: LinkSide, ownerId: number, ids: number[]) {
  const other: LinkSide = side === 'plano_id' ? 'unidade_id' : 'plano_id';
  const current = (await db.selectFrom('planos_unidades').select(other).where(side, '=', ownerId).execute()).map(
    (r) => (r as Record<LinkSide, number>)[other],
  );
  const wanted = new Set(ids);
  const had = new Set(current);
  const gone = current.filter((id) => !wanted.has(id));
  const added = ids.filter((id) => !had.has(id));
  for (let i = 0; i < gone.length; i += CHUNK)
    await db
      .deleteFrom('planos_unidades')
      .where(side, '=', ownerId)
      .where(other, 'in', gone.slice(i, i + CHUNK))
      .execute();
  const row = (id: number) => ({ [side]: ownerId, [other]: id }) as Record<LinkSide, number>;
  for (let i = 0; i < added.length; i += CHUNK)
    await db
      .insertInto('planos_unidades')
      .values(added.slice(i, i + CHUNK).map(row))
      .execute();
}

export function createPlansRepository(db: Q) {
  const plans = stampedRows(db, 'planos');
  return {
    listPlans() {
      return db.selectFrom('planos').selectAll().orderBy('ordem').orderBy('nome').execute();
    },
    findPlan(id: number) {
      return db.selectFrom('planos').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findPlanByName(nome: string) {
      return db.selectFrom('planos').select('id').where('nome', '=', nome).orderBy('id').executeTakeFirst();
    },
    planUnitIds: (id: number) => linkedUnitIds(db, 'plano_id', id),
    insertPlan: (fields: PlanFields, now: string) => plans.insert(fields, now),
    updatePlan: (id: number, fields: PlanFields, now: string) => plans.update(id, fields, now),
    setPlanActive: (id: number, ativo: number, now: string) => plans.update(id, { ativo }, now),
    /** Links and unlinks only what changed: a unit that stays keeps the plan's prices there. */
    replacePlanUnits: (planId: number, ids: number[]) => relinkPlanUnits(db, 'plano_id', planId, ids),
  };
}

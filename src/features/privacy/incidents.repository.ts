// The SQL of the incident register (table incidentes).
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database, IncidentesTable } from '../../db/types';

export type Incident = Selectable<IncidentesTable>;
export type IncidentFields = Omit<Insertable<IncidentesTable>, 'id' | 'criado_por' | 'criado_em' | 'atualizado_em'>;

export function createIncidentsRepository(db: Kysely<Database>) {
  return {
    async count(): Promise<number> {
      const r = await db
        .selectFrom('incidentes')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    /** Newest found first. */
    list(limit: number, offset: number) {
      return db
        .selectFrom('incidentes')
        .selectAll()
        .orderBy('constatado_em', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** Older than `beforeId` (in id order, newest first): the CSV export's batches. */
    before(beforeId: number | null, limit: number) {
      let q = db.selectFrom('incidentes').selectAll();
      if (beforeId !== null) q = q.where('id', '<', beforeId);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },

    byId(id: number): Promise<Incident | undefined> {
      return db.selectFrom('incidentes').selectAll().where('id', '=', id).executeTakeFirst();
    },

    async insert(fields: IncidentFields, userId: number, now: string): Promise<number> {
      const row = await db
        .insertInto('incidentes')
        .values({ ...fields, criado_por: userId, criado_em: now, atualizado_em: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async update(id: number, fields: IncidentFields, now: string): Promise<void> {
      await db
        .updateTable('incidentes')
        .set({ ...fields, atualizado_em: now })
        .where('id', '=', id)
        .execute();
    },
  };
}
export type IncidentsRepository = ReturnType<typeof createIncidentsRepository>;

// The only SQL of unit photos (and their audit rows).
import { PostgresAdapter } from 'kysely';
import type { Db } from '../../db/index';
import type { UnitPhoto } from './photos';

const COLUMNS = ['id', 'unidade_id', 'ordem', 'alt', 'hash', 'largura', 'altura'] as const;

export function createPhotosRepository(db: Db) {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  async function audit(trx: Db, usuarioId: number | null, acao: string, id: number, antes: unknown, depois: unknown, now: string) {
    await trx
      .insertInto('auditoria')
      .values({
        usuario_id: usuarioId,
        acao,
        entidade: 'unidade_foto',
        entidade_id: id,
        antes: antes === null ? null : JSON.stringify(antes),
        depois: depois === null ? null : JSON.stringify(depois),
        criado_em: now,
      })
      .execute();
  }

  return {
    async unit(id: number) {
      return db.selectFrom('unidades').select(['id', 'nome', 'ativo']).where('id', '=', id).executeTakeFirst();
    },

    async list(unitId: number): Promise<UnitPhoto[]> {
      return db.selectFrom('unidade_fotos').select(COLUMNS).where('unidade_id', '=', unitId).orderBy('ordem').orderBy('id').execute();
    },

    /**
     * Adds a photo at the end, unless the unit already has `max` (checked inside the
     * transaction, so two uploads at once cannot make it nine). Returns null when full.
     */
    async add(photo: Omit<UnitPhoto, 'id' | 'ordem'>, max: number, usuarioId: number | null, now: string): Promise<number | null> {
      return db.transaction().execute(async (trx) => {
        // PostgreSQL: the unit row is locked, so a second upload waits and then counts this one.
        // SQLite runs one write transaction at a time anyway.
        if (pg) await trx.selectFrom('unidades').select('id').where('id', '=', photo.unidade_id).forUpdate().execute();
        const rows = await trx.selectFrom('unidade_fotos').select(['id', 'ordem']).where('unidade_id', '=', photo.unidade_id).execute();
        if (rows.length >= max) return null;
        const ordem = rows.reduce((m, r) => Math.max(m, r.ordem), 0) + 1;
        const { id } = await trx
          .insertInto('unidade_fotos')
          .values({ ...photo, ordem, criado_em: now, atualizado_em: now })
          .returning('id')
          .executeTakeFirstOrThrow();
        await audit(trx, usuarioId, 'criar', id, null, { unidade_id: photo.unidade_id, alt: photo.alt, hash: photo.hash }, now);
        return id;
      });
    },

    async setAlt(unitId: number, id: number, alt: string, usuarioId: number | null, now: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const before = await trx.selectFrom('unidade_fotos').select(['alt']).where('id', '=', id).where('unidade_id', '=', unitId).executeTakeFirst();
        if (!before) return false;
        await trx.updateTable('unidade_fotos').set({ alt, atualizado_em: now }).where('id', '=', id).execute();
        await audit(trx, usuarioId, 'editar', id, before, { alt }, now);
        return true;
      });
    },

    /** Writes a new order (ids first to last) for the unit's photos. */
    async reorder(unitId: number, ids: number[], usuarioId: number | null, now: string): Promise<void> {
      await db.transaction().execute(async (trx) => {
        for (const [i, id] of ids.entries()) {
          await trx.updateTable('unidade_fotos').set({ ordem: i + 1, atualizado_em: now }).where('id', '=', id).where('unidade_id', '=', unitId).execute();
        }
        await audit(trx, usuarioId, 'ordenar', unitId, null, { ordem: ids }, now);
      });
    },

    async remove(unitId: number, id: number, usuarioId: number | null, now: string): Promise<UnitPhoto | undefined> {
      return db.transaction().execute(async (trx) => {
        const row = await trx.selectFrom('unidade_fotos').select(COLUMNS).where('id', '=', id).where('unidade_id', '=', unitId).executeTakeFirst();
        if (!row) return undefined;
        await trx.deleteFrom('unidade_fotos').where('id', '=', id).execute();
        await audit(trx, usuarioId, 'excluir', id, { alt: row.alt, hash: row.hash }, null, now);
        return row;
      });
    },

    /** Is another row still using these files (the same photo uploaded twice)? */
    async hashInUse(unitId: number, hash: string): Promise<boolean> {
      return Boolean(await db.selectFrom('unidade_fotos').select('id').where('unidade_id', '=', unitId).where('hash', '=', hash).executeTakeFirst());
    },
  };
}

export type PhotosRepository = ReturnType<typeof createPhotosRepository>;

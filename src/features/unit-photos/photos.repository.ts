// The only SQL of unit photos (and their audit rows). Runs on the db or transaction it is
// built with; the service decides what goes in one transaction.
import type { Db } from '../../db/index';
import { isPostgres } from '../../db/index';
import { referencedKeys } from '../../platform/storage/references';
import type { UnitPhoto } from './photos';

const COLUMNS = ['id', 'unidade_id', 'ordem', 'alt', 'hash', 'largura', 'altura', 'formatos'] as const;

export function createPhotosRepository(db: Db) {
  const pg = isPostgres(db);
  /** The photos of one unit: another unit's photo is never found. */
  const photosOf = (unitId: number) => db.selectFrom('unidade_fotos').where('unidade_id', '=', unitId);
  return {
    async audit(usuarioId: number | null, acao: string, id: number, antes: unknown, depois: unknown, now: string) {
      await db
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
    },

    async unit(id: number) {
      return db.selectFrom('unidades').select(['id', 'nome', 'ativo']).where('id', '=', id).executeTakeFirst();
    },

    /**
     * PostgreSQL: locks the unit row, so a second upload waits and then counts this one (SQLite serialises writes
     * anyway).
     */
    async lockUnit(id: number): Promise<void> {
      if (pg) await db.selectFrom('unidades').select('id').where('id', '=', id).forUpdate().execute();
    },

    list(unitId: number): Promise<UnitPhoto[]> {
      return photosOf(unitId).select(COLUMNS).orderBy('ordem').orderBy('id').execute();
    },

    find(unitId: number, id: number): Promise<UnitPhoto | undefined> {
      return photosOf(unitId).select(COLUMNS).where('id', '=', id).executeTakeFirst();
    },

    async insert(photo: Omit<UnitPhoto, 'id'>, now: string): Promise<number> {
      const { id } = await db
        .insertInto('unidade_fotos')
        .values({ ...photo, criado_em: now, atualizado_em: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return id;
    },

    async setAlt(id: number, alt: string, now: string): Promise<void> {
      await db.updateTable('unidade_fotos').set({ alt, atualizado_em: now }).where('id', '=', id).execute();
    },

    async setOrder(unitId: number, id: number, ordem: number, now: string): Promise<void> {
      await db
        .updateTable('unidade_fotos')
        .set({ ordem, atualizado_em: now })
        .where('id', '=', id)
        .where('unidade_id', '=', unitId)
        .execute();
    },

    /** Records the storage keys of a photo's copies: what the orphan sweep keeps. */
    async insertFiles(photoId: number, keys: string[]): Promise<void> {
      if (keys.length)
        await db
          .insertInto('unidade_fotos_arquivos')
          .values(keys.map((chave) => ({ chave, foto_id: photoId })))
          .execute();
    },

    async fileKeys(photoId: number): Promise<string[]> {
      return (
        await db
          .selectFrom('unidade_fotos_arquivos')
          .select('chave')
          .where('foto_id', '=', photoId)
          .orderBy('chave')
          .execute()
      ).map((r) => r.chave);
    },

    /** The photo and the record of its files (the files themselves are removed after the commit, or by the sweep). */
    async delete(id: number): Promise<void> {
      await db.deleteFrom('unidade_fotos_arquivos').where('foto_id', '=', id).execute();
      await db.deleteFrom('unidade_fotos').where('id', '=', id).execute();
    },

    /** Is a row still using these files (the same photo uploaded twice)? */
    async hashInUse(unitId: number, hash: string): Promise<boolean> {
      return Boolean(await photosOf(unitId).select('id').where('hash', '=', hash).executeTakeFirst());
    },

    /** Which of these stored keys some row (of any feature) still holds. */
    keysInUse(keys: string[]): Promise<Set<string>> {
      return referencedKeys(db, keys);
    },
  };
}

export type PhotosRepository = ReturnType<typeof createPhotosRepository>;

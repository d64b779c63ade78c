// SQL for the area and modality screens (the catalog's taxonomy) and their units.
// Takes a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { linkedUnitIds, UNIT_LINKS } from './plans.repository';
import { replaceOwnedRows } from '../units/units.repository';

type Q = Kysely<Database>;

/** Sets the units of an area or a modality to `ids`: its links carry nothing else. */
function replaceUnitLinks(db: Q, column: 'area_id' | 'modalidade_id', ownerId: number, ids: number[]) {
  const rows = ids.map((unidade_id) => ({ unidade_id, [column]: ownerId }) as { unidade_id: number; area_id: number });
  return replaceOwnedRows(db, UNIT_LINKS[column], column, ownerId, rows);
}

export function createTaxonomyRepository(db: Q) {
  return {
    listAreas() {
      return db.selectFrom('areas').select(['id', 'nome', 'ativo']).orderBy('nome').execute();
    },
    findArea(id: number) {
      return db.selectFrom('areas').select(['id', 'nome', 'ativo']).where('id', '=', id).executeTakeFirst();
    },
    findAreaByName(nome: string) {
      return db.selectFrom('areas').select('id').where('nome', '=', nome).executeTakeFirst();
    },
    areaUnitIds: (id: number) => linkedUnitIds(db, 'area_id', id),
    async insertArea(nome: string) {
      return (await db.insertInto('areas').values({ nome, ativo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateArea(id: number, nome: string) {
      await db.updateTable('areas').set({ nome }).where('id', '=', id).execute();
    },
    async setAreaActive(id: number, ativo: number) {
      await db.updateTable('areas').set({ ativo }).where('id', '=', id).execute();
    },
    replaceAreaUnits: (areaId: number, ids: number[]) => replaceUnitLinks(db, 'area_id', areaId, ids),
    listModalities() {
      return db.selectFrom('modalidades').select(['id', 'nome', 'descricao', 'ativo']).orderBy('nome').execute();
    },
    findModality(id: number) {
      return db
        .selectFrom('modalidades')
        .select(['id', 'nome', 'descricao', 'ativo'])
        .where('id', '=', id)
        .executeTakeFirst();
    },
    findModalityByName(nome: string) {
      return db.selectFrom('modalidades').select('id').where('nome', '=', nome).executeTakeFirst();
    },
    modalityUnitIds: (id: number) => linkedUnitIds(db, 'modalidade_id', id),
    async insertModality(nome: string, descricao: string | null) {
      return (
        await db
          .insertInto('modalidades')
          .values({ nome, descricao, ativo: 1 })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    },
    async updateModality(id: number, nome: string, descricao: string | null) {
      await db.updateTable('modalidades').set({ nome, descricao }).where('id', '=', id).execute();
    },
    async setModalityActive(id: number, ativo: number) {
      await db.updateTable('modalidades').set({ ativo }).where('id', '=', id).execute();
    },
    replaceModalityUnits: (modalityId: number, ids: number[]) => replaceUnitLinks(db, 'modalidade_id', modalityId, ids),
    async nameTaken(table: 'areas' | 'modalidades', nome: string, exceptId?: number) {
      let q = db.selectFrom(table).select('id').where('nome', '=', nome);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return Boolean(await q.executeTakeFirst());
    },
  };
}

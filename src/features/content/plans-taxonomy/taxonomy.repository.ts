// SQL for the area and modality screens (the catalog's taxonomy) and their units.
// Takes a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';

type Q = Kysely<Database>;

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
    async areaUnitIds(id: number) {
      return (
        await db
          .selectFrom('unidades_areas')
          .select('unidade_id')
          .where('area_id', '=', id)
          .orderBy('unidade_id')
          .execute()
      ).map((r) => r.unidade_id);
    },
    async insertArea(nome: string) {
      return (await db.insertInto('areas').values({ nome, ativo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateArea(id: number, nome: string) {
      await db.updateTable('areas').set({ nome }).where('id', '=', id).execute();
    },
    async setAreaActive(id: number, ativo: number) {
      await db.updateTable('areas').set({ ativo }).where('id', '=', id).execute();
    },
    async replaceAreaUnits(areaId: number, ids: number[]) {
      await db.deleteFrom('unidades_areas').where('area_id', '=', areaId).execute();
      if (ids.length)
        await db
          .insertInto('unidades_areas')
          .values(ids.map((unidade_id) => ({ unidade_id, area_id: areaId })))
          .execute();
    },
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
    async modalityUnitIds(id: number) {
      return (
        await db
          .selectFrom('unidades_modalidades')
          .select('unidade_id')
          .where('modalidade_id', '=', id)
          .orderBy('unidade_id')
          .execute()
      ).map((r) => r.unidade_id);
    },
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
    async replaceModalityUnits(modalityId: number, ids: number[]) {
      await db.deleteFrom('unidades_modalidades').where('modalidade_id', '=', modalityId).execute();
      if (ids.length)
        await db
          .insertInto('unidades_modalidades')
          .values(ids.map((unidade_id) => ({ unidade_id, modalidade_id: modalityId })))
          .execute();
    },
    async nameTaken(table: 'areas' | 'modalidades', nome: string, exceptId?: number) {
      let q = db.selectFrom(table).select('id').where('nome', '=', nome);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return Boolean(await q.executeTakeFirst());
    },
  };
}

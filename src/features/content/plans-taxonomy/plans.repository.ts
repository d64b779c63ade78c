// SQL for the plan screens: the plan row and the units that sell it.
// Takes a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';

type Q = Kysely<Database>;

export interface PlanFields {
  nome: string;
  descricao: string | null;
  preco_centavos: number;
  periodicidade: string;
  ordem: number;
}

export function createPlansRepository(db: Q) {
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
    async planUnitIds(id: number) {
      return (
        await db
          .selectFrom('planos_unidades')
          .select('unidade_id')
          .where('plano_id', '=', id)
          .orderBy('unidade_id')
          .execute()
      ).map((r) => r.unidade_id);
    },
    async insertPlan(fields: PlanFields, now: string) {
      return (
        await db
          .insertInto('planos')
          .values({ ...fields, ativo: 1, criado_em: now, atualizado_em: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    },
    async updatePlan(id: number, fields: PlanFields, now: string) {
      await db
        .updateTable('planos')
        .set({ ...fields, atualizado_em: now })
        .where('id', '=', id)
        .execute();
    },
    async setPlanActive(id: number, ativo: number, now: string) {
      await db.updateTable('planos').set({ ativo, atualizado_em: now }).where('id', '=', id).execute();
    },
    async replacePlanUnits(planId: number, ids: number[]) {
      await db.deleteFrom('planos_unidades').where('plano_id', '=', planId).execute();
      if (ids.length)
        await db
          .insertInto('planos_unidades')
          .values(ids.map((unidade_id) => ({ plano_id: planId, unidade_id })))
          .execute();
    },
  };
}

// SQL for the prices and terms of a plan at a unit: the price columns of its planos_unidades
// row (integer centavos). Takes a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
import type { Database, Flag } from '../../../db/types';

type Q = Kysely<Database>;

/** What the plan-price screen edits. */
export interface PlanPriceFields {
  /** null: not priced, so not sold online at this unit */
  mensalidade_centavos: number | null;
  taxa_matricula_centavos: number;
  taxa_anual_centavos: number;
  /** 1–12; null without an annual fee */
  taxa_anual_mes: number | null;
  fidelidade_meses: number;
  multa_percentual: number;
  venda_online: Flag;
}

/** A plan offered at a unit, with its catalog data and its prices and terms there. */
export interface PlanPriceRow extends PlanPriceFields {
  plano_id: number;
  unidade_id: number;
  nome: string;
  periodicidade: string;
  /** the plan's catalog price (per period), shown beside the unit's monthly price */
  preco_centavos: number;
  ativo: Flag;
}

/** The prices and terms of a plan at a unit (planos_unidades as pu): the online enrolment sells by them. */
export const TERM_COLUMNS = [
  'pu.mensalidade_centavos',
  'pu.taxa_matricula_centavos',
  'pu.taxa_anual_centavos',
  'pu.taxa_anual_mes',
  'pu.fidelidade_meses',
  'pu.multa_percentual',
] as const;

export function createPlanPricesRepository(db: Q) {
  // The whole link row (its prices and terms) and the plan's catalog data.
  const rows = () =>
    db
      .selectFrom('planos_unidades as pu')
      .innerJoin('planos as p', 'p.id', 'pu.plano_id')
      .selectAll('pu')
      .select(['p.nome', 'p.periodicidade', 'p.preco_centavos', 'p.ativo']);
  return {
    /** The plans of a unit in the catalog's order. */
    listUnitPlanPrices(unitId: number): Promise<PlanPriceRow[]> {
      return rows().where('pu.unidade_id', '=', unitId).orderBy('p.ordem').orderBy('p.nome').orderBy('p.id').execute();
    },
    /** undefined when the plan is not offered at the unit. */
    findPlanPrice(unitId: number, planId: number): Promise<PlanPriceRow | undefined> {
      return rows().where('pu.unidade_id', '=', unitId).where('pu.plano_id', '=', planId).executeTakeFirst();
    },
    async updatePlanPrice(unitId: number, planId: number, fields: PlanPriceFields) {
      await db
        .updateTable('planos_unidades')
        .set(fields)
        .where('unidade_id', '=', unitId)
        .where('plano_id', '=', planId)
        .execute();
    },
    /** How many plans of the unit are sold online (they need the unit's legal entity). */
    async countOnlinePlans(unitId: number): Promise<number> {
      const row = await db
        .selectFrom('planos_unidades')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('unidade_id', '=', unitId)
        .where('venda_online', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
  };
}

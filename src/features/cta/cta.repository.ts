// The only SQL of the calls-to-action counts. Reports read `agregados_cliques` (per week, unit
// and action, kept with each click), so their work grows with units and weeks, not clicks.
import { sql } from 'kysely';
import { type Db, inTransaction, isPostgres } from '../../db/index';

export interface ActionCount {
  acao: string;
  total: number;
}

export function createCtaRepository(db: Db) {
  /** Counted clicks since `fromWeek` (inclusive); `unitIds` null = every unit. */
  const since = (fromWeek: string, unitIds: number[] | null) => {
    let q = db.selectFrom('agregados_cliques').where('semana', '>=', fromWeek);
    if (unitIds) q = q.where('unidade_id', 'in', unitIds);
    return q;
  };

  return {
    async record(click: {
      unidade_id: number;
      acao: string;
      plano_id: number | null;
      semana: string;
      criado_em: string;
    }): Promise<void> {
      await inTransaction(db, async (trx) => {
        await trx.insertInto('cliques_cta').values(click).execute();
        await trx
          .insertInto('agregados_cliques')
          .values({ semana: click.semana, unidade_id: click.unidade_id, acao: click.acao, n: 1 })
          .onConflict((oc) =>
            oc
              .columns(['semana', 'unidade_id', 'acao'])
              .doUpdateSet((eb) => ({ n: eb('agregados_cliques.n', '+', eb.ref('excluded.n')) })),
          )
          .execute();
      });
    },

    /**
     * Recounts the counted clicks from the stored ones (after clicks written by another tool,
     * such as seed:volume), in one transaction: readers see the old counts or the new.
     */
    async rebuildCounts(): Promise<number> {
      const rows = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('agregados_cliques').execute();
        await sql`insert into agregados_cliques (semana, unidade_id, acao, n)
          select semana, unidade_id, acao, count(*) from cliques_cta where unidade_id is not null
          group by 1, 2, 3 order by 1, 2, 3`.execute(trx);
        const row = await trx
          .selectFrom('agregados_cliques')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow();
        return Number(row.n);
      });
      if (isPostgres(db)) await sql`analyze agregados_cliques`.execute(db);
      return rows;
    },

    /** Clicks per week and action since `fromWeek`, summed over `unitIds` (null = every unit). */
    async countsByWeek(fromWeek: string, unitIds: number[] | null): Promise<(ActionCount & { semana: string })[]> {
      if (unitIds && unitIds.length === 0) return [];
      const rows = await since(fromWeek, unitIds)
        .select(['semana', 'acao', (eb) => eb.fn.sum<string | number>('n').as('total')])
        .groupBy(['semana', 'acao'])
        .execute();
      return rows.map((r) => ({ semana: r.semana, acao: r.acao, total: Number(r.total) }));
    },

    /** Clicks per unit and action since `fromWeek`, for the units of one page (never all of them). */
    async countsByUnit(fromWeek: string, unitIds: number[]): Promise<(ActionCount & { unidade_id: number })[]> {
      if (unitIds.length === 0) return [];
      const rows = await since(fromWeek, unitIds)
        .select(['unidade_id', 'acao', (eb) => eb.fn.sum<string | number>('n').as('total')])
        .groupBy(['unidade_id', 'acao'])
        .execute();
      return rows.map((r) => ({ unidade_id: r.unidade_id as number, acao: r.acao, total: Number(r.total) }));
    },

    /** The units a report may list (id, name, city: a catalog-sized list; the service orders them). */
    async units(unitIds: number[] | null): Promise<{ id: number; nome: string; cidade: string; uf: string }[]> {
      if (unitIds && unitIds.length === 0) return [];
      let q = db.selectFrom('unidades').select(['id', 'nome', 'cidade', 'uf']);
      if (unitIds) q = q.where('id', 'in', unitIds);
      return q.execute();
    },
  };
}

export type CtaRepository = ReturnType<typeof createCtaRepository>;

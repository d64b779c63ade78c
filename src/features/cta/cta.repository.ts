// The only SQL of the calls-to-action counts.
import type { Db } from '../../db/index';

export interface ActionCount {
  acao: string;
  total: number;
}

export function createCtaRepository(db: Db) {
  /** Clicks since `fromWeek` (inclusive) of units with an id; `unitIds` null = every unit. */
  const since = (fromWeek: string, unitIds: number[] | null) => {
    let q = db.selectFrom('cliques_cta').where('semana', '>=', fromWeek).where('unidade_id', 'is not', null);
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
      await db.insertInto('cliques_cta').values(click).execute();
    },

    /** Clicks per week and action since `fromWeek`, summed over `unitIds` (null = every unit). */
    async countsByWeek(fromWeek: string, unitIds: number[] | null): Promise<(ActionCount & { semana: string })[]> {
      if (unitIds && unitIds.length === 0) return [];
      const rows = await since(fromWeek, unitIds)
        .select(['semana', 'acao', (eb) => eb.fn.countAll<string | number>().as('total')])
        .groupBy(['semana', 'acao'])
        .execute();
      return rows.map((r) => ({ semana: r.semana, acao: r.acao, total: Number(r.total) }));
    },

    /** Clicks per unit and action since `fromWeek`, for the units of one page (never all of them). */
    async countsByUnit(fromWeek: string, unitIds: number[]): Promise<(ActionCount & { unidade_id: number })[]> {
      if (unitIds.length === 0) return [];
      const rows = await since(fromWeek, unitIds)
        .select(['unidade_id', 'acao', (eb) => eb.fn.countAll<string | number>().as('total')])
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

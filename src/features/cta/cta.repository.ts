// The only SQL of the calls-to-action counts.
import type { Db } from '../../db/index';

export interface ClickCount {
  unidade_id: number;
  semana: string;
  acao: string;
  total: number;
}

export function createCtaRepository(db: Db) {
  return {
    async record(click: { unidade_id: number; acao: string; plano_id: number | null; semana: string; criado_em: string }): Promise<void> {
      await db.insertInto('cliques_cta').values(click).execute();
    },

    /** Clicks per unit, week and action since `fromWeek` (inclusive); `unitIds` null = every unit. */
    async counts(fromWeek: string, unitIds: number[] | null): Promise<ClickCount[]> {
      if (unitIds && unitIds.length === 0) return [];
      let q = db
        .selectFrom('cliques_cta')
        .select(['unidade_id', 'semana', 'acao', (eb) => eb.fn.countAll<string | number>().as('total')])
        .where('semana', '>=', fromWeek)
        .where('unidade_id', 'is not', null)
        .groupBy(['unidade_id', 'semana', 'acao']);
      if (unitIds) q = q.where('unidade_id', 'in', unitIds);
      const rows = await q.execute();
      return rows.map((r) => ({ unidade_id: r.unidade_id as number, semana: r.semana, acao: r.acao, total: Number(r.total) }));
    },

    async units(unitIds: number[] | null): Promise<{ id: number; nome: string; cidade: string }[]> {
      if (unitIds && unitIds.length === 0) return [];
      let q = db.selectFrom('unidades').select(['id', 'nome', 'cidade']).orderBy('nome').orderBy('id');
      if (unitIds) q = q.where('id', 'in', unitIds);
      return q.execute();
    },
  };
}

export type CtaRepository = ReturnType<typeof createCtaRepository>;

// The survey's derived figures (agregados_nps, agregados_opcoes): per São Paulo day and per
// month, unit and channel / option. Every path that stores or removes answers changes them in
// its own transaction through `apply`; `rebuild` recounts them from the answers.
import { type Kysely, type RawBuilder, sql } from 'kysely';
import type { Database } from '../../../db/types';
import { isPostgres } from '../../../db/index';
import { addDays, saoPauloDay } from '../../../lib/time';

/** What one stored answer adds to the figures. */
export interface CountedResponse {
  unidadeId: number;
  origem: string;
  criadoEm: string;
  nota: number | null;
  /** options chosen (items without an option are not counted) */
  opcoes: { perguntaId: number; opcaoId: number }[];
}

/** A period of São Paulo days [de, ate] (both included), for some units (null = all). */
export interface AggregateFilter {
  unitIds: number[] | null;
  de: string;
  ate: string;
}

/**
 * The rows that cover [de, ate]: whole months as month rows, the rest as day ranges that
 * never cross a month (so a range of days never also matches a month row). A part of a month
 * is read as the month row minus the days left out (`minus`) when those are fewer: the days
 * after `today` hold no answers, so "up to today" costs one row per unit instead of a row per day.
 */
export function periodParts(
  de: string,
  ate: string,
  today: string = saoPauloDay(),
): { months: string[]; days: [string, string][]; minus: [string, string][] } {
  const months: string[] = [];
  const days: [string, string][] = [];
  const minus: [string, string][] = [];
  // Days of [from, to] that can hold answers (none after today).
  const daysWithAnswers = (from: string, to: string) => {
    const end = to < today ? to : today;
    return end < from ? 0 : Math.round((Date.parse(end) - Date.parse(from)) / 86_400_000) + 1;
  };
  let first = `${de.slice(0, 7)}-01`;
  while (first <= ate) {
    const nextFirst = addDays(`${first.slice(0, 7)}-28`, 4)
      .slice(0, 7)
      .concat('-01');
    const last = addDays(nextFirst, -1);
    const from = first < de ? de : first;
    const to = last > ate ? ate : last;
    const before: [string, string] | null = from > first ? [first, addDays(from, -1)] : null;
    const after: [string, string] | null = to < last ? [addDays(to, 1), last] : null;
    const left = [before, after].filter((r): r is [string, string] => r !== null && daysWithAnswers(...r) > 0);
    const leftDays = left.reduce((n, r) => n + daysWithAnswers(...r), 0);
    if (!left.length) months.push(first.slice(0, 7));
    else if (1 + leftDays < daysWithAnswers(from, to)) {
      months.push(first.slice(0, 7));
      minus.push(...left);
    } else days.push([from, to]);
    first = nextFirst;
  }
  return { months, days, minus };
}

const dayOf = (iso: string) => saoPauloDay(new Date(iso));

export function createAggregatesRepository(db: Kysely<Database>) {
  const postgres = isPostgres(db);

  const inRange = (eb: any, [from, to]: [string, string]) =>
    eb.and([eb('a.periodo', '>=', from), eb('a.periodo', '<=', to)]);

  /** The rows of the period, and `sum` of a column over them (the days in `minus` taken away). */
  function period(f: AggregateFilter) {
    const { months, days, minus } = periodParts(f.de, f.ate);
    const sum = (column: string) => {
      if (!minus.length) return sql<number>`sum(${sql.ref(column)})`;
      const out = sql.join(
        minus.map(([from, to]) => sql`(a.periodo >= ${from} and a.periodo <= ${to})`),
        sql` or `,
      );
      return sql<number>`sum(case when ${out} then -${sql.ref(column)} else ${sql.ref(column)} end)`;
    };
    const within = <QB extends { where: any }>(qb: QB): QB => {
      let q: any = qb.where((eb: any) =>
        eb.or([
          ...(months.length ? [eb('a.periodo', 'in', months)] : []),
          ...[...days, ...minus].map((r) => inRange(eb, r)),
          ...(months.length || days.length ? [] : [sql<boolean>`1 = 0`]),
        ]),
      );
      if (f.unitIds) q = f.unitIds.length ? q.where('a.unidade_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
      return q;
    };
    return { sum, within };
  }

  const npsSums = (sum: (column: string) => RawBuilder<number>) => [
    sum('a.respostas').as('respostas'),
    sum('a.notas').as('total'),
    sum('a.promotores').as('promotores'),
    sum('a.detratores').as('detratores'),
  ];
  const counts = (r: { respostas: unknown; total: unknown; promotores: unknown; detratores: unknown }) => ({
    respostas: Number(r.respostas ?? 0),
    total: Number(r.total ?? 0),
    promotores: Number(r.promotores ?? 0),
    detratores: Number(r.detratores ?? 0),
  });

  /** The period's NPS figures per value of `key` (a column or an expression), read as `chave`. */
  async function npsBy(f: AggregateFilter, key: RawBuilder<unknown>) {
    const p = period(f);
    const rows = await p
      .within(
        db
          .selectFrom('agregados_nps as a')
          .select([key.as('chave'), ...npsSums(p.sum)])
          .groupBy(key),
      )
      .execute();
    return rows as ({ chave: unknown } & Parameters<typeof counts>[0])[];
  }

  return {
    /**
     * Adds (sign 1) or takes away (sign -1) answers from the figures. Call it inside the
     * transaction that stores or deletes them. Rows are changed in one fixed order, so two
     * transactions on PostgreSQL never wait for each other in a circle.
     */
    async apply(trx: Kysely<Database>, responses: CountedResponse[], sign: 1 | -1): Promise<void> {
      if (!responses.length) return;
      const nps = new Map<string, { periodo: string; unidade_id: number; origem: string; c: number[] }>();
      const opts = new Map<
        string,
        { periodo: string; unidade_id: number; pergunta_id: number; opcao_id: number; n: number }
      >();
      for (const r of responses) {
        const day = dayOf(r.criadoEm);
        for (const periodo of [day, day.slice(0, 7)]) {
          const k = `${periodo}|${r.unidadeId}|${r.origem}`;
          let row = nps.get(k);
          if (!row) nps.set(k, (row = { periodo, unidade_id: r.unidadeId, origem: r.origem, c: [0, 0, 0, 0] }));
          row.c[0]! += sign;
          if (r.nota !== null) {
            row.c[1]! += sign;
            if (r.nota >= 9) row.c[2]! += sign;
            if (r.nota <= 6) row.c[3]! += sign;
          }
          for (const o of r.opcoes) {
            const ok = `${periodo}|${r.unidadeId}|${o.perguntaId}|${o.opcaoId}`;
            const row2 = opts.get(ok);
            if (row2) row2.n += sign;
            else
              opts.set(ok, {
                periodo,
                unidade_id: r.unidadeId,
                pergunta_id: o.perguntaId,
                opcao_id: o.opcaoId,
                n: sign,
              });
          }
        }
      }
      const npsRows = [...nps.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, r]) => ({
          periodo: r.periodo,
          unidade_id: r.unidade_id,
          origem: r.origem,
          respostas: r.c[0]!,
          notas: r.c[1]!,
          promotores: r.c[2]!,
          detratores: r.c[3]!,
        }));
      await trx
        .insertInto('agregados_nps')
        .values(npsRows)
        .onConflict((oc) =>
          oc.columns(['periodo', 'unidade_id', 'origem']).doUpdateSet((eb) => ({
            respostas: eb('agregados_nps.respostas', '+', eb.ref('excluded.respostas')),
            notas: eb('agregados_nps.notas', '+', eb.ref('excluded.notas')),
            promotores: eb('agregados_nps.promotores', '+', eb.ref('excluded.promotores')),
            detratores: eb('agregados_nps.detratores', '+', eb.ref('excluded.detratores')),
          })),
        )
        .execute();
      const optRows = [...opts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, r]) => r);
      if (optRows.length) {
        await trx
          .insertInto('agregados_opcoes')
          .values(optRows)
          .onConflict((oc) =>
            oc
              .columns(['periodo', 'unidade_id', 'pergunta_id', 'opcao_id'])
              .doUpdateSet((eb) => ({ n: eb('agregados_opcoes.n', '+', eb.ref('excluded.n')) })),
          )
          .execute();
      }
    },

    /** The figures of the given answers as stored now (for a path about to delete them). */
    async countedResponses(trx: Kysely<Database>, ids: number[]): Promise<CountedResponse[]> {
      if (!ids.length) return [];
      const heads = await trx
        .selectFrom('respostas_nps')
        .select(['id', 'unidade_id', 'origem', 'criado_em', 'nota_nps'])
        .where('id', 'in', ids)
        .execute();
      const items = await trx
        .selectFrom('respostas_itens')
        .select(['resposta_id', 'pergunta_id', 'opcao_id'])
        .where('resposta_id', 'in', ids)
        .where('opcao_id', 'is not', null)
        .execute();
      const byId = new Map<number, { perguntaId: number; opcaoId: number }[]>();
      for (const i of items) {
        const list = byId.get(i.resposta_id) ?? [];
        list.push({ perguntaId: i.pergunta_id, opcaoId: i.opcao_id! });
        byId.set(i.resposta_id, list);
      }
      return heads.map((h) => ({
        unidadeId: h.unidade_id,
        origem: h.origem,
        criadoEm: h.criado_em,
        nota: h.nota_nps,
        opcoes: byId.get(h.id) ?? [],
      }));
    },

    async byUnit(f: AggregateFilter) {
      const rows = await npsBy(f, sql.ref('a.unidade_id'));
      return rows.map((r) => ({ unidadeId: Number(r.chave), ...counts(r) })).filter((r) => r.respostas > 0);
    },

    /** Per São Paulo month (AAAA-MM) of the period. */
    async byMonth(f: AggregateFilter) {
      const rows = await npsBy(f, sql`substr(a.periodo, 1, 7)`);
      return rows.map((r) => ({ mes: String(r.chave), ...counts(r) }));
    },

    async byOrigin(f: AggregateFilter) {
      const rows = await npsBy(f, sql.ref('a.origem'));
      return rows.map((r) => ({ origem: String(r.chave), ...counts(r) }));
    },

    async optionCounts(f: AggregateFilter) {
      const p = period(f);
      const rows = await p
        .within(
          db
            .selectFrom('agregados_opcoes as a')
            .select(['a.pergunta_id as perguntaId', 'a.opcao_id as opcaoId', p.sum('a.n').as('n')])
            .groupBy(['a.pergunta_id', 'a.opcao_id']),
        )
        .execute();
      return rows
        .map((r: any) => ({ perguntaId: Number(r.perguntaId), opcaoId: Number(r.opcaoId), n: Number(r.n ?? 0) }))
        .filter((r) => r.n > 0);
    },

    /**
     * Recounts every figure from the answers (after an import, a restore, or rows written by
     * another tool), in one transaction: readers see the old figures or the new, never none.
     * Rows are written in period order, so a report's period is a few contiguous pages of the
     * table (on PostgreSQL, written in hash order, a 90-day report read 58,000 scattered pages),
     * and the planner's statistics are refreshed afterwards.
     */
    async rebuild(): Promise<{ nps: number; opcoes: number }> {
      // São Paulo has kept UTC-3 all year since 2019.
      const day = postgres
        ? sql.raw(`to_char(cast(r.criado_em as timestamp) - interval '3 hours', 'YYYY-MM-DD')`)
        : sql.raw(`date(r.criado_em, '-3 hours')`);
      const counted = await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('agregados_nps').execute();
        await trx.deleteFrom('agregados_opcoes').execute();
        await sql`insert into agregados_nps (periodo, unidade_id, origem, respostas, notas, promotores, detratores)
          select ${day}, r.unidade_id, r.origem, count(*), count(r.nota_nps),
            sum(case when r.nota_nps >= 9 then 1 else 0 end), sum(case when r.nota_nps <= 6 then 1 else 0 end)
          from respostas_nps r group by 1, 2, 3 order by 1, 2, 3`.execute(trx);
        await sql`insert into agregados_opcoes (periodo, unidade_id, pergunta_id, opcao_id, n)
          select ${day}, r.unidade_id, i.pergunta_id, i.opcao_id, count(*)
          from respostas_itens i join respostas_nps r on r.id = i.resposta_id
          where i.opcao_id is not null group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(trx);
        await sql`insert into agregados_nps (periodo, unidade_id, origem, respostas, notas, promotores, detratores)
          select substr(periodo, 1, 7), unidade_id, origem, sum(respostas), sum(notas), sum(promotores), sum(detratores)
          from agregados_nps group by 1, 2, 3 order by 1, 2, 3`.execute(trx);
        await sql`insert into agregados_opcoes (periodo, unidade_id, pergunta_id, opcao_id, n)
          select substr(periodo, 1, 7), unidade_id, pergunta_id, opcao_id, sum(n)
          from agregados_opcoes group by 1, 2, 3, 4 order by 1, 2, 3, 4`.execute(trx);
        const count = async (t: 'agregados_nps' | 'agregados_opcoes') =>
          Number(
            (
              await trx
                .selectFrom(t)
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        return { nps: await count('agregados_nps'), opcoes: await count('agregados_opcoes') };
      });
      // SQLite plans without statistics everywhere else: analysing two tables would change them.
      if (postgres) {
        await sql`analyze agregados_nps`.execute(db);
        await sql`analyze agregados_opcoes`.execute(db);
      }
      return counted;
    },
  };
}

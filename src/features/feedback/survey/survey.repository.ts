import { type RawBuilder, sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { inTransaction, isPostgres } from '../../../db/index';
import { databaseCsvWriter } from '../../../db/csv/sql';
import { saoPauloDay } from '../../../lib/time';
import type { NpsCounts } from './nps';
import { createFormUnitsRepository, type UnitRef } from '../units.repository';
import { type AggregateFilter, type CountedResponse, createAggregatesRepository } from './aggregates.repository';

export interface SurveyOption {
  id: number;
  texto: string;
  valor: number | null;
}

export interface SurveyQuestion {
  id: number;
  texto: string;
  tipo: 'escala' | 'opcoes' | 'texto';
  obrigatoria: boolean;
  opcoes: SurveyOption[];
}

export type { UnitRef } from '../units.repository';

export interface NewSurveyResponse {
  unidadeId: number;
  nomeCliente: string | null;
  contatoCliente: string | null;
  comentario: string | null;
  notaNps: number | null;
  /** the key the response is stored under: its envio_id, or the content key `storeEachOnce` claimed */
  envioId: string | null;
  /** site | cartaz | quiosque */
  origem?: string;
  criadoEm: string;
  itens: { perguntaId: number; opcaoId: number | null; texto: string | null; textoOk: boolean }[];
}

/** Where an export batch ends: the last answer's time and id. */
export type ExportCursor = {
  criadoEm: string;
  id: number;
};

/** What the database needs to write the survey export's cells as the app does. */
export interface SurveyCsvCells {
  /** the active questions, in column order */
  questions: readonly { id: number }[];
  categories: Readonly<Record<'promotores' | 'neutros' | 'detratores', string>>;
  /** option id → text, of the active questions' options */
  options: Readonly<Record<number, string>>;
  /** what a text question answered "all right" shows */
  allRight: string;
}

export interface ResponseFilter {
  /** null = every unit (admins); [] = none */
  unitIds: number[] | null;
  fromIso: string;
  toIso: string;
  /** promotores 9–10, neutros 7–8, detratores 0–6; pendentes: detractors with a comment nobody has marked handled */
  categoria?: 'promotores' | 'neutros' | 'detratores' | 'pendentes';
}

/**
 * Detractors with a comment nobody has handled: written as literals (not parameters) so that
 * SQLite, like PostgreSQL, sees it is the condition of the partial index kept for them.
 */
const PENDING = sql<boolean>`r.nota_nps <= 6 and r.tratada_em is null
  and r.comentario is not null and r.comentario <> ''`;

/** The São Paulo days of a filter (its instants are São Paulo day starts, `toIso` exclusive). */
function daysOf(f: ResponseFilter): AggregateFilter {
  return {
    unitIds: f.unitIds,
    de: saoPauloDay(new Date(f.fromIso)),
    ate: saoPauloDay(new Date(new Date(f.toIso).getTime() - 1)),
  };
}

/** The NPS counts of a group of answers (respostas_nps as r): scored, promoters (9–10), detractors (0–6). */
export const NPS_COUNTS = [
  sql<number>`count(r.nota_nps)`.as('total'),
  sql<number>`sum(case when r.nota_nps >= 9 then 1 else 0 end)`.as('promotores'),
  sql<number>`sum(case when r.nota_nps <= 6 then 1 else 0 end)`.as('detratores'),
];

/** NPS_COUNTS as numbers (the drivers may hand back strings, and a sum over no rows is null). */
export function npsCountsOf(r: { total: unknown; promotores: unknown; detratores: unknown }): NpsCounts {
  return { total: Number(r.total), promotores: Number(r.promotores ?? 0), detratores: Number(r.detratores ?? 0) };
}

export function createSurveyRepository(db: Kysely<Database>) {
  const aggregates = createAggregatesRepository(db);
  const csv = databaseCsvWriter(db);
  const pg = isPostgres(db);
  /** One answer as the list and the CSV export show it, with its unit's name. */
  const responseRows = () =>
    db
      .selectFrom('respostas_nps as r')
      .innerJoin('unidades as u', 'u.id', 'r.unidade_id')
      .select([
        'r.id',
        'r.unidade_id',
        'u.nome as unidade',
        'r.nota_nps',
        'r.nome_cliente',
        'r.contato_cliente',
        'r.comentario',
        'r.criado_em',
      ]);
  function applyFilter<QB extends { where: any }>(qb: QB, f: ResponseFilter): QB {
    let q: any = qb.where('r.criado_em', '>=', f.fromIso).where('r.criado_em', '<', f.toIso);
    if (f.unitIds) q = f.unitIds.length ? q.where('r.unidade_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
    if (f.categoria === 'promotores') q = q.where('r.nota_nps', '>=', 9);
    if (f.categoria === 'neutros') q = q.where('r.nota_nps', '>=', 7).where('r.nota_nps', '<=', 8);
    if (f.categoria === 'detratores') q = q.where('r.nota_nps', '<=', 6);
    // The same rule as the start page's queue (detractorsToHandle).
    if (f.categoria === 'pendentes') {
      q = q.where(PENDING);
    }
    return q;
  }

  return {
    ...createFormUnitsRepository(db),

    async allUnits(): Promise<(UnitRef & { uf: string; ativo: number })[]> {
      return db.selectFrom('unidades').select(['id', 'nome', 'cidade', 'uf', 'ativo']).orderBy('nome').execute();
    },

    /** Active questions with their active options, in display order (one query: it runs on every submission). */
    async activeQuestions(): Promise<SurveyQuestion[]> {
      const rows = await db
        .selectFrom('perguntas as p')
        .leftJoin('perguntas_opcoes as o', (join) => join.onRef('o.pergunta_id', '=', 'p.id').on('o.ativo', '=', 1))
        .select([
          'p.id',
          'p.texto',
          'p.tipo',
          'p.obrigatoria',
          'o.id as opcao_id',
          'o.texto as opcao_texto',
          'o.valor as opcao_valor',
        ])
        .where('p.ativo', '=', 1)
        .orderBy('p.ordem')
        .orderBy('p.id')
        .orderBy('o.ordem')
        .orderBy('o.id')
        .execute();
      const questions: SurveyQuestion[] = [];
      for (const r of rows) {
        let q = questions[questions.length - 1];
        if (!q || q.id !== r.id) {
          q = {
            id: r.id,
            texto: r.texto,
            tipo: r.tipo === 'escala' || r.tipo === 'texto' ? r.tipo : 'opcoes',
            obrigatoria: r.obrigatoria === 1,
            opcoes: [],
          };
          questions.push(q);
        }
        if (r.opcao_id !== null) q.opcoes.push({ id: r.opcao_id, texto: r.opcao_texto!, valor: r.opcao_valor });
      }
      return questions;
    },

    async envioExists(envioId: string): Promise<boolean> {
      const row = await db.selectFrom('respostas_nps').select('id').where('envio_id', '=', envioId).executeTakeFirst();
      return !!row;
    },

    /**
     * Stores responses, each as its header and items, and adds them to the derived figures, in
     * ONE transaction (the caller's when bound to one: a batch shares the commit). For each
     * record its new id, or null when a response is already stored under its `envioId` (the
     * UNIQUE column: a key whose `envios` row is past the window), in which case nothing of
     * it is written. If any statement fails the whole transaction is rolled back.
     */
    async insertResponses(records: readonly NewSurveyResponse[]): Promise<(number | null)[]> {
      return inTransaction(db, async (trx) => {
        const ids: (number | null)[] = [];
        const counted: CountedResponse[] = [];
        for (const r of records) {
          const row = await trx
            .insertInto('respostas_nps')
            .values({
              unidade_id: r.unidadeId,
              nome_cliente: r.nomeCliente,
              contato_cliente: r.contatoCliente,
              comentario: r.comentario,
              nota_nps: r.notaNps,
              envio_id: r.envioId,
              origem: r.origem ?? 'site',
              criado_em: r.criadoEm,
            })
            // Two racing clicks are settled by the envios claim before this; the UNIQUE
            // envio_id still refuses a key stored before the claim's 24 h window.
            .onConflict((oc) => oc.column('envio_id').doNothing())
            .returning('id')
            .executeTakeFirst();
          ids.push(row ? row.id : null);
          if (!row) continue;
          if (r.itens.length) {
            await trx
              .insertInto('respostas_itens')
              .values(
                r.itens.map((i) => ({
                  resposta_id: row.id,
                  pergunta_id: i.perguntaId,
                  opcao_id: i.opcaoId,
                  texto: i.texto,
                  texto_ok: i.textoOk ? 1 : 0,
                })),
              )
              .execute();
          }
          counted.push({
            unidadeId: r.unidadeId,
            origem: r.origem ?? 'site',
            criadoEm: r.criadoEm,
            nota: r.notaNps,
            opcoes: r.itens.flatMap((i) =>
              i.opcaoId === null ? [] : [{ perguntaId: i.perguntaId, opcaoId: i.opcaoId }],
            ),
          });
        }
        // The derived figures change with the answers, in the same transaction.
        await aggregates.apply(trx, counted, 1);
        return ids;
      });
    },

    /** Counts per unit for the NPS: total scored, promoters (9–10), detractors (0–6). */
    async recountNpsByUnit(f: ResponseFilter) {
      const q = applyFilter(
        db
          .selectFrom('respostas_nps as r')
          .select((eb) => ['r.unidade_id as unidadeId', eb.fn.countAll<number>().as('respostas'), ...NPS_COUNTS])
          .groupBy('r.unidade_id'),
        f,
      );
      const rows = await q.execute();
      return rows.map((r) => ({ unidadeId: Number(r.unidadeId), respostas: Number(r.respostas), ...npsCountsOf(r) }));
    },

    /** Same counts per month; `months` are [label, startIso, endIso) in São Paulo time. */
    async recountNpsByMonth(f: ResponseFilter, months: { label: string; startIso: string; endIso: string }[]) {
      if (!months.length) return [];
      // A CASE over the month boundaries: portable, and the boundaries are São Paulo months.
      const bucket = sql<string>`case ${sql.join(
        months.map((m) => sql`when r.criado_em >= ${m.startIso} and r.criado_em < ${m.endIso} then ${m.label}`),
        sql` `,
      )} else null end`;
      const q = applyFilter(
        db
          .selectFrom('respostas_nps as r')
          .select([bucket.as('mes'), ...NPS_COUNTS])
          // By position: the CASE carries parameters, and PostgreSQL would not match a
          // second copy of it (different placeholders) with the selected one.
          .groupBy(sql`1`),
        f,
      );
      const rows = await q.execute();
      return rows.filter((r) => r.mes !== null).map((r) => ({ mes: String(r.mes), ...npsCountsOf(r) }));
    },

    /** Counts per channel (site, cartaz, quiosque) for the NPS split. */
    async recountNpsByOrigin(f: ResponseFilter) {
      const rows = await applyFilter(
        db
          .selectFrom('respostas_nps as r')
          .select(['r.origem', ...NPS_COUNTS])
          .groupBy('r.origem'),
        f,
      ).execute();
      return rows.map((r) => ({ origem: r.origem, ...npsCountsOf(r) }));
    },

    /** How often each option was chosen, per question, over the filtered responses. */
    async recountOptionCounts(f: ResponseFilter) {
      const q = applyFilter(
        db
          .selectFrom('respostas_itens as i')
          .innerJoin('respostas_nps as r', 'r.id', 'i.resposta_id')
          .select((eb) => ['i.pergunta_id as perguntaId', 'i.opcao_id as opcaoId', eb.fn.countAll<number>().as('n')])
          .where('i.opcao_id', 'is not', null)
          .groupBy(['i.pergunta_id', 'i.opcao_id']),
        f,
      );
      return (await q.execute()).map((r) => ({
        perguntaId: Number(r.perguntaId),
        opcaoId: Number(r.opcaoId),
        n: Number(r.n),
      }));
    },

    /**
     * Deletes answers (their items go with them) and takes them out of the derived figures,
     * in one transaction: the one way to delete answers. Pass `trx` to join a caller's own.
     */
    async deleteResponses(ids: number[], trx?: Kysely<Database>): Promise<number> {
      if (!ids.length) return 0;
      const run = async (t: Kysely<Database>) => {
        const counted = await aggregates.countedResponses(t, ids);
        await aggregates.apply(t, counted, -1);
        await t.deleteFrom('respostas_itens').where('resposta_id', 'in', ids).execute();
        const res = await t.deleteFrom('respostas_nps').where('id', 'in', ids).executeTakeFirst();
        return Number(res.numDeletedRows);
      };
      return trx ? run(trx) : inTransaction(db, run);
    },

    /** NPS counts per unit, from the derived figures. */
    async npsByUnit(f: ResponseFilter) {
      return aggregates.byUnit(daysOf(f));
    },

    /** Per São Paulo month (labels AAAA-MM), from the derived figures. */
    async npsByMonth(f: ResponseFilter) {
      return aggregates.byMonth(daysOf(f));
    },

    async npsByOrigin(f: ResponseFilter) {
      return aggregates.byOrigin(daysOf(f));
    },

    async optionCounts(f: ResponseFilter) {
      return aggregates.optionCounts(daysOf(f));
    },

    /** Answers in the filter: from the derived figures, but the few pending ones counted. */
    async countResponses(f: ResponseFilter): Promise<number> {
      if (f.categoria === 'pendentes') {
        const row = await applyFilter(
          db.selectFrom('respostas_nps as r').select((eb) => eb.fn.countAll<number>().as('n')),
          f,
        ).executeTakeFirst();
        return Number(row?.n ?? 0);
      }
      const rows = await aggregates.byOrigin(daysOf(f));
      const sum = (k: 'respostas' | 'total' | 'promotores' | 'detratores') => rows.reduce((a, r) => a + r[k], 0);
      if (f.categoria === 'promotores') return sum('promotores');
      if (f.categoria === 'detratores') return sum('detratores');
      if (f.categoria === 'neutros') return sum('total') - sum('promotores') - sum('detratores');
      return sum('respostas');
    },

    async allQuestionsWithOptions() {
      const questions = await db
        .selectFrom('perguntas')
        .select(['id', 'texto', 'tipo', 'ativo'])
        .orderBy('ordem')
        .orderBy('id')
        .execute();
      const options = await db
        .selectFrom('perguntas_opcoes')
        .select(['id', 'pergunta_id', 'texto', 'valor'])
        .orderBy('ordem')
        .orderBy('id')
        .execute();
      return questions.map((q) => ({ ...q, opcoes: options.filter((o) => o.pergunta_id === q.id) }));
    },

    async recountCountResponses(f: ResponseFilter): Promise<number> {
      const row = await applyFilter(
        db.selectFrom('respostas_nps as r').select((eb) => eb.fn.countAll<number>().as('n')),
        f,
      ).executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async listResponses(f: ResponseFilter, limit: number, offset: number) {
      return applyFilter(
        responseRows().orderBy('r.criado_em', 'desc').orderBy('r.id', 'desc').limit(limit).offset(offset),
        f,
      ).execute();
    },

    /** Rows per export batch (csvBefore) on this engine. */
    csvBatchRows: csv.batchRows,

    /**
     * One export batch written as CSV by the database (src/db/csv/sql.ts), newest first like the
     * list, in (criado_em, id) order after `after` (the last row of the previous batch), with
     * the app's cells: the answer, then one cell per question. PostgreSQL gathers an answer's
     * items with a lateral join; SQLite, which has none, with one subquery that writes the
     * question cells already joined.
     */
    async csvBefore(f: ResponseFilter, after: ExportCursor | null, limit: number, cells: SurveyCsvCells) {
      const ids = cells.questions.map((q) => q.id);
      const optionCases = Object.entries(cells.options).map(
        ([id, text]) => sql`when ${sql.lit(Number(id))} then ${sql.lit(text)}`,
      );
      const optionText = optionCases.length ? sql`case i.opcao_id ${sql.join(optionCases, sql` `)} end` : sql`null`;
      const allRight = sql`case when i.texto_ok <> 0 then ${sql.lit(cells.allRight)} end`;
      const typedText = sql`concat_ws(' · ', ${allRight}, nullif(i.texto, ''))`;
      const category = sql<string>`case when r.nota_nps is null then ''
        when r.nota_nps >= 9 then ${csv.constant(cells.categories.promotores)}
        when r.nota_nps >= 7 then ${csv.constant(cells.categories.neutros)}
        else ${csv.constant(cells.categories.detratores)} end`;
      const answerCells = [
        csv.number(sql.ref('r.id')),
        csv.dateTime(sql.ref('r.criado_em')),
        csv.text(sql.ref('u.nome')),
        csv.number(sql.ref('r.nota_nps')),
        category,
        csv.text(sql.ref('r.nome_cliente')),
        csv.text(sql.ref('r.contato_cliente')),
        csv.text(sql.ref('r.comentario')),
      ];
      let questionCells: RawBuilder<string>[] = [];
      let items: ((qb: any) => any) | null = null;
      if (ids.length && pg) {
        const itemCell = sql`case when i.opcao_id is not null then coalesce(${optionText}, '') else ${typedText} end`;
        const perQuestion = ids.map((id) =>
          sql`max(case when i.pergunta_id = ${sql.lit(id)} then ${itemCell} end)`.as(`q${id}`),
        );
        questionCells = ids.map((id) => csv.text(sql.ref(`it.q${id}`)));
        items = (qb) =>
          qb.leftJoinLateral(
            (eb: any) =>
              eb.selectFrom('respostas_itens as i').select(perQuestion).whereRef('i.resposta_id', '=', 'r.id').as('it'),
            (join: any) => join.onTrue(),
          );
      } else if (ids.length) {
        // Each item's cell is finished once (an option's text was written as a cell in advance).
        const optionCell = optionCases.length
          ? sql`case i.opcao_id ${sql.join(
              Object.entries(cells.options).map(
                ([id, text]) => sql`when ${sql.lit(Number(id))} then ${csv.constant(text)}`,
              ),
              sql` `,
            )} else '' end`
          : sql`''`;
        const itemCell = sql`(case when i.opcao_id is not null then ${optionCell} else ${csv.text(typedText)} end)`;
        const joined = sql.join(
          ids.map((id) => sql`coalesce(max(case when i.pergunta_id = ${sql.lit(id)} then ${itemCell} end), '')`),
          sql` || ';' || `,
        );
        questionCells = [sql<string>`(select ${joined} from respostas_itens as i where i.resposta_id = r.id)`];
      }
      const line = csv.line([...answerCells, ...questionCells]);
      const page = applyFilter(
        db
          .selectFrom('respostas_nps as r')
          .innerJoin('unidades as u', 'u.id', 'r.unidade_id')
          .$if(items !== null, (qb) => items!(qb))
          .select([line.as('line'), 'r.criado_em as criadoEm', 'r.id as id'])
          .$if(after !== null, (qb) => qb.where(sql<boolean>`(r.criado_em, r.id) < (${after!.criadoEm}, ${after!.id})`))
          .orderBy('r.criado_em', 'desc')
          .orderBy('r.id', 'desc')
          .limit(limit),
        f,
      );
      return csv.batch<ExportCursor>(page, ['criadoEm', 'id']);
    },

    async itemsFor(responseIds: number[]) {
      if (!responseIds.length) return [];
      return db
        .selectFrom('respostas_itens as i')
        .innerJoin('perguntas as p', 'p.id', 'i.pergunta_id')
        .leftJoin('perguntas_opcoes as o', 'o.id', 'i.opcao_id')
        .select([
          'i.resposta_id',
          'i.pergunta_id',
          'p.texto as pergunta',
          'p.tipo',
          'o.texto as opcao',
          'o.valor',
          'i.texto',
          'i.texto_ok',
        ])
        .where('i.resposta_id', 'in', responseIds)
        .orderBy('p.ordem')
        .orderBy('p.id')
        .execute();
    },

    /** Detractor answers (0–6) with a comment not yet dealt with, oldest first. */
    async detractorsToHandle(unitIds: number[] | null, sinceIso: string, limit: number) {
      let q = responseRows()
        .where(PENDING)
        .where('r.criado_em', '>=', sinceIso)
        .orderBy('r.criado_em')
        .orderBy('r.id')
        .limit(limit);
      if (unitIds) q = unitIds.length ? q.where('r.unidade_id', 'in', unitIds) : q.where(sql<boolean>`1 = 0`);
      return q.execute();
    },

    async markHandled(id: number, userId: number, now: string): Promise<void> {
      await db
        .updateTable('respostas_nps')
        .set({ tratada_em: now, tratada_por: userId })
        .where('id', '=', id)
        .where('tratada_em', 'is', null)
        .execute();
    },

    async responseById(id: number) {
      return responseRows()
        .leftJoin('usuarios as t', 't.id', 'r.tratada_por')
        .select(['r.tratada_em', 't.nome as tratada_por_nome'])
        .where('r.id', '=', id)
        .executeTakeFirst();
    },
  };
}

export type SurveyRepository = ReturnType<typeof createSurveyRepository>;

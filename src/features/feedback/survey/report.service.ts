// What staff see of the survey: NPS per unit and overall, monthly trend, option
// distributions, the filtered list of responses and the CSV export.
import { nowIso } from '../../../db/index';
import { databaseCsv } from '../../../db/csv/index';
import { pageWindow } from '../../../lib/pagination';
import {
  CATEGORY_LABEL,
  computeNps,
  lastTwelveMonths,
  monthsOf,
  percent,
  type ResponseListFilter,
  type Period,
} from './nps';
import type { ExportCursor, ResponseFilter, SurveyRepository } from './survey.repository';
import { ORIGIN_LABEL, ORIGINS } from './origin';

export const PAGE_SIZE = 25;
/** A text question's cell when the customer ticked that all is right. */
const ALL_RIGHT = 'Está tudo certo';

export interface ReportQuery {
  unitIds: number[] | null;
  period: Period;
  categoria?: ResponseListFilter;
  /** `pagina` as asked (src/lib/pagination.ts reads it) */
  page: unknown;
}

/**
 * `reads`: the same repository over `app.readDb`, for the report (long reads); `lines`: over the
 * connection the export's batches are written on (`exportDb`, src/db/index.ts).
 */
export function createSurveyReportService(
  repo: SurveyRepository,
  reads: SurveyRepository = repo,
  lines: SurveyRepository = repo,
) {
  const filterOf = (q: Omit<ReportQuery, 'page'>): ResponseFilter => ({
    unitIds: q.unitIds,
    fromIso: q.period.fromIso,
    toIso: q.period.toIso,
    categoria: q.categoria,
  });

  return {
    /** Every unit, for the staff filters (narrowed to a manager's units by the routes). */
    allUnits() {
      return repo.allUnits();
    },

    /** An active unit by id (the poster and kiosk pages), or null. */
    async activeUnit(id: number) {
      return (await repo.allUnits()).find((u) => u.id === id && u.ativo === 1) ?? null;
    },

    /** Marks a detractor's response as handled by this staff member. */
    markHandled(id: number, staffId: number) {
      return repo.markHandled(id, staffId, nowIso());
    },

    async report(q: ReportQuery) {
      // The NPS figures cover the unit and period chosen; the score filter applies to the list only.
      const scoreFilter = filterOf({ ...q, categoria: undefined });
      const listFilter = filterOf(q);
      const months = monthsOf(q.period);
      // The chart: the 12 months ending with the period's last month (same units).
      const chartMonths = monthsOf(lastTwelveMonths(q.period.ate));
      const [units, byUnitRaw, byMonthRaw, chartRaw, byOriginRaw, optionCounts, questions, total] = await Promise.all([
        reads.allUnits(),
        reads.npsByUnit(scoreFilter),
        reads.npsByMonth(scoreFilter),
        reads.npsByMonth({
          unitIds: q.unitIds,
          fromIso: chartMonths[0]!.startIso,
          toIso: chartMonths[chartMonths.length - 1]!.endIso,
        }),
        reads.npsByOrigin(scoreFilter),
        reads.optionCounts(scoreFilter),
        reads.allQuestionsWithOptions(),
        reads.countResponses(listFilter),
      ]);
      const unitName = new Map(units.map((u) => [u.id, u.nome]));
      const byUnit = byUnitRaw
        .map((u) => ({
          ...u,
          nome: unitName.get(u.unidadeId) ?? `#${u.unidadeId}`,
          neutros: u.total - u.promotores - u.detratores,
          nps: computeNps(u),
        }))
        // Ranked: best NPS first, units without notes last, ties by name.
        .sort(
          (a, b) =>
            (b.nps ?? -Infinity) - (a.nps ?? -Infinity) || b.total - a.total || a.nome.localeCompare(b.nome, 'pt-BR'),
        );
      const sum = (k: 'respostas' | 'total' | 'promotores' | 'detratores') => byUnit.reduce((acc, u) => acc + u[k], 0);
      const overallCounts = {
        respostas: sum('respostas'),
        total: sum('total'),
        promotores: sum('promotores'),
        detratores: sum('detratores'),
      };
      const overall = {
        ...overallCounts,
        neutros: overallCounts.total - overallCounts.promotores - overallCounts.detratores,
        nps: computeNps(overallCounts),
      };
      const monthMap = new Map(byMonthRaw.map((m) => [m.mes, m]));
      const trend = months.map((m) => {
        const c = monthMap.get(m.label) ?? { total: 0, promotores: 0, detratores: 0 };
        return {
          label: m.label,
          title: m.title,
          total: c.total,
          promotores: c.promotores,
          detratores: c.detratores,
          nps: computeNps(c),
        };
      });
      const chartMap = new Map(chartRaw.map((m) => [m.mes, m]));
      const chart = chartMonths.map((m) => {
        const c = chartMap.get(m.label) ?? { total: 0, promotores: 0, detratores: 0 };
        return { label: m.label, title: m.title, total: c.total, nps: computeNps(c) };
      });
      const distribution = questions
        .filter((qq) => qq.tipo === 'opcoes' || qq.tipo === 'escala')
        .map((qq) => {
          const counts = qq.opcoes.map((o) => ({
            id: o.id,
            texto: o.texto,
            n: optionCounts.find((c) => c.opcaoId === o.id)?.n ?? 0,
          }));
          const answered = counts.reduce((a, c) => a + c.n, 0);
          return {
            id: qq.id,
            texto: qq.texto,
            tipo: qq.tipo,
            ativo: qq.ativo === 1,
            answered,
            opcoes: counts.map((c) => ({ ...c, pct: percent(c.n, answered) })),
          };
        })
        .filter((d) => d.ativo || d.answered > 0);
      const { page, pages, size, offset } = pageWindow(total, PAGE_SIZE, q.page);
      const rows = await reads.listResponses(listFilter, size, offset);
      const byOrigin = ORIGINS.map((origem) => {
        const c = byOriginRaw.find((o) => o.origem === origem) ?? { total: 0, promotores: 0, detratores: 0 };
        return {
          origem,
          label: ORIGIN_LABEL[origem],
          total: c.total,
          promotores: c.promotores,
          detratores: c.detratores,
          neutros: c.total - c.promotores - c.detratores,
          nps: computeNps(c),
        };
      });
      return { byUnit, overall, trend, chart, byOrigin, distribution, list: { rows, total, page, pages } };
    },

    async response(id: number) {
      const header = await repo.responseById(id);
      if (!header) return null;
      return { header, items: await repo.itemsFor([id]) };
    },

    /** Rows of the CSV export, read in keyset batches so memory stays flat. */
    async exportRows(q: Omit<ReportQuery, 'page'>) {
      const questions = (await repo.allQuestionsWithOptions()).filter((qq) => qq.ativo === 1);
      const header = [
        'id',
        'data',
        'unidade',
        'nota_nps',
        'categoria',
        'nome_cliente',
        'contato_cliente',
        'comentario',
        ...questions.map((qq) => qq.texto),
      ];
      const options: Record<number, string> = {};
      for (const qq of questions) for (const o of qq.opcoes) options[o.id] = o.texto;
      const cells = { questions, options, categories: CATEGORY_LABEL, allRight: ALL_RIGHT };
      const filter = filterOf(q);
      const rows = databaseCsv(
        (after: ExportCursor | null, size) => lines.csvBefore(filter, after, size, cells),
        lines.csvBatchRows,
      );
      return { header, rows };
    },
  };
}
export type SurveyReportService = ReturnType<typeof createSurveyReportService>;

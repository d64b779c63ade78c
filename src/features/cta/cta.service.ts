// Rules of the calls-to-action counts: what a click stores, and the weekly report a staff
// member may see (admins every unit, managers their own).
import { scopeUnits, unitScope, type StaffUser } from '../../staff/access';
import { pageRows } from '../../lib/pagination';
import { byUnitName, filterRows, LIST_PAGE_SIZE } from '../../staff/list';
import { CTA_ACTIONS, lastWeeks, weekOf, type CtaAction } from './cta';
import type { ActionCount, CtaRepository } from './cta.repository';
import type { ClicksReport } from './cta.view';

export const REPORT_WEEKS = [4, 8, 12, 26, 52];

export interface ReportFilters {
  /** `unidade_id`: one unit (null = every unit of the account) */
  unit: number | null;
  weeks: number;
  /** unit name / city text, folded and matched word by word */
  q: string;
  pagina: unknown;
}

/** Counts per action of some rows, and their total over the known actions. */
function tally(rows: ActionCount[]): { byAction: Record<string, number>; total: number } {
  const byAction: Record<string, number> = {};
  for (const r of rows) byAction[r.acao] = (byAction[r.acao] ?? 0) + r.total;
  return { byAction, total: CTA_ACTIONS.reduce((s, a) => s + (byAction[a] ?? 0), 0) };
}

/** `reads`: the same repository over `app.readDb`, for the staff report (long reads). */
export function createCtaService(
  repo: CtaRepository,
  reads: Pick<CtaRepository, 'units' | 'countsByWeek' | 'countsByUnit'> = repo,
) {
  return {
    /** Counts one click now; never throws (a lost count must not block the visitor). */
    async record(
      unidadeId: number,
      acao: CtaAction,
      planoId: number | null,
      onError: (err: unknown) => void,
    ): Promise<void> {
      const now = new Date();
      await repo
        .record({ unidade_id: unidadeId, acao, plano_id: planoId, semana: weekOf(now), criado_em: now.toISOString() })
        .catch(onError);
    },

    /**
     * The report, or 'forbidden' when a manager asks for another unit. The unit list is
     * catalog-sized and filtered in memory (accents ignored, as every staff list); the counts
     * are summed in SQL: per week over every matching unit, per unit only for the page shown.
     */
    async report(staff: StaffUser, f: ReportFilters): Promise<ClicksReport | 'forbidden'> {
      if (unitScope(staff, f.unit).forbidden) return 'forbidden';
      const weekCount = REPORT_WEEKS.includes(f.weeks) ? f.weeks : 8;
      const scope = scopeUnits(staff);
      const options = (await reads.units(scope)).sort(byUnitName);
      const chosen = f.unit !== null ? options.filter((u) => u.id === f.unit) : options;
      const matching = filterRows(chosen, f.q, (u) => `${u.nome} ${u.cidade} ${u.uf}`);
      const { items, ...list } = pageRows(matching, f.pagina, LIST_PAGE_SIZE);
      const weeks = lastWeeks(weekCount);
      const fromWeek = weeks[weeks.length - 1]!;
      // Unfiltered: the account's scope (no list of hundreds of ids in the query).
      const narrowed = f.unit !== null || matching.length !== options.length;
      const [perWeek, perUnit] = await Promise.all([
        reads.countsByWeek(fromWeek, narrowed ? matching.map((u) => u.id) : scope),
        reads.countsByUnit(
          fromWeek,
          items.map((u) => u.id),
        ),
      ]);
      const byWeek = weeks.map((semana) => ({ semana, ...tally(perWeek.filter((c) => c.semana === semana)) }));
      return {
        weeks,
        weekCount,
        q: f.q,
        selectedUnit:
          f.unit !== null ? (chosen[0] ?? { id: f.unit, nome: `unidade ${f.unit}`, cidade: '', uf: '' }) : null,
        byWeek,
        total: byWeek.reduce((s, w) => s + w.total, 0),
        units: items.map((u) => ({ ...u, ...tally(perUnit.filter((c) => c.unidade_id === u.id)) })),
        list,
      };
    },
  };
}

export type CtaService = ReturnType<typeof createCtaService>;

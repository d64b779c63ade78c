// Rules of the calls-to-action counts: what a click stores, and the weekly report a staff
// member may see (admins every unit, managers their own).
import { scopeUnits, unitScope, type StaffUser } from '../identity/access';
import { CTA_ACTIONS, lastWeeks, weekOf, type CtaAction } from './cta';
import type { CtaRepository } from './cta.repository';
import type { ClicksReport } from './cta.view';

export const REPORT_WEEKS = [4, 8, 12, 26, 52];

export function createCtaService(repo: CtaRepository) {
  return {
    /** Counts one click now; never throws (a lost count must not block the visitor). */
    async record(unidadeId: number, acao: CtaAction, planoId: number | null, onError: (err: unknown) => void): Promise<void> {
      const now = new Date();
      await repo.record({ unidade_id: unidadeId, acao, plano_id: planoId, semana: weekOf(now), criado_em: now.toISOString() }).catch(onError);
    },

    /** The report, or 'forbidden' when a manager asks for another unit. */
    async report(staff: StaffUser, requested: number | null, weeksWanted: number): Promise<ClicksReport | 'forbidden'> {
      const scope = unitScope(staff, requested);
      if (scope.forbidden) return 'forbidden';
      const weekCount = REPORT_WEEKS.includes(weeksWanted) ? weeksWanted : 8;
      const options = await repo.units(scopeUnits(staff));
      const weeks = lastWeeks(weekCount);
      const counts = await repo.counts(weeks[weeks.length - 1]!, scope.unitIds);
      const units = requested !== null ? options.filter((u) => u.id === requested) : options;
      return {
        weeks,
        weekCount,
        selectedUnit: requested,
        unitOptions: options,
        units: units.map((u) => {
          const rows = weeks.map((semana) => {
            const byAction: Record<string, number> = {};
            for (const c of counts) if (c.unidade_id === u.id && c.semana === semana) byAction[c.acao] = (byAction[c.acao] ?? 0) + c.total;
            return { semana, byAction, total: CTA_ACTIONS.reduce((s, a) => s + (byAction[a] ?? 0), 0) };
          });
          return { ...u, weeks: rows, total: rows.reduce((s, w) => s + w.total, 0) };
        }),
      };
    },
  };
}

export type CtaService = ReturnType<typeof createCtaService>;

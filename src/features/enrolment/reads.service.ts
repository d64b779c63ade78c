// What other features read of the enrolments, always on the read connection: the two
// enrolment steps of the trial-class funnel (booking). Built for them by enrolmentReads()
// in services.ts.
import { addDays, saoPauloDayStartIso } from '../../lib/time';
import type { EnrolmentRepository } from './enrolment.repository';

export interface EnrolmentFunnelWeek {
  unidade_id: number;
  /** the Monday (São Paulo) of the week */
  semana: string;
  /** enrolments started that week (the acceptance stored) */
  iniciadas: number;
  /** enrolments activated that week (first payment confirmed) */
  ativadas: number;
}

export function createEnrolmentReadsService(reads: Pick<EnrolmentRepository, 'funnelWeeks'>) {
  return {
    /** Per unit and week, for the weeks from `firstWeek` to `lastWeek` (their Mondays, São Paulo). */
    funnelWeeks(unitIds: number[] | null, firstWeek: string, lastWeek: string): Promise<EnrolmentFunnelWeek[]> {
      return reads.funnelWeeks(unitIds, saoPauloDayStartIso(firstWeek), saoPauloDayStartIso(addDays(lastWeek, 7)));
    },
  };
}
export type EnrolmentReadsService = ReturnType<typeof createEnrolmentReadsService>;

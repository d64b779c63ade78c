// What other features read of the enrolments, always on the read connection: the two
// enrolment steps of the trial-class funnel (booking) and the enrolments waiting for staff
// on the staff home (feedback). Built for them by enrolmentReads() in services.ts.
import { nowIso } from '../../db/index';
import { addDays, saoPauloDayStartIso } from '../../lib/time';
import type { EnrolmentRepository } from './enrolment.repository';

/** A pending refund joins the staff home's queue this close to its deadline (REFUND_DAYS after the withdrawal). */
export const REFUND_DUE_SOON_MS = 2 * 86_400_000;
/** Rows of each kind the home reads; more wait when a kind reaches it. */
export const ATTENTION_LIMIT = 200;

export interface EnrolmentFunnelWeek {
  unidade_id: number;
  /** the Monday (São Paulo) of the week */
  semana: string;
  /** enrolments started that week (the acceptance stored) */
  iniciadas: number;
  /** enrolments activated that week (first payment confirmed) */
  ativadas: number;
}

export function createEnrolmentReadsService(
  reads: Pick<EnrolmentRepository, 'funnelWeeks' | 'awaitingConfirmation' | 'pendingRefunds'>,
) {
  return {
    /** Per unit and week, for the weeks from `firstWeek` to `lastWeek` (their Mondays, São Paulo). */
    funnelWeeks(unitIds: number[] | null, firstWeek: string, lastWeek: string): Promise<EnrolmentFunnelWeek[]> {
      return reads.funnelWeeks(unitIds, saoPauloDayStartIso(firstWeek), saoPauloDayStartIso(addDays(lastWeek, 7)));
    },

    /**
     * What waits for staff: every Pix first payment to confirm against the bank statement,
     * and the refunds due within REFUND_DUE_SOON_MS or overdue. `partial`: a kind reached
     * ATTENTION_LIMIT (the oldest were read).
     */
    async attention(unitIds: number[] | null, now: Date) {
      const [payments, refunds] = await Promise.all([
        reads.awaitingConfirmation(unitIds, ATTENTION_LIMIT),
        reads.pendingRefunds(unitIds, nowIso(new Date(now.getTime() + REFUND_DUE_SOON_MS)), ATTENTION_LIMIT),
      ]);
      return {
        payments,
        refunds,
        partial: payments.length >= ATTENTION_LIMIT || refunds.length >= ATTENTION_LIMIT,
      };
    },
  };
}
export type EnrolmentReadsService = ReturnType<typeof createEnrolmentReadsService>;

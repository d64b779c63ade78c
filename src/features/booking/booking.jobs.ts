// The scheduled job of trial classes: the reminder the day before, safe to run from several
// instances at once. Old bookings are anonymised by the privacy feature's retention job.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { saoPauloClock } from '../../lib/time';
import { enqueueMail } from '../../platform/mail/outbox.repository';
import { countJob } from '../../platform/metrics/metrics';
import { createBookingRepository } from './booking.repository';
import { createConsentRepository } from '../privacy/consent.repository';
import { confirmationMail } from './booking.service';
import { addDays, spDay, spInstant } from './slots';

/** Reminders go out from this São Paulo time on the day before the class. */
export const REMINDER_FROM = '09:00';
/** How often the server process runs the job. */
export const JOBS_INTERVAL_MS = 10 * 60 * 1000;

export interface JobContext {
  db: Db;
  config: Pick<Config, 'smtp' | 'brandName' | 'publicUrl'>;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/**
 * Queues the reminder of every booking whose class is tomorrow (São Paulo), once. A
 * booking made today for tomorrow has just had its confirmation, so it gets no reminder.
 * Exactly once across instances: lembrete_em is set by a conditional UPDATE in the same
 * transaction that queues the mail, and only the caller whose UPDATE changed the row queues it.
 */
export async function sendReminders(ctx: JobContext, now: Date = new Date()): Promise<{ queued: number }> {
  if (!ctx.config.smtp) return { queued: 0 };
  if (saoPauloClock(now).time < REMINDER_FROM) return { queued: 0 };
  const repo = createBookingRepository(ctx.db);
  const today = spDay(now);
  const candidates = await repo.reminderCandidates(addDays(today, 1), spInstant(today, '00:00').toISOString());
  let queued = 0;
  for (const { id } of candidates) {
    const sent = await ctx.db.transaction().execute(async (trx) => {
      const tx = createBookingRepository(trx);
      const booking = await tx.claimReminder(id, now.toISOString());
      if (!booking?.email) return false;
      // Consent revoked: no reminder (the claim stays, so it is not tried again).
      const revoked = await createConsentRepository(trx).revocationFor({
        tabela: 'aulas_experimentais',
        registroId: booking.id,
        email: booking.email.toLowerCase(),
        telefone: booking.whatsapp,
        criadoEm: booking.criado_em,
      });
      if (revoked) return false;
      const unit = await tx.findUnit(booking.unidade_id);
      if (!unit) return false;
      await enqueueMail(trx, confirmationMail(ctx.config, unit, booking, 'lembrete'));
      return true;
    });
    if (sent) queued++;
  }
  if (queued) ctx.log?.info({ queued }, 'trial-class reminders queued');
  return { queued };
}

/** Runs the reminders every `intervalMs` until stopped; never overlaps itself. */
export function startBookingJobs(ctx: JobContext, intervalMs = JOBS_INTERVAL_MS): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = (async () => {
      await countJob('reminders', () => sendReminders(ctx)).catch((err) =>
        ctx.log?.error({ err }, 'trial-class reminder job failed'),
      );
    })().finally(() => {
      running = null;
    });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

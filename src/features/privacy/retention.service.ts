// The retention job: applies the configured periods (retention.ts) to every kind of
// personal data, in transactions of a few hundred rows, and deletes the photos of the
// messages it anonymised from the storage driver after each commit. Safe on several
// instances at once: each statement only touches rows not yet anonymised, so a second runner
// finds nothing to do; a photo left behind by a crash has no row any more and goes with the
// orphan sweep.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { countJob } from '../../platform/metrics/metrics';
import type { FastifyBaseLogger } from 'fastify';
import type { RetentionConfig } from '../../config';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import type { FileStorage } from '../../platform/storage/index';
import type { RetentionRepository } from './retention.repository';
import { ENROLMENT_RETENTION_YEARS, INCIDENT_RETENTION_YEARS } from './retention';
import { cutoffMonths, cutoffYears } from '../../lib/time';

export interface RetentionResult {
  surveyContacts: number;
  messages: number;
  photos: number;
  leads: number;
  bookings: number;
  enrolments: number;
  incidents: number;
}

/** How often the server process runs it. */
export const RETENTION_INTERVAL_MS = 60 * 60 * 1000;

export interface RetentionDeps {
  repo: Transactional<RetentionRepository>;
  storage: Pick<FileStorage, 'delete'>;
  retention: RetentionConfig;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** Rows per transaction: a first pass over years of data must not hold the database or the event loop. */
export const RETENTION_BATCH = 500;

/** Calls `step` (one transaction of at most RETENTION_BATCH rows) until it changes nothing; the total. */
async function inBatches(step: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await step(RETENTION_BATCH);
    total += n;
    if (n === 0) return total;
    // Waiting requests run between two batches (on SQLite each is a synchronous call).
    await nextTurn();
  }
}

export function createRetentionService(deps: RetentionDeps) {
  const { repo, retention } = deps;
  return {
    /** Applies every period as of `now`; returns how many rows of each kind it changed. */
    async run(now: Date = new Date()): Promise<RetentionResult> {
      const at = (months: number) => nowIso(cutoffMonths(now, months));
      const surveyCutoff = at(retention.surveyContactMonths);
      const surveyContacts = await inBatches((limit) =>
        repo.transaction(async (tx) => (await tx.anonymizeSurveyContacts(surveyCutoff, limit)).length),
      );
      const messagesCutoff = at(retention.messagesMonths);
      let photos = 0;
      const messages = await inBatches(async (limit) => {
        const done = await repo.transaction((tx) => tx.anonymizeMessages(messagesCutoff, limit));
        for (const key of done.photoKeys) {
          try {
            await deps.storage.delete(key);
            photos++;
          } catch (err) {
            // Its row is gone: the orphan sweep removes the file later.
            deps.log?.warn({ err, key }, 'retention: photo not deleted; the orphan sweep will remove it');
          }
        }
        return done.ids.length;
      });
      const leadsCutoff = at(retention.leadsMonths);
      const leads = await inBatches((limit) =>
        repo.transaction(async (tx) => (await tx.anonymizeLeads(leadsCutoff, limit)).length),
      );
      const bookingsCutoff = at(retention.bookingsMonths);
      const bookings = await inBatches((limit) =>
        repo.transaction(async (tx) => (await tx.anonymizeBookings(bookingsCutoff, nowIso(now), limit)).length),
      );
      const enrolmentsCutoff = nowIso(cutoffYears(now, ENROLMENT_RETENTION_YEARS));
      const enrolments = await inBatches((limit) =>
        repo.transaction(async (tx) => (await tx.anonymizeEnrolments(enrolmentsCutoff, nowIso(now), limit)).length),
      );
      const incidents = await repo.deleteIncidents(nowIso(cutoffYears(now, INCIDENT_RETENTION_YEARS)));
      const result = {
        surveyContacts,
        messages,
        photos,
        leads,
        bookings,
        enrolments,
        incidents,
      };
      if (Object.values(result).some((n) => n > 0)) deps.log?.info(result, 'retention job applied');
      return result;
    },
  };
}
export type RetentionService = ReturnType<typeof createRetentionService>;

/** Runs the job at start-up and every `intervalMs` until stopped; never overlaps itself. */
export function startRetentionJob(
  service: RetentionService,
  log: Pick<FastifyBaseLogger, 'error'> | undefined,
  intervalMs = RETENTION_INTERVAL_MS,
): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = countJob('retention', () => service.run())
      .catch((err) => log?.error({ err }, 'retention job failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  tick();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

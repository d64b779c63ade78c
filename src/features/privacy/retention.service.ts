// The retention job: applies the configured periods (retention.ts) to every kind of
// personal data, one transaction per kind, then deletes the photos of the messages it
// anonymised from the storage driver. Safe on several instances at once: each statement
// only touches rows not yet anonymised, so a second runner finds nothing to do; a photo
// left behind by a crash has no row any more and goes with the orphan sweep.
import { countJob } from '../../platform/metrics/metrics';
import type { FastifyBaseLogger } from 'fastify';
import type { RetentionConfig } from '../../config';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import type { FileStorage } from '../../platform/storage/index';
import type { RetentionRepository } from './retention.repository';
import { cutoffMonths, cutoffYears, INCIDENT_RETENTION_YEARS } from './retention';

export interface RetentionResult {
  surveyContacts: number;
  messages: number;
  photos: number;
  leads: number;
  bookings: number;
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

export function createRetentionService(deps: RetentionDeps) {
  const { repo, retention } = deps;
  return {
    /** Applies every period as of `now`; returns how many rows of each kind it changed. */
    async run(now: Date = new Date()): Promise<RetentionResult> {
      const at = (months: number) => nowIso(cutoffMonths(now, months));
      const surveyContacts = (
        await repo.transaction((tx) => tx.anonymizeSurveyContacts(at(retention.surveyContactMonths)))
      ).length;
      const messages = await repo.transaction((tx) => tx.anonymizeMessages(at(retention.messagesMonths)));
      let photos = 0;
      for (const key of messages.photoKeys) {
        try {
          await deps.storage.delete(key);
          photos++;
        } catch (err) {
          // Its row is gone: the orphan sweep removes the file later.
          deps.log?.warn({ err, key }, 'retention: photo not deleted; the orphan sweep will remove it');
        }
      }
      const leads = await repo.transaction((tx) => tx.anonymizeLeads(at(retention.leadsMonths)));
      const bookings = await repo.transaction((tx) => tx.anonymizeBookings(at(retention.bookingsMonths), nowIso(now)));
      const incidents = await repo.deleteIncidents(nowIso(cutoffYears(now, INCIDENT_RETENTION_YEARS)));
      const result = {
        surveyContacts,
        messages: messages.ids.length,
        photos,
        leads: leads.length,
        bookings: bookings.length,
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

// The orphan sweep (docs/decisions/071): at start-up and every STORAGE_SWEEP_INTERVAL_SECONDS
// it removes temporary files not written to for STORAGE_SWEEP_AGE_SECONDS (a crash between
// the upload and the row), and final files no row references that are older than that (a
// crash between making the file final and the commit, on the local driver). Several
// instances may sweep at once: every removal re-checks its condition and is idempotent.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { FILE_REFERENCES, isManagedKey, referencedKeys, type FileReference } from './references';
import type { Spool } from './spool';
import type { FileStorage, SweepCandidate } from './storage';
import { countJob } from '../metrics/metrics';

export interface SweepResult {
  temporary: number;
  unreferenced: number;
  /** spool files of requests that never finished (a crash while receiving) */
  spool: number;
}

const BATCH = 500;

export async function sweepOrphans(
  storage: FileStorage,
  db: Kysely<Database>,
  options: { ageMs: number; now?: Date; references?: FileReference[]; spool?: Spool },
): Promise<SweepResult> {
  const before = new Date((options.now ?? new Date()).getTime() - options.ageMs);
  const references = options.references ?? FILE_REFERENCES;
  const result: SweepResult = {
    temporary: 0,
    unreferenced: 0,
    spool: options.spool ? await options.spool.sweep(before) : 0,
  };
  let batch: SweepCandidate[] = [];
  const flush = async () => {
    const finals = batch.filter((c) => !c.temporary && isManagedKey(c.key, references)).map((c) => c.key);
    const used = await referencedKeys(db, finals, references);
    for (const c of batch) {
      if (c.temporary) {
        await storage.deleteStale(c, before);
        result.temporary++;
      } else if (isManagedKey(c.key, references) && !used.has(c.key)) {
        await storage.deleteStale(c, before);
        result.unreferenced++;
      }
    }
    batch = [];
  };
  for await (const candidate of storage.listForSweep(before, references)) {
    batch.push(candidate);
    if (batch.length >= BATCH) await flush();
  }
  await flush();
  return result;
}

export interface Sweeper {
  /** one run now (tests); resolves when it is done */
  runNow(): Promise<SweepResult | null>;
  stop(): Promise<void>;
}

/** Runs the sweep now and then every `intervalMs`; never overlaps itself. */
export function startSweeper(
  storage: FileStorage,
  db: Kysely<Database>,
  options: {
    intervalMs: number;
    ageMs: number;
    spool?: Spool;
    log?: { info(o: object, m: string): void; error(o: object, m: string): void };
  },
): Sweeper {
  let running: Promise<SweepResult | null> | null = null;
  let stopped = false;
  const run = (): Promise<SweepResult | null> => {
    if (running) return running;
    if (stopped) return Promise.resolve(null);
    running = countJob('sweep', () => sweepOrphans(storage, db, { ageMs: options.ageMs, spool: options.spool }))
      .then((r) => {
        if (r.temporary || r.unreferenced || r.spool)
          options.log?.info({ ...r, driver: storage.driver }, 'storage sweep removed orphan files');
        return r;
      })
      .catch((err) => {
        options.log?.error({ err }, 'storage sweep failed');
        return null;
      })
      .finally(() => {
        running = null;
      });
    return running;
  };
  const timer = setInterval(() => void run(), options.intervalMs);
  timer.unref();
  void run();
  return {
    runNow: run,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

// What every queue worker does with a claimed batch (mail, webhook deliveries, payment
// events): attempt each row while keeping the lease of those not done yet.
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../db/index';

export interface ClaimedBatch<Id> {
  leaseMs: number;
  /** attempts running at once (default 1: one at a time, in the order claimed) */
  concurrency?: number;
  /** renews the lease of the rows not attempted yet */
  renew(ids: Id[]): Promise<void>;
  /** gives back the rows left when the worker stops (due at once elsewhere) */
  release(ids: Id[]): Promise<void>;
  /** the worker is stopping (SIGTERM): hand the rest back instead of holding the drain */
  shouldStop?: () => boolean;
  log?: Pick<FastifyBaseLogger, 'warn'>;
  /** what the log says when a renewal fails */
  renewalFailure: string;
}

/**
 * Attempts each claimed row. While the batch runs, the rows not done yet stay claimed (the
 * lease is renewed every third of it); if this process dies, the lease runs out and another
 * instance takes them. `attempt` catches its own errors: one that escapes ends the batch (the
 * rows not attempted yet are released) and is thrown again.
 */
export async function attemptClaimed<Row extends { id: Id }, Id>(
  claimed: Row[],
  batch: ClaimedBatch<Id>,
  attempt: (row: Row) => Promise<void>,
): Promise<void> {
  const pending = new Set(claimed.map((row) => row.id));
  const renewal = setInterval(
    () => {
      batch.renew([...pending]).catch((err) => batch.log?.warn({ err }, batch.renewalFailure));
    },
    Math.max(500, Math.floor(batch.leaseMs / 3)),
  );
  renewal.unref();
  const queue = [...claimed];
  let failure: { error: unknown } | undefined;
  const work = async () => {
    for (let row = queue.shift(); row && !failure; row = queue.shift()) {
      if (batch.shouldStop?.()) return;
      try {
        await attempt(row);
      } catch (error) {
        failure ??= { error };
      } finally {
        pending.delete(row.id);
      }
    }
  };
  try {
    // Every worker finishes its current row before the batch ends, so no row still being
    // attempted is ever handed back.
    await Promise.all(Array.from({ length: Math.min(batch.concurrency ?? 1, claimed.length) }, work));
  } finally {
    clearInterval(renewal);
  }
  // Rows never attempted (a stop, or an error out of an attempt) are due again at once rather
  // than after their lease; after an error, if the database refuses even that, the lease frees them.
  if (pending.size) {
    const released = batch.release([...pending]);
    await (failure ? released.catch(() => {}) : released);
  }
  if (failure) throw failure.error;
}

/**
 * What follows failed attempt number `attempts`: pending again after the schedule's wait
 * (the waits after attempt 1, 2, …, counted from `from`), or failed for good past its end.
 */
export function nextAttempt(
  schedule: readonly number[],
  attempts: number,
  from: Date,
): { status: 'pendente'; at: string } | { status: 'falhou'; at: null } {
  const delay = schedule[attempts - 1];
  return delay === undefined
    ? { status: 'falhou', at: null }
    : { status: 'pendente', at: nowIso(new Date(from.getTime() + delay)) };
}

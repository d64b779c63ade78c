// Group commit for survey submissions. Under load (a class ending, a QR-code campaign)
// many responses arrive at once; writing the ones that arrived in the same turn of the
// event loop in one transaction shares the commit, the costliest step on SQLite. Each
// response stays atomic (its header and items are in that transaction) and is
// acknowledged only after the commit. See docs/decisions/032.
import type { EnvioKey, OnceResult } from '../../../platform/envio/index';
import type { NewSurveyResponse, UnitRef } from './survey.repository';

/** A checked response waiting for its batch: what to store, its envio key, and its unit as read before. */
export interface PendingResponse {
  record: NewSurveyResponse;
  envio: EnvioKey | null;
  /** for the webhook payload: read before the transaction, never inside it */
  unit: UnitRef;
}

/** Stores one batch in one transaction: one result per response, in order. */
export type StoreBatch = (batch: readonly PendingResponse[]) => Promise<OnceResult[]>;

interface Pending {
  response: PendingResponse;
  resolve(result: OnceResult): void;
  reject(err: unknown): void;
}

export function createSurveyWriter(store: StoreBatch, options: { maxBatch?: number } = {}) {
  const maxBatch = options.maxBatch ?? 32;
  let queue: Pending[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    if (queue.length) schedule();
    try {
      const results = await store(batch.map((p) => p.response));
      batch.forEach((p, i) => p.resolve(results[i]!));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      // One bad record must not fail the others: the batch was rolled back, so each is
      // written again in a transaction of its own.
      for (const p of batch) {
        try {
          p.resolve((await store([p.response]))[0]!);
        } catch (e) {
          p.reject(e);
        }
      }
    }
  }

  function schedule() {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  }

  return {
    /** Resolves once the batch is committed: stored with its id, or a repeat of a stored response. */
    write(response: PendingResponse): Promise<OnceResult> {
      return new Promise((resolve, reject) => {
        queue.push({ response, resolve, reject });
        schedule();
      });
    },
  };
}

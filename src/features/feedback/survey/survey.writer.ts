// Group commit for survey submissions. Under load (a class ending, a QR-code campaign)
// many responses arrive at once; writing the ones that arrived in the same turn of the
// event loop in one transaction shares the commit, the costliest step on SQLite. Each
// response stays atomic (its header and items are in that transaction) and is
// acknowledged only after the commit. See docs/decisions/032.
import type { NewSurveyResponse, StoredResponseHook, SurveyRepository } from './survey.repository';

interface Pending {
  record: NewSurveyResponse;
  resolve(id: number | null): void;
  reject(err: unknown): void;
}

export function createSurveyWriter(
  repo: Pick<SurveyRepository, 'insertResponses'>,
  options: { maxBatch?: number; onStored?: StoredResponseHook } = {},
) {
  const maxBatch = options.maxBatch ?? 32;
  let queue: Pending[] = [];
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const batch = queue.slice(0, maxBatch);
    queue = queue.slice(batch.length);
    if (queue.length) schedule();
    try {
      const ids = await repo.insertResponses(
        batch.map((p) => p.record),
        options.onStored,
      );
      batch.forEach((p, i) => p.resolve(ids[i] ?? null));
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      // One bad record must not fail the others: the batch was rolled back, so each is
      // written again in a transaction of its own.
      for (const p of batch) {
        try {
          p.resolve((await repo.insertResponses([p.record], options.onStored))[0] ?? null);
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
    /** Resolves with the new id, or null when the envio_id was already stored. */
    write(record: NewSurveyResponse): Promise<number | null> {
      return new Promise((resolve, reject) => {
        queue.push({ record, resolve, reject });
        schedule();
      });
    },
  };
}

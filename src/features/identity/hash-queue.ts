import { availableParallelism } from 'node:os';

// At most a few scrypt hashes run at once (each takes ~128 MB and one libuv thread for
// ~100-300 ms); a bounded number wait; beyond that a login is refused at once with 429
// instead of piling up. libuv has 4 threads by default: two or more stay free for file
// reads, DNS and the rest, and one CPU core stays for the event loop, so static files
// and pages keep answering during a login storm.

export class HashQueueFullError extends Error {
  constructor() {
    super('password hash queue full');
  }
}

export function createHashQueue(options: { concurrency: number; maxWaiting: number }) {
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    /** `wait: true` queues even when the waiting line is full (never refused). */
    async run<T>(work: () => Promise<T>, opts: { wait?: boolean } = {}): Promise<T> {
      if (running < options.concurrency) {
        running++;
      } else {
        if (!opts.wait && waiting.length >= options.maxWaiting) throw new HashQueueFullError();
        // The finishing job hands its slot over directly (running stays the same).
        await new Promise<void>((resolve) => waiting.push(resolve));
      }
      try {
        return await work();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running--;
      }
    },
    get running() {
      return running;
    },
    get waiting() {
      return waiting.length;
    },
  };
}

/** Two at most, and never every core: one stays for the event loop (1 on a 2-core machine). */
export const HASH_CONCURRENCY = Math.min(2, Math.max(1, availableParallelism() - 1));
export const HASH_MAX_WAITING = 32;
export const passwordHashQueue = createHashQueue({ concurrency: HASH_CONCURRENCY, maxWaiting: HASH_MAX_WAITING });

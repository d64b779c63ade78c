// Rate limits counted in the database, so every instance shares them: N instances allow
// exactly what one does. Fixed windows (as @fastify/rate-limit had): the count of a key
// starts again at each multiple of the window.
import type { RateLimitRepository } from './ratelimit.repository';

export interface RateLimitRule {
  /** requests allowed per window */
  max: number;
  /** window length in milliseconds */
  timeWindow: number;
}

export interface RateLimitOutcome {
  allowed: boolean;
  count: number;
  remaining: number;
  /** seconds until the window ends (for Retry-After) */
  retryAfterSec: number;
}

/** Bound on stored key length: a route name plus an IPv6 address fits easily. */
const MAX_KEY = 200;

export function createRateLimitService(repo: RateLimitRepository, now: () => number = Date.now) {
  return {
    /** Counts one request of `key` and says whether it is within `rule`. */
    async hit(key: string, rule: RateLimitRule): Promise<RateLimitOutcome> {
      const t = now();
      const start = Math.floor(t / rule.timeWindow) * rule.timeWindow;
      const end = start + rule.timeWindow;
      const count = await repo.hit(key.slice(0, MAX_KEY), start, end);
      return {
        allowed: count <= rule.max,
        count,
        remaining: Math.max(0, rule.max - count),
        retryAfterSec: Math.max(1, Math.ceil((end - t) / 1000)),
      };
    },

    prune(): Promise<number> {
      return repo.prune(now());
    },
  };
}
export type RateLimitService = ReturnType<typeof createRateLimitService>;

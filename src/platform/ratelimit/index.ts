// Rate limits shared by every instance: counters per key and fixed window in the table
// `limites`; routes opt in with `config: { rateLimit }` and get a 429 with Retry-After.
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { createRateLimitRepository } from './ratelimit.repository';
import { createRateLimitService, type RateLimitRule, type RateLimitService } from './ratelimit.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** rate limits shared by every instance (counted in the database) */
    rateLimits: RateLimitService;
    /** an onRequest/preHandler hook limiting per client address; `name` keys the counter */
    rateLimitHook(rule: NamedRule): onRequestHookHandler;
  }
  interface FastifyContextConfig {
    /** per client address (request.ip, see TRUST_PROXY): 429 + Retry-After past `max` */
    rateLimit?: RateLimitRule & { name?: string };
  }
}

interface NamedRule extends RateLimitRule {
  /** counter name; defaults to "METHOD url" of the route */
  name?: string;
  /**
   * When the database cannot count (it is down), let the request through instead of
   * failing it: for pages that need no database (the 404 page).
   */
  failOpen?: boolean;
}

const PRUNE_EVERY_MS = 5 * 60 * 1000;

function tooMany(retryAfterSec: number): Error {
  // The one error handler renders the pt-BR 429 page (or JSON).
  return Object.assign(new Error('Rate limit exceeded'), { statusCode: 429, retryAfterSec });
}

/**
 * Routes opt in with `config: { rateLimit: { max, timeWindow } }` (as with
 * @fastify/rate-limit before); other handlers use `app.rateLimitHook(rule)`. Register
 * before the routes: the limits are attached when a route is added.
 */
export default fp(
  async (app) => {
    const service = createRateLimitService(createRateLimitRepository(app.db));
    app.decorate('rateLimits', service);

    const makeHook = (rule: NamedRule, fallbackName: string): onRequestHookHandler => {
      const name = rule.name ?? fallbackName;
      return async function rateLimited(request: FastifyRequest, reply: FastifyReply) {
        let outcome;
        try {
          outcome = await service.hit(`${name}|${request.ip}`, rule);
        } catch (err) {
          if (!rule.failOpen) throw err; // → 503 from the error handler
          request.log.warn({ err }, 'rate limit not counted: database unavailable');
          return;
        }
        reply.header('x-ratelimit-limit', String(rule.max));
        reply.header('x-ratelimit-remaining', String(outcome.remaining));
        if (!outcome.allowed) {
          reply.header('retry-after', String(outcome.retryAfterSec));
          throw tooMany(outcome.retryAfterSec);
        }
      };
    };
    app.decorate('rateLimitHook', (rule: NamedRule) => makeHook(rule, 'custom'));

    app.addHook('onRoute', (route) => {
      const rule = route.config?.rateLimit;
      if (!rule) return;
      const hook = makeHook(
        rule,
        `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`,
      );
      const existing = route.onRequest;
      route.onRequest = existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];
    });

    const timer = setInterval(() => {
      service.prune().catch((err) => app.log.warn({ err }, 'rate limit prune failed'));
    }, PRUNE_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'ratelimit', fastify: '5.x', dependencies: ['db'] },
);

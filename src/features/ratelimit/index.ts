import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { createRateLimitRepository } from './ratelimit.repository';
import { createRateLimitService, type RateLimitRule, type RateLimitService } from './ratelimit.service';

export type { RateLimitRule, RateLimitOutcome } from './ratelimit.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** rate limits shared by every instance (counted in the database) */
    rateLimits: RateLimitService;
    /** an onRequest/preHandler hook limiting per client address; `name` keys the counter */
    rateLimitHook(rule: NamedRule): onRequestHookHandler;
  }
  interface FastifyContextConfig {
    /** per client address (request.ip, see TRUST_PROXY): 429 + Retry-After past `max` */
    rateLimit?: RateLimitRule & { name?: string; inTransaction?: boolean };
  }
  interface FastifyRequest {
    /** the hit of a route whose limit is counted in the handler's transaction (`inTransaction`) */
    rateLimit: PendingHit | null;
  }
}

/**
 * One request's hit on a limit counted by the route itself, inside the transaction that
 * stores the submission: no write transaction of its own (docs/decisions/140). Counted
 * once; every answer that did not count it (a 422, a CSRF refusal, a honeypot) counts it
 * alone before it is sent, so every request still counts and a request past the limit is
 * answered 429 whatever its body.
 */
export interface PendingHit {
  readonly counted: boolean;
  /**
   * Counts the hit in `within` (the submission's transaction; alone when omitted) and
   * throws the 429 error past the limit: thrown inside the transaction, it rolls the
   * submission back, so a refused request stores nothing.
   */
  count(within?: Kysely<Database>): Promise<void>;
  /**
   * The transaction it was counted in failed (not the 429): the hit went with it, so the
   * answer counts it again, alone.
   */
  notCommitted(): void;
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

    /** Counts `key` (in `within`, or alone), sets the headers, throws the 429 past the limit. */
    const countHit = async (reply: FastifyReply, key: string, rule: RateLimitRule, within?: Kysely<Database>) => {
      const outcome = await service.hit(key, rule, within);
      reply.header('x-ratelimit-limit', String(rule.max));
      reply.header('x-ratelimit-remaining', String(outcome.remaining));
      if (!outcome.allowed) {
        reply.header('retry-after', String(outcome.retryAfterSec));
        throw tooMany(outcome.retryAfterSec);
      }
    };

    const makeHook = (rule: NamedRule, fallbackName: string): onRequestHookHandler => {
      const name = rule.name ?? fallbackName;
      return async function rateLimited(request: FastifyRequest, reply: FastifyReply) {
        try {
          await countHit(reply, `${name}|${request.ip}`, rule);
        } catch (err) {
          if ((err as { statusCode?: number }).statusCode === 429 || !rule.failOpen) throw err; // else → 503 from the error handler
          request.log.warn({ err }, 'rate limit not counted: database unavailable');
        }
      };
    };
    app.decorate('rateLimitHook', (rule: NamedRule) => makeHook(rule, 'custom'));
    app.decorateRequest('rateLimit', null);

    const addHook = <H>(existing: H | H[] | undefined, hook: H): H[] =>
      existing ? [...(Array.isArray(existing) ? existing : [existing]), hook] : [hook];

    app.addHook('onRoute', (route) => {
      const rule = route.config?.rateLimit;
      if (!rule) return;
      const name = rule.name ?? `${Array.isArray(route.method) ? route.method.join(',') : route.method} ${route.url}`;
      if (!rule.inTransaction) {
        route.onRequest = addHook(route.onRequest, makeHook(rule, name));
        return;
      }
      // Counted by the handler in its transaction; the hook only prepares the hit.
      const prepare: onRequestHookHandler = function (request, reply, done) {
        let counted = false;
        request.rateLimit = {
          get counted() {
            return counted;
          },
          count(within) {
            if (counted) return Promise.resolve();
            counted = true;
            return countHit(reply, `${name}|${request.ip}`, rule, within);
          },
          notCommitted() {
            counted = false;
          },
        };
        done();
      };
      // Any answer that has not counted the hit counts it alone first (past the limit the
      // 429 page replaces it). The error handler does the same for error answers.
      // A callback hook, not async: it runs on every answer of the route.
      const settle: onSendHookHandler = function (request, _reply, payload, done) {
        const pending = request.rateLimit;
        if (!pending || pending.counted) return done(null, payload);
        pending.count().then(() => done(null, payload), done);
      };
      route.onRequest = addHook(route.onRequest, prepare);
      route.onSend = addHook(route.onSend, settle);
    });

    const timer = setInterval(() => {
      service.prune().catch((err) => app.log.warn({ err }, 'rate limit prune failed'));
    }, PRUNE_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'ratelimit', fastify: '5.x', dependencies: ['db'] },
);

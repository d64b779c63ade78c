// The provider's webhook, received and processed apart: POST /webhooks/asaas checks the
// token in constant time, stores the raw event once (its id is the key) and answers 200 at
// once; a worker claims stored events (FOR UPDATE SKIP LOCKED on PostgreSQL) and hands each
// to the feature's handler, retrying with backoff. A handler must be safe to run twice and
// in any order: it decides from the payment's state, never from the order of arrival.
import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { nowIso } from '../../db/index';
import { recordPaymentEvent } from '../metrics/metrics';
import { type Polling, startPolling } from '../jobs/polling';
import { attemptClaimed, nextAttempt } from '../queue/batch';
import type { PaymentEventsRepository, StoredEvent } from './events.repository';

export const ASAAS_WEBHOOK_PATH = '/webhooks/asaas';
/** The waits after attempt 1, 2, …; after the last the event is kept as failed (an admin may retry it). */
export const EVENT_RETRY_MS = [5, 30, 120, 600, 1800, 3600, 7200, 21_600, 43_200, 86_400].map((s) => s * 1000);
const BODY_LIMIT = 512 * 1024;

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Constant-time comparison of the header with the token (hashes of equal length). */
export function tokenMatches(given: string | string[] | undefined, token: string): boolean {
  const value = typeof given === 'string' ? given : '';
  return timingSafeEqual(digest(`t:${value}`), digest(`t:${token}`)) && value.length > 0;
}

/** The id, type and payment of a raw event; an event without an id is keyed by its body's hash. */
export function eventKey(raw: string): { id: string; tipo: string; pagamentoId: string | null } | null {
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    return null;
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const b = body as { id?: unknown; event?: unknown; payment?: { id?: unknown } };
  const tipo = typeof b.event === 'string' && b.event ? b.event : 'DESCONHECIDO';
  const id =
    typeof b.id === 'string' && b.id && b.id.length <= 200
      ? b.id
      : `sha256:${createHash('sha256').update(raw).digest('hex')}`;
  const pagamentoId = typeof b.payment?.id === 'string' ? b.payment.id : null;
  return { id, tipo, pagamentoId };
}

/** Registers the receiver in a scope of its own (it reads its JSON body as text). */
export function paymentWebhookRoute(
  app: FastifyInstance,
  options: { token: string; events: PaymentEventsRepository; stored?: () => void },
) {
  return app.register(async (scope) => {
    scope.addContentTypeParser(
      ['application/json', 'text/plain'],
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_r, body, done) => done(null, body),
    );
    scope.post(
      ASAAS_WEBHOOK_PATH,
      { config: { securityHeaders: 'data' }, bodyLimit: BODY_LIMIT },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        if (!tokenMatches(request.headers['asaas-access-token'], options.token)) {
          request.log.warn('payment webhook refused: wrong or missing asaas-access-token');
          return reply.code(401).send({ error: 'token inválido' });
        }
        const raw = typeof request.body === 'string' ? request.body : '';
        const key = eventKey(raw);
        if (!key) return reply.code(400).send({ error: 'corpo inválido: esperado um evento JSON' });
        const outcome = await options.events.store({ ...key, provedor: 'asaas', payload: raw }, nowIso(new Date()));
        recordPaymentEvent(outcome === 'stored' ? 'received' : 'duplicated');
        request.log.info({ paymentEvent: key.id, tipo: key.tipo, outcome }, 'payment webhook stored');
        if (outcome === 'stored') options.stored?.();
        return reply.send({ ok: true });
      },
    );
  });
}

export interface EventWorkerContext {
  repo: PaymentEventsRepository;
  /** acts on one event; throws to have it retried */
  handle(event: StoredEvent & { body: unknown }): Promise<void>;
  leaseMs?: number;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

/** Processes every due event (up to `limit`); safe from several processes at once. */
export async function processDueEvents(
  ctx: EventWorkerContext,
  options: { now?: Date; limit?: number } = {},
): Promise<{ claimed: number; processed: number; retried: number; failed: number }> {
  const result = { claimed: 0, processed: 0, retried: 0, failed: 0 };
  const now = options.now ?? new Date();
  const leaseMs = ctx.leaseMs ?? 60_000;
  const token = randomUUID();
  const claimed = await ctx.repo.claimDue(
    nowIso(now),
    nowIso(new Date(now.getTime() + leaseMs)),
    options.limit ?? 20,
    token,
  );
  result.claimed = claimed.length;
  if (!claimed.length) return result;
  const offset = now.getTime() - Date.now();
  const batch = {
    leaseMs,
    renew: (ids: string[]) => ctx.repo.renew(ids, nowIso(new Date(Date.now() + offset + leaseMs)), token),
    release: (ids: string[]) => ctx.repo.release(ids, token).catch(() => {}),
    log: ctx.log,
    renewalFailure: 'payment event lease renewal failed',
  };
  // One at a time, in the order received: events of one payment never race each other here.
  await attemptClaimed(claimed, batch, async (e) => {
    const at = nowIso(new Date(Date.now() + offset));
    try {
      let body: unknown = null;
      try {
        body = JSON.parse(e.payload);
      } catch {
        body = null;
      }
      await ctx.handle({ ...e, body });
      if (await ctx.repo.settle(e.id, token, { status: 'processado', at })) result.processed++;
    } catch (err) {
      const tentativas = e.tentativas + 1;
      const { status, at: retryAt } = nextAttempt(EVENT_RETRY_MS, tentativas, now);
      // The column is never null: an event failed for good keeps the time it failed.
      const next = retryAt ?? nowIso(now);
      const erro = err instanceof Error ? err.message : String(err);
      if (await ctx.repo.settle(e.id, token, { status, at, next, erro, tentativas })) {
        if (status === 'falhou') result.failed++;
        else result.retried++;
        recordPaymentEvent('failed');
      }
      ctx.log?.[status === 'falhou' ? 'error' : 'warn'](
        { paymentEvent: e.id, tipo: e.tipo, tentativas, erro },
        status === 'falhou' ? 'payment event failed for good' : 'payment event failed; will retry',
      );
    }
  });
  return result;
}

/** Runs processDueEvents every `intervalMs` and at once when kicked (a new event stored). */
export function startEventWorker(ctx: EventWorkerContext, intervalMs = 2_000): Polling {
  return startPolling({
    pass: async () => (await processDueEvents(ctx)).claimed >= 20,
    everyMs: intervalMs,
    firstAfterMs: 200,
    log: ctx.log,
    failure: 'payment event worker tick failed',
  });
}

// Delivery of the webhook outbox: claim due rows (SKIP LOCKED on PostgreSQL), sign and POST
// each, record the attempt; retry on the schedule (WEBHOOKS_RETRY_SCHEDULE), then fail. A
// claim is a lease renewed while the attempt runs: a process killed mid-delivery loses it
// and another instance delivers the row again, with the same webhook-id.
import { persist } from '../../db/persist';
import { recordDeliveries } from '../metrics/metrics';
import { startPolling } from '../jobs/polling';
import { attemptClaimed, nextAttempt } from '../queue/batch';
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { Webhook } from 'standardwebhooks';
import type { WebhooksConfig } from '../../config';
import { nowIso } from '../../db/index';
import { postWebhook } from './sender';
import type { WebhooksRepository } from './webhooks.repository';

/** An endpoint failing without a single success for this long is switched off. */
export const DISABLE_AFTER_MS = 3 * 24 * 60 * 60 * 1000;
const BATCH = 20;
/** attempts running at once in one process */
const CONCURRENCY = 8;

export interface WebhookWorkerContext {
  repo: WebhooksRepository;
  config: WebhooksConfig;
  publicUrl: string;
  brandName: string;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}

export interface WebhookDeliveryResult {
  delivered: number;
  retried: number;
  failed: number;
}

/** The mail the admins get when an endpoint is switched off. */
function disabledNotice(ctx: WebhookWorkerContext, url: string, since: string) {
  return {
    subject: `Webhook desligado por falhas: ${url}`.slice(0, 300),
    text: [
      `O endereço de webhook abaixo falha desde ${since} (UTC) sem nenhuma entrega bem-sucedida`,
      'e foi desligado automaticamente. Os eventos novos não são mais enfileirados para ele.',
      '',
      url,
      '',
      `Veja o registro de entregas e ligue de novo quando o receptor estiver de pé: ${ctx.publicUrl}/admin/webhooks`,
      '',
      ctx.brandName,
    ].join('\n'),
    origin: 'webhook_desligado',
  };
}

/** Switches the endpoint off if it has failed for 3 days with no success since; true if this call did. */
async function switchOffIfFailing(ctx: WebhookWorkerContext, endpointId: number, now: Date): Promise<boolean> {
  const disableBefore = nowIso(new Date(now.getTime() - DISABLE_AFTER_MS));
  const off = await ctx.repo.switchOff(endpointId, nowIso(now), disableBefore, (url, since) =>
    disabledNotice(ctx, url, since),
  );
  if (off) ctx.log?.warn({ endpoint: endpointId }, 'webhook endpoint switched off after 3 days of failures');
  return off;
}

/**
 * Switches off every active endpoint failing since 3 days before `now` without a success
 * since (the admins mailed once, whichever instance gets there first). Returns how many.
 */
export async function switchOffFailingEndpoints(ctx: WebhookWorkerContext, now = new Date()): Promise<number> {
  const candidates = await ctx.repo.failingSince(nowIso(new Date(now.getTime() - DISABLE_AFTER_MS)));
  let off = 0;
  for (const id of candidates) if (await switchOffIfFailing(ctx, id, now)) off++;
  return off;
}

/**
 * Delivers every webhook due at `now` (up to `limit`). Safe from several processes at
 * once: each row is claimed by one. Tests call it directly with a clock of their own.
 */
export async function deliverDueWebhooks(
  ctx: WebhookWorkerContext,
  options: { now?: Date; limit?: number; shouldStop?: () => boolean } = {},
): Promise<WebhookDeliveryResult & { claimed: number }> {
  const result = { delivered: 0, retried: 0, failed: 0, claimed: 0 };
  const { repo, config } = ctx;
  const now = options.now ?? new Date();
  const token = randomUUID();
  const leaseUntil = (from: number) => nowIso(new Date(from + config.leaseMs));
  // Also when no attempt fails any more (every delivery failed for good, no new events):
  // an endpoint failing for 3 days is switched off on the next pass of any instance.
  // A failure here must not hold up the deliveries: the next pass checks again.
  await switchOffFailingEndpoints(ctx, now).catch((err) =>
    ctx.log?.error({ err }, 'webhook switch-off check failed; tried again on the next pass'),
  );
  const claimed = await repo.claimDue(nowIso(now), leaseUntil(now.getTime()), options.limit ?? BATCH, token);
  result.claimed = claimed.length;
  if (!claimed.length) return result;
  ctx.log?.info(
    { webhookDeliveries: claimed.map((c) => c.id), webhookIds: claimed.map((c) => c.mensagem_id), pid: process.pid },
    'webhook batch claimed',
  );

  // The clock `now` may be a test's; the lease is renewed against the same offset.
  const offset = now.getTime() - Date.now();
  const batch = {
    leaseMs: config.leaseMs,
    concurrency: CONCURRENCY,
    renew: (ids: number[]) => repo.renewClaim(ids, leaseUntil(Date.now() + offset), token),
    release: (ids: number[]) => repo.releaseClaim(ids, token),
    shouldStop: options.shouldStop,
    log: ctx.log,
    renewalFailure: 'webhook claim renewal failed',
  };
  await attemptClaimed(claimed, batch, async (d) => {
    try {
      // Signed with the real time: receivers check it against their clock (±5 min).
      const sentAt = new Date();
      const signature = new Webhook(d.endpoint.segredo).sign(d.mensagem_id, sentAt, d.payload_json);
      const sent = await postWebhook(
        d.endpoint.url,
        {
          'webhook-id': d.mensagem_id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        d.payload_json,
        { timeoutMs: config.timeoutMs, allowPrivate: config.allowPrivate },
      );
      const attempts = d.tentativas + 1;
      const at = nowIso(new Date(Date.now() + offset));
      const outcome = { ...sent, at };
      if (sent.resultado === 'ok') {
        // Acknowledged: recorded through a database blip (within half the lease), not sent again.
        const recorded = await persist(
          () => repo.recordAttempt(d.id, token, attempts, outcome, { status: 'entregue', at: null }),
          config.leaseMs / 2,
        );
        if (recorded) {
          result.delivered++;
          // Always (a no-op when not failing): the streak may have begun after this claim.
          const broughtForward = await repo.endpointSucceeded(d.endpoint_id, at);
          if (broughtForward)
            ctx.log?.info(
              { endpoint: d.endpoint_id, broughtForward },
              'webhook endpoint back: waiting retries due now',
            );
        }
        return;
      }
      const next = nextAttempt(config.retryDelaysMs, attempts, now);
      if (await repo.recordAttempt(d.id, token, attempts, outcome, next)) {
        if (next.status === 'falhou') result.failed++;
        else result.retried++;
        const level = next.status === 'falhou' ? 'error' : 'warn';
        ctx.log?.[level](
          { webhookDelivery: d.id, webhookId: d.mensagem_id, attempts, resultado: sent.resultado, erro: sent.erro },
          next.status === 'falhou' ? 'webhook delivery failed for good' : 'webhook delivery failed; will retry',
        );
        await repo.endpointFailed(d.endpoint_id, at);
        await switchOffIfFailing(ctx, d.endpoint_id, new Date(Date.now() + offset));
      }
    } catch (err) {
      // A database error: the lease runs out and the row is tried again.
      ctx.log?.error({ err, webhookDelivery: d.id }, 'webhook attempt could not be recorded');
    }
  });
  recordDeliveries('webhook', { sent: result.delivered, retried: result.retried, failed: result.failed });
  return result;
}

/**
 * Runs deliverDueWebhooks every WEBHOOKS_INTERVAL_MS, at once again while batches come
 * back full. Never overlaps itself; an error is logged and the next tick tries again.
 */
export function startWebhookWorker(ctx: WebhookWorkerContext): { stop(): Promise<void> } {
  return startPolling({
    pass: async (shouldStop) => (await deliverDueWebhooks(ctx, { limit: BATCH, shouldStop })).claimed >= BATCH,
    everyMs: ctx.config.intervalMs,
    firstAfterMs: Math.min(1000, ctx.config.intervalMs),
    log: ctx.log,
    failure: 'webhook worker tick failed',
  });
}

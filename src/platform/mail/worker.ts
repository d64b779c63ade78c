// Delivery of the outbox: claim due messages, send them over SMTP, record the outcome.
// A failed send is retried with exponential backoff; after MAX_ATTEMPTS it is "falhou".
import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import { nowIso } from '../../db/index';
import { createOutboxRepository } from './outbox.repository';
import { createSmtpTransport, type SmtpTransport } from './transport';
import { createFileStorage, type FileStorage } from '../storage/index';
import { persist } from '../../db/persist';
import { recordDeliveries } from '../metrics/metrics';
import { startPolling } from '../jobs/polling';
import { attemptClaimed, nextAttempt } from '../queue/batch';

export const MAX_ATTEMPTS = 8;
/** first retry after 1 min, then 2, 4, 8 … capped at 6 h */
export const BASE_DELAY_MS = 60_000;
export const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
/** default claim lease (MAIL_LEASE_MS): a dead worker's messages are retried after it */
export const CLAIM_MS = 60_000;
const BATCH = 50;

export function retryDelayMs(attempt: number): number {
  return Math.min(BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS);
}
/** The waits after attempt 1 … MAX_ATTEMPTS - 1: the last attempt's failure is final. */
const RETRY_MS = Array.from({ length: MAX_ATTEMPTS - 1 }, (_, i) => retryDelayMs(i + 1));

export interface MailContext {
  db: Kysely<Database>;
  config: Pick<Config, 'smtp' | 'mailFrom' | 'uploadsDir' | 'storage'> & { mail?: Partial<Config['mail']> };
  /** where attachments are read (default: the driver the config chooses) */
  storage?: FileStorage;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** a pooled transport kept by the worker; otherwise one is opened for the call */
  transport?: SmtpTransport;
}

export interface DeliveryResult {
  sent: number;
  retried: number;
  failed: number;
}

/** A short, secret-free description of a send failure for the outbox row and the page. */
export function describeSendError(err: unknown): string {
  const e = err as { code?: string; responseCode?: number; response?: string; message?: string };
  const parts = [e.code, e.responseCode ? String(e.responseCode) : undefined, e.response ?? e.message].filter(Boolean);
  return (
    parts
      .join(' ')
      .replace(/[\r\n]+/g, ' ')
      .slice(0, 500) || 'erro desconhecido'
  );
}

/** Attachments name storage keys; the storage driver checks them and reads the bytes. */
async function loadAttachments(anexos: string | null, storage: FileStorage) {
  if (!anexos) return [];
  const list = JSON.parse(anexos) as { filename: string; path: string; contentType: string }[];
  return Promise.all(
    list.map(async (a) => {
      const file = await storage.get(a.path);
      if (!file) throw new Error(`anexo não encontrado: ${a.path}`);
      return { filename: a.filename, content: file.open(), contentType: a.contentType };
    }),
  );
}

/** "<random@domain-of-MAIL_FROM>": unique, and recognisable as ours. */
export function newMessageId(mailFrom: string): string {
  const domain = /@([A-Za-z0-9.-]+)/.exec(mailFrom)?.[1] ?? 'localhost';
  return `<${randomUUID()}@${domain}>`;
}

/**
 * Sends every message that is due at `now` (up to `limit`). Safe to call from several
 * processes at once: each message is claimed by exactly one caller. Tests call it
 * directly (with MAIL_WORKER=false); the app's worker calls it in production.
 */
export async function deliverDueMail(
  ctx: MailContext,
  options: { now?: Date; limit?: number } = {},
): Promise<DeliveryResult> {
  return (await deliverBatch(ctx, options)).result;
}

async function deliverBatch(
  ctx: MailContext,
  options: { now?: Date; limit?: number; shouldStop?: () => boolean },
): Promise<{ result: DeliveryResult; claimed: number }> {
  const result: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  const smtp = ctx.config.smtp;
  if (!smtp) return { result, claimed: 0 };
  const repo = createOutboxRepository(ctx.db);
  const now = options.now ?? new Date();
  const leaseMs = ctx.config.mail?.leaseMs ?? CLAIM_MS;
  const limit = options.limit ?? ctx.config.mail?.batchSize ?? BATCH;
  const claimed = await repo.claimDue(nowIso(now), nowIso(new Date(now.getTime() + leaseMs)), limit);
  if (!claimed.length) return { result, claimed: 0 };
  ctx.log?.info({ outboxIds: claimed.map((m) => m.id), pid: process.pid }, 'mail batch claimed');

  const storage = ctx.storage ?? createFileStorage(ctx.config, ctx.db);
  const transport = ctx.transport ?? createSmtpTransport(smtp, { pool: true, maxConnections: 1 });
  const batch = {
    leaseMs,
    renew: (ids: number[]) => repo.renewClaim(ids, nowIso(new Date(Date.now() + leaseMs))),
    release: (ids: number[]) => repo.releaseClaim(ids),
    shouldStop: options.shouldStop,
    log: ctx.log,
    renewalFailure: 'mail claim renewal failed',
  };
  try {
    // One at a time, each marked sent right after the server's 250: a crash can resend
    // at most the one message in flight (carrying the same Message-ID).
    await attemptClaimed(claimed, batch, async (msg) => {
      let accepted = false;
      try {
        let messageId = msg.message_id;
        if (!messageId) {
          messageId = newMessageId(ctx.config.mailFrom);
          await repo.setMessageId(msg.id, messageId);
        }
        await transport.sendMail({
          from: ctx.config.mailFrom,
          to: msg.destinatario,
          subject: msg.assunto,
          text: msg.texto,
          ...(msg.html ? { html: msg.html } : {}),
          ...(msg.responder_para ? { replyTo: msg.responder_para } : {}),
          attachments: await loadAttachments(msg.anexos, storage),
          messageId,
          // Lets the receiving side (and our tests) tie a message to its outbox row.
          headers: { 'X-Outbox-Id': String(msg.id) },
        });
        accepted = true;
        // Within half the lease: a restart of the database must not make it a second send.
        await persist(() => repo.markSent(msg.id, nowIso()), leaseMs / 2);
        result.sent++;
      } catch (err) {
        if (accepted) {
          // Sent, but not recorded: the lease runs out and it goes again with the same Message-ID.
          ctx.log?.error({ err, outboxId: msg.id }, 'mail sent but not recorded as sent');
          return;
        }
        const attempts = msg.tentativas + 1;
        const error = describeSendError(err);
        // A 5xx answer is permanent (bad address, refused): retrying cannot help.
        const permanent = (err as { responseCode?: number }).responseCode
          ? (err as { responseCode: number }).responseCode >= 500 && (err as { code?: string }).code !== 'EAUTH'
          : false;
        const next = permanent ? null : nextAttempt(RETRY_MS, attempts, now);
        if (!next || next.status === 'falhou') {
          await repo.markFailed(msg.id, attempts, error);
          result.failed++;
          ctx.log?.error({ outboxId: msg.id, attempts, error }, 'mail delivery failed for good');
        } else {
          await repo.markRetry(msg.id, attempts, next.at, error);
          result.retried++;
          ctx.log?.warn({ outboxId: msg.id, attempts, error }, 'mail delivery failed; will retry');
        }
      }
    });
  } finally {
    if (!ctx.transport) transport.close();
  }
  recordDeliveries('email', result);
  return { result, claimed: claimed.length };
}

/**
 * Runs deliverBatch every MAIL_INTERVAL_MS, and at once again while batches come back
 * full: throughput is set by the SMTP server, not by the timer. Never overlaps itself;
 * a database or SMTP error is logged and the next tick tries again.
 */
export function startMailWorker(
  ctx: MailContext,
  intervalMs = ctx.config.mail?.intervalMs ?? 5_000,
): { stop(): Promise<void> } {
  const smtp = ctx.config.smtp;
  // One pooled connection per instance, reused across messages and ticks.
  const transport = ctx.transport ?? (smtp ? createSmtpTransport(smtp, { pool: true, maxConnections: 1 }) : undefined);
  const worker = { ...ctx, transport };
  const batchSize = ctx.config.mail?.batchSize ?? BATCH;
  const polling = startPolling({
    pass: async (shouldStop) => (await deliverBatch(worker, { limit: batchSize, shouldStop })).claimed >= batchSize,
    everyMs: intervalMs,
    firstAfterMs: Math.min(1000, intervalMs),
    log: ctx.log,
    failure: 'mail worker tick failed',
  });
  return {
    async stop() {
      await polling.stop();
      if (!ctx.transport) transport?.close();
    },
  };
}

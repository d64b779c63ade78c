// Delivery of the outbox: claim due messages, send them over SMTP, record the outcome.
// A failed send is retried with exponential backoff; after MAX_ATTEMPTS it is "falhou".
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import { nowIso } from '../../db/index';
import { createOutboxRepository } from './outbox.repository';
import { createSmtpTransport } from './transport';

export const MAX_ATTEMPTS = 8;
/** first retry after 1 min, then 2, 4, 8 … capped at 6 h */
export const BASE_DELAY_MS = 60_000;
export const MAX_DELAY_MS = 6 * 60 * 60 * 1000;
/** how long a claim holds before another worker may take the message over */
export const CLAIM_MS = 5 * 60 * 1000;
const BATCH = 20;

export function retryDelayMs(attempt: number): number {
  return Math.min(BASE_DELAY_MS * 2 ** Math.max(0, attempt - 1), MAX_DELAY_MS);
}

export interface MailContext {
  db: Kysely<Database>;
  config: Pick<Config, 'smtp' | 'mailFrom' | 'uploadsDir'>;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
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
  return parts.join(' ').replace(/[\r\n]+/g, ' ').slice(0, 500) || 'erro desconhecido';
}

/** Attachments are stored relative to UPLOADS_DIR; anything resolving outside it is refused. */
function resolveAttachments(anexos: string | null, uploadsDir: string) {
  if (!anexos) return [];
  const list = JSON.parse(anexos) as { filename: string; path: string; contentType: string }[];
  const root = path.resolve(uploadsDir);
  return list.map((a) => {
    const full = path.resolve(root, a.path);
    if (!full.startsWith(root + path.sep)) throw new Error(`anexo fora da pasta de uploads: ${a.path}`);
    return { filename: a.filename, path: full, contentType: a.contentType };
  });
}

/**
 * Sends every message that is due at `now`. Safe to call from several processes at
 * once: each message is claimed by exactly one caller. Tests call it directly (with
 * MAIL_WORKER=false); the app's timer calls it in production.
 */
export async function deliverDueMail(ctx: MailContext, options: { now?: Date; limit?: number } = {}): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retried: 0, failed: 0 };
  const smtp = ctx.config.smtp;
  if (!smtp) return result;
  const repo = createOutboxRepository(ctx.db);
  const now = options.now ?? new Date();
  const claimed = await repo.claimDue(nowIso(now), nowIso(new Date(now.getTime() + CLAIM_MS)), options.limit ?? BATCH);
  if (!claimed.length) return result;

  const transport = createSmtpTransport(smtp);
  try {
    for (const msg of claimed) {
      try {
        await transport.sendMail({
          from: ctx.config.mailFrom,
          to: msg.destinatario,
          subject: msg.assunto,
          text: msg.texto,
          ...(msg.html ? { html: msg.html } : {}),
          ...(msg.responder_para ? { replyTo: msg.responder_para } : {}),
          attachments: resolveAttachments(msg.anexos, ctx.config.uploadsDir),
          // Lets the receiving side (and our tests) tie a message to its outbox row.
          headers: { 'X-Outbox-Id': String(msg.id) },
        });
        await repo.markSent(msg.id, nowIso());
        result.sent++;
      } catch (err) {
        const attempts = msg.tentativas + 1;
        const error = describeSendError(err);
        // A 5xx answer is permanent (bad address, refused): retrying cannot help.
        const permanent = (err as { responseCode?: number }).responseCode
          ? ((err as { responseCode: number }).responseCode >= 500 && (err as { code?: string }).code !== 'EAUTH')
          : false;
        if (attempts >= MAX_ATTEMPTS || permanent) {
          await repo.markFailed(msg.id, attempts, error);
          result.failed++;
          ctx.log?.error({ outboxId: msg.id, attempts, error }, 'mail delivery failed for good');
        } else {
          await repo.markRetry(msg.id, attempts, nowIso(new Date(now.getTime() + retryDelayMs(attempts))), error);
          result.retried++;
          ctx.log?.warn({ outboxId: msg.id, attempts, error }, 'mail delivery failed; will retry');
        }
      }
    }
  } finally {
    transport.close();
  }
  return result;
}

/** Runs deliverDueMail every `intervalMs` until stopped; never overlaps itself. */
export function startMailWorker(ctx: MailContext, intervalMs = 15_000): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  let stopped = false;
  const tick = () => {
    if (running || stopped) return;
    running = deliverDueMail(ctx)
      .catch((err) => ctx.log?.error({ err }, 'mail worker tick failed'))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  setTimeout(tick, 1000).unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

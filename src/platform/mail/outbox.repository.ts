import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { nowIso } from '../../db/index';
import { createQueueRows } from '../queue/queue.repository';
import { createUpdateWhile } from '../sql/update-while.repository';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** files under UPLOADS_DIR to attach */
  attachments?: { filename: string; path: string; contentType: string }[];
  /** what queued it, e.g. "fale_aqui:12" (shown on the diagnostic page) */
  origin?: string;
  /** Reply-To address, e.g. the unit's e-mail on a reply to a customer */
  replyTo?: string | null;
  /** MAIL_PRIORITY.chain for notifications to the chain; bulk (the default) otherwise */
  priority?: number;
}

/**
 * Lower goes first. Notifications to the chain (a free message) must not wait behind a
 * burst of lead notices or digests.
 */
export const MAIL_PRIORITY = { chain: 0, bulk: 10 } as const;

// A header value can never carry a line break: no header injection from user text.
const oneLine = (s: string) => s.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();

/**
 * Queues a message in the outbox. Call it with the transaction that stores the record
 * that causes the mail, so both are kept or neither is.
 */
export async function enqueueMail(db: Kysely<Database> | Transaction<Database>, mail: OutgoingMail): Promise<number> {
  const now = nowIso();
  const row = await db
    .insertInto('fila_emails')
    .values({
      destinatario: oneLine(mail.to),
      assunto: oneLine(mail.subject).slice(0, 300),
      texto: mail.text,
      html: mail.html ?? null,
      anexos: mail.attachments?.length ? JSON.stringify(mail.attachments) : null,
      proxima_tentativa_em: now,
      origem: mail.origin ? oneLine(mail.origin).slice(0, 60) : null,
      ...(mail.replyTo ? { responder_para: oneLine(mail.replyTo).slice(0, 254) } : {}),
      prioridade: mail.priority ?? MAIL_PRIORITY.bulk,
      criado_em: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The outbox table, as the delivery worker and the diagnostic page see it. */
export function createOutboxRepository(db: Kysely<Database>) {
  const queue = createQueueRows(db, 'fila_emails', {
    working: 'enviando',
    statuses: ['pendente', 'enviando', 'enviado', 'falhou'],
    order: ['prioridade', 'proxima_tentativa_em'],
  });
  const updateWhile = createUpdateWhile(db);
  return {
    /**
     * Claims up to `limit` due messages (see createQueueRows), the chain's notifications
     * first: disjoint sets when instances claim at once.
     */
    claimDue: (nowIsoValue: string, lockUntilIso: string, limit: number) =>
      queue.claim(nowIsoValue, lockUntilIso, limit).returningAll().execute(),

    /**
     * Keeps the claim of messages still being sent: a live worker holds them however long
     * the SMTP server takes, a dead one loses them when the (short) lease runs out.
     */
    renewClaim: (ids: number[], lockUntilIso: string) => queue.renew(ids, lockUntilIso),

    /** Gives back claimed messages not attempted (the worker is stopping): due at once elsewhere. */
    releaseClaim: (ids: number[]) => queue.release(ids),

    /** Stores the Message-ID before the first attempt; every later attempt reuses it. */
    setMessageId: (id: number, messageId: string) =>
      updateWhile('fila_emails', id, ['message_id', 'is', null], { message_id: messageId }),

    markSent: (id: number, atIso: string) =>
      queue.settle(id, { status: 'enviado', enviado_em: atIso, ultimo_erro: null }),

    markRetry: (id: number, tentativas: number, nextIso: string, error: string) =>
      queue.settle(id, { status: 'pendente', tentativas, proxima_tentativa_em: nextIso, ultimo_erro: error }),

    markFailed: (id: number, tentativas: number, error: string) =>
      queue.settle(id, { status: 'falhou', tentativas, ultimo_erro: error }),

    /** Counts by status plus the most recent error, for the diagnostic page. */
    async summary() {
      const counts = await queue.countByStatus();
      const last = await db
        .selectFrom('fila_emails')
        .select(['id', 'destinatario', 'ultimo_erro', 'tentativas', 'status', 'origem', 'criado_em'])
        .where('ultimo_erro', 'is not', null)
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return { counts, lastError: last ?? null };
    },

    /** Messages still to deliver and when the oldest was queued (the metrics' outbox gauges). */
    pendingStats: () => queue.waiting('criado_em'),

    findById(id: number) {
      return db.selectFrom('fila_emails').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;

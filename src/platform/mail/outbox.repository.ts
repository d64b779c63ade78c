import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { isPostgres, nowIso } from '../../db/index';

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
  return {
    /**
     * Claims up to `limit` due messages in one statement: pending ones whose time has
     * come, and "enviando" ones whose claim expired (a worker died mid-send). On
     * PostgreSQL the inner SELECT takes row locks with SKIP LOCKED, so two instances
     * claiming at once get disjoint sets; on SQLite the write lock serialises claims.
     */
    async claimDue(nowIsoValue: string, lockUntilIso: string, limit: number) {
      let due = db
        .selectFrom('fila_emails')
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pendente'), eb('proxima_tentativa_em', '<=', nowIsoValue)]),
            eb.and([eb('status', '=', 'enviando'), eb('bloqueado_ate', '<=', nowIsoValue)]),
          ]),
        )
        .orderBy('prioridade')
        .orderBy('proxima_tentativa_em')
        .orderBy('id')
        .limit(limit);
      if (isPostgres(db)) due = due.forUpdate().skipLocked();
      return db
        .updateTable('fila_emails')
        .set({ status: 'enviando', bloqueado_ate: lockUntilIso })
        .where('id', 'in', due)
        .returningAll()
        .execute();
    },

    /**
     * Keeps the claim of messages still being sent: a live worker holds them however long
     * the SMTP server takes, a dead one loses them when the (short) lease runs out.
     */
    async renewClaim(ids: number[], lockUntilIso: string): Promise<void> {
      if (!ids.length) return;
      await db
        .updateTable('fila_emails')
        .set({ bloqueado_ate: lockUntilIso })
        .where('id', 'in', ids)
        .where('status', '=', 'enviando')
        .execute();
    },

    /** Gives back claimed messages not attempted (the worker is stopping): due at once elsewhere. */
    async releaseClaim(ids: number[]): Promise<void> {
      if (!ids.length) return;
      await db
        .updateTable('fila_emails')
        .set({ status: 'pendente', bloqueado_ate: null })
        .where('id', 'in', ids)
        .where('status', '=', 'enviando')
        .execute();
    },

    /** Stores the Message-ID before the first attempt; every later attempt reuses it. */
    async setMessageId(id: number, messageId: string): Promise<void> {
      await db
        .updateTable('fila_emails')
        .set({ message_id: messageId })
        .where('id', '=', id)
        .where('message_id', 'is', null)
        .execute();
    },

    async markSent(id: number, atIso: string): Promise<void> {
      await db
        .updateTable('fila_emails')
        .set({ status: 'enviado', enviado_em: atIso, bloqueado_ate: null, ultimo_erro: null })
        .where('id', '=', id)
        .execute();
    },

    async markRetry(id: number, tentativas: number, nextIso: string, error: string): Promise<void> {
      await db
        .updateTable('fila_emails')
        .set({ status: 'pendente', tentativas, proxima_tentativa_em: nextIso, bloqueado_ate: null, ultimo_erro: error })
        .where('id', '=', id)
        .execute();
    },

    async markFailed(id: number, tentativas: number, error: string): Promise<void> {
      await db
        .updateTable('fila_emails')
        .set({ status: 'falhou', tentativas, bloqueado_ate: null, ultimo_erro: error })
        .where('id', '=', id)
        .execute();
    },

    /** Counts by status plus the most recent error, for the diagnostic page. */
    async summary() {
      const rows = await db
        .selectFrom('fila_emails')
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      const counts: Record<string, number> = { pendente: 0, enviando: 0, enviado: 0, falhou: 0 };
      for (const r of rows) counts[r.status] = Number(r.n);
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
    async pendingStats() {
      const row = await db
        .selectFrom('fila_emails')
        .select((eb) => [eb.fn.countAll<number>().as('depth'), eb.fn.min('criado_em').as('oldest')])
        .where('status', 'in', ['pendente', 'enviando'])
        .executeTakeFirst();
      return { depth: Number(row?.depth ?? 0), oldestPendingAt: (row?.oldest as string | null | undefined) ?? null };
    },

    findById(id: number) {
      return db.selectFrom('fila_emails').selectAll().where('id', '=', id).executeTakeFirst();
    },
  };
}
export type OutboxRepository = ReturnType<typeof createOutboxRepository>;

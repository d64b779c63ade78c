import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { nowIso } from '../../db/index';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html?: string | null;
  /** files under UPLOADS_DIR to attach */
  attachments?: { filename: string; path: string; contentType: string }[];
  /** what queued it, e.g. "fale_aqui:12" (shown on the diagnostic page) */
  origin?: string;
}

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
      origem: mail.origin ?? null,
      criado_em: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

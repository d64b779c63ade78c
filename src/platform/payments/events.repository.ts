// The payment provider's webhook events as received (pagamentos_eventos): stored first, once
// per event id, then claimed by the worker like the outboxes' rows (SKIP LOCKED on
// PostgreSQL, the write lock on SQLite) with a lease, processed, retried with backoff.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { createQueueRows } from '../queue/queue.repository';

export interface StoredEvent {
  id: string;
  provedor: string;
  tipo: string;
  pagamento_id: string | null;
  payload: string;
  tentativas: number;
}

export function createPaymentEventsRepository(db: Kysely<Database>) {
  const queue = createQueueRows(db, 'pagamentos_eventos', {
    working: 'processando',
    statuses: ['pendente', 'processando', 'processado', 'falhou'],
    order: ['recebido_em'],
  });
  return {
    /** Keeps the event unless its id is already kept: 'stored' or 'duplicate'. */
    async store(
      e: { id: string; provedor: string; tipo: string; pagamentoId: string | null; payload: string },
      at: string,
    ): Promise<'stored' | 'duplicate'> {
      const res = await db
        .insertInto('pagamentos_eventos')
        .values({
          id: e.id,
          provedor: e.provedor,
          tipo: e.tipo.slice(0, 80),
          pagamento_id: e.pagamentoId?.slice(0, 80) ?? null,
          payload: e.payload,
          status: 'pendente',
          recebido_em: at,
          proxima_tentativa_em: at,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return res ? 'stored' : 'duplicate';
    },

    /** Claims due events (see createQueueRows), oldest first. */
    async claimDue(now: string, lockUntil: string, limit: number, token: string): Promise<StoredEvent[]> {
      const rows = await queue
        .claim(now, lockUntil, limit, token)
        .returning(['id', 'provedor', 'tipo', 'pagamento_id', 'payload', 'tentativas', 'recebido_em'])
        .execute();
      return rows.sort((a, b) => a.recebido_em.localeCompare(b.recebido_em) || a.id.localeCompare(b.id));
    },

    renew: (ids: string[], lockUntil: string, token: string) => queue.renew(ids, lockUntil, token),

    /** The outcome of one attempt, only while this claim holds the row. */
    settle: (
      id: string,
      token: string,
      outcome:
        | { status: 'processado'; at: string }
        | { status: 'pendente' | 'falhou'; at: string; next: string; erro: string; tentativas: number },
    ) =>
      queue.settle(
        id,
        outcome.status === 'processado'
          ? { status: 'processado', processado_em: outcome.at, erro: null }
          : {
              status: outcome.status,
              tentativas: outcome.tentativas,
              proxima_tentativa_em: outcome.next,
              erro: outcome.erro.slice(0, 500),
            },
        token,
      ),

    /** Hands back claimed rows not attempted (stopping): due at once elsewhere. */
    release: (ids: string[], token: string) => queue.release(ids, token),

    /** An admin's "processar de novo" of an event that failed for good. */
    async retry(id: string, now: string): Promise<boolean> {
      const res = await db
        .updateTable('pagamentos_eventos')
        .set({ status: 'pendente', tentativas: 0, proxima_tentativa_em: now, erro: null })
        .where('id', '=', id)
        .where('status', '=', 'falhou')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** The operator's view: the newest event, and counts by status. */
    async overview() {
      const last = await db
        .selectFrom('pagamentos_eventos')
        .select(['id', 'tipo', 'recebido_em', 'status'])
        .orderBy('recebido_em', 'desc')
        .limit(1)
        .executeTakeFirst();
      return { last: last ?? null, byStatus: await queue.countByStatus() };
    },

    /** Events that failed for good or are still retrying, newest first. */
    unsettled(limit: number) {
      return db
        .selectFrom('pagamentos_eventos')
        .select(['id', 'tipo', 'pagamento_id', 'status', 'tentativas', 'recebido_em', 'erro'])
        .where('status', 'in', ['falhou', 'pendente'])
        .where('tentativas', '>', 0)
        .orderBy('recebido_em', 'desc')
        .limit(limit)
        .execute();
    },

    /** Deletes processed events received before `before` (their effect is on the payments). */
    async prune(before: string): Promise<number> {
      const res = await db
        .deleteFrom('pagamentos_eventos')
        .where('status', '=', 'processado')
        .where('recebido_em', '<', before)
        .executeTakeFirst();
      return Number(res.numDeletedRows);
    },

    /** For the metrics: events waiting, and when the oldest was received. */
    async pendingStats(): Promise<{ depth: number; oldest: string | null }> {
      const { depth, oldestPendingAt } = await queue.waiting('recebido_em');
      return { depth, oldest: oldestPendingAt };
    },
  };
}

export type PaymentEventsRepository = ReturnType<typeof createPaymentEventsRepository>;

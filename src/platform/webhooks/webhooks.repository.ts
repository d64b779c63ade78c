// The webhook tables: endpoints the admins subscribe, and the delivery outbox (one row per
// event and subscribed endpoint). emitWebhook() runs inside the caller's transaction, like
// enqueueMail(): the record and its deliveries are kept together or not at all.
import { randomBytes } from 'node:crypto';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { nowIso } from '../../db/index';
import { createQueueRows } from '../queue/queue.repository';
import { createUpdateWhile } from '../sql/update-while.repository';
import { enqueueMail, type OutgoingMail } from '../mail/outbox.repository';
import type { WebhookEventType } from './events';

type Db = Kysely<Database> | Transaction<Database>;

/** A new webhook-id: "msg_" and 22 random base32-ish characters (url-safe). */
export function newMessageId(): string {
  return `msg_${randomBytes(16).toString('base64url').replace(/[-_]/g, 'x').slice(0, 22)}`;
}

/** The Standard Webhooks body: `{ type, timestamp, data }`. */
export function webhookBody(type: string, data: unknown, at: Date | string): string {
  return JSON.stringify({ type, timestamp: typeof at === 'string' ? at : at.toISOString(), data });
}

export interface WebhookEvent {
  type: WebhookEventType;
  data: Record<string, unknown>;
  /** the record that caused it ("fale_aqui:12"): erasure finds the deliveries by it */
  origin: string;
  at?: Date;
}

/**
 * Queues `event` for every active endpoint subscribed to its type, in ONE statement (a few
 * microseconds when no endpoint listens). Call it with the transaction that stores the
 * record. Each row gets its own webhook-id: the event's and the endpoint's id.
 */
export async function emitWebhook(db: Db, event: WebhookEvent): Promise<void> {
  const at = event.at ?? new Date();
  const body = webhookBody(event.type, event.data, at);
  const created = nowIso(at);
  const eventId = newMessageId();
  await db
    .insertInto('webhook_entregas')
    .columns(['endpoint_id', 'mensagem_id', 'evento', 'origem', 'payload_json', 'proxima_tentativa_em', 'criado_em'])
    .expression((eb) =>
      eb
        .selectFrom('webhook_endpoints as e')
        .select((s) => [
          'e.id',
          sql<string>`${eventId} || '_' || cast(e.id as varchar(20))`.as('mensagem_id'),
          s.val(event.type).as('evento'),
          s.val(event.origin.slice(0, 60)).as('origem'),
          s.val(body).as('payload_json'),
          s.val(created).as('proxima_tentativa_em'),
          s.val(created).as('criado_em'),
        ])
        .where('e.ativo', '=', 1)
        .where('e.eventos', 'like', `%,${event.type},%`),
    )
    .execute();
}

export interface AttemptOutcome {
  resultado: string;
  codigo: number | null;
  duracaoMs: number;
  resposta: string | null;
  erro: string | null;
  at: string;
}

const DELIVERY_STATUSES = ['pendente', 'enviando', 'entregue', 'falhou'];

export function createWebhooksRepository(db: Kysely<Database>) {
  const activeEndpoints = db.selectFrom('webhook_endpoints').select('id').where('ativo', '=', 1);
  const queue = createQueueRows(db, 'webhook_entregas', {
    working: 'enviando',
    statuses: DELIVERY_STATUSES,
    order: ['proxima_tentativa_em'],
    only: (rows) => rows.where('endpoint_id', 'in', activeEndpoints),
  });
  const updateWhile = createUpdateWhile(db);
  return {
    // ---------------------------------------------------------------- endpoints

    async insertEndpoint(e: { url: string; eventos: string[]; segredo: string; ativo: boolean }, now: string) {
      const row = await db
        .insertInto('webhook_endpoints')
        .values({
          url: e.url,
          eventos: `,${e.eventos.join(',')},`,
          segredo: e.segredo,
          ativo: e.ativo ? 1 : 0,
          criado_em: now,
          atualizado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    async updateEndpoint(id: number, e: { url: string; eventos: string[]; ativo: boolean }, now: string) {
      const res = await db
        .updateTable('webhook_endpoints')
        .set((eb) => ({
          url: e.url,
          eventos: `,${e.eventos.join(',')},`,
          ativo: e.ativo ? 1 : 0,
          atualizado_em: now,
          // Switched on again by an admin: the count of days failing starts over.
          falhando_desde: e.ativo ? null : eb.ref('falhando_desde'),
          desativado_em: e.ativo ? null : eb.ref('desativado_em'),
          desativado_motivo: e.ativo ? null : eb.ref('desativado_motivo'),
        }))
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    async deleteEndpoint(id: number): Promise<boolean> {
      // Deliveries go with it (cascade on PostgreSQL; explicit for SQLite without foreign keys on).
      await db.deleteFrom('webhook_entregas').where('endpoint_id', '=', id).execute();
      const res = await db.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst();
      return Number(res.numDeletedRows) > 0;
    },

    endpoint(id: number) {
      return db.selectFrom('webhook_endpoints').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /** Every endpoint with its deliveries counted by status. */
    async endpoints() {
      const rows = await db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();
      const counts = await db
        .selectFrom('webhook_entregas')
        .select(['endpoint_id', 'status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['endpoint_id', 'status'])
        .execute();
      return rows.map((r) => {
        const byStatus: Record<string, number> = Object.fromEntries(DELIVERY_STATUSES.map((s) => [s, 0]));
        for (const c of counts) if (c.endpoint_id === r.id) byStatus[c.status] = Number(c.n);
        return { ...r, entregas: byStatus };
      });
    },

    // ---------------------------------------------------------------- deliveries

    /** The test event, to one endpoint only (whatever it subscribes). */
    async queueTest(endpointId: number, body: string, at: string): Promise<number> {
      const row = await db
        .insertInto('webhook_entregas')
        .values({
          endpoint_id: endpointId,
          mensagem_id: newMessageId(),
          evento: 'webhook.teste',
          origem: null,
          payload_json: body,
          proxima_tentativa_em: at,
          criado_em: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },

    /** The newest deliveries of an endpoint (the log), without their bodies. */
    deliveries(endpointId: number, limit: number, offset: number) {
      return db
        .selectFrom('webhook_entregas')
        .select([
          'id',
          'mensagem_id',
          'evento',
          'status',
          'tentativas',
          'proxima_tentativa_em',
          'ultimo_resultado',
          'ultimo_codigo',
          'ultima_duracao_ms',
          'ultima_resposta',
          'ultimo_erro',
          'ultima_tentativa_em',
          'entregue_em',
          'criado_em',
        ])
        .where('endpoint_id', '=', endpointId)
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async countDeliveries(endpointId: number): Promise<number> {
      const r = await db
        .selectFrom('webhook_entregas')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('endpoint_id', '=', endpointId)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    delivery(id: number) {
      return db.selectFrom('webhook_entregas').selectAll().where('id', '=', id).executeTakeFirst();
    },

    /**
     * An admin's "reenviar": due now, a fresh series of attempts, the same webhook-id (the
     * receiver may already have it and drop the repeat). Not while an attempt is running.
     */
    async resend(id: number, endpointId: number, now: string): Promise<boolean> {
      const res = await db
        .updateTable('webhook_entregas')
        .set({ status: 'pendente', tentativas: 0, proxima_tentativa_em: now, bloqueado_ate: null, bloqueio: null })
        .where('id', '=', id)
        .where('endpoint_id', '=', endpointId)
        .where('status', '!=', 'enviando')
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /**
     * Claims up to `limit` due deliveries of active endpoints (see createQueueRows), each
     * with its endpoint's address and secret. `token` marks this claim.
     */
    async claimDue(now: string, lockUntil: string, limit: number, token: string) {
      const claimed = await queue
        .claim(now, lockUntil, limit, token)
        .returning(['id', 'endpoint_id', 'mensagem_id', 'evento', 'payload_json', 'tentativas'])
        .execute();
      if (!claimed.length) return [];
      const endpoints = await db
        .selectFrom('webhook_endpoints')
        .select(['id', 'url', 'segredo', 'falhando_desde'])
        .where('id', 'in', [...new Set(claimed.map((c) => c.endpoint_id))])
        .execute();
      const byId = new Map(endpoints.map((e) => [e.id, e]));
      return claimed.flatMap((c) => {
        const endpoint = byId.get(c.endpoint_id);
        return endpoint ? [{ ...c, endpoint }] : [];
      });
    },

    renewClaim: (ids: number[], lockUntil: string, token: string) => queue.renew(ids, lockUntil, token),

    /** Hands back claimed deliveries not attempted (shutting down): due at once elsewhere. */
    releaseClaim: (ids: number[], token: string) => queue.release(ids, token),

    /**
     * Records one attempt: delivered, to be retried at `nextAt`, or failed for good (both
     * null). Only while this claim still holds the row. A success clears the endpoint's
     * failing streak; a failure starts it. Returns whether the row was this claim's.
     */
    recordAttempt: (
      id: number,
      token: string,
      tentativas: number,
      outcome: AttemptOutcome,
      next: { status: 'entregue' | 'pendente' | 'falhou'; at: string | null },
    ) =>
      queue.settle(
        id,
        {
          status: next.status,
          tentativas,
          ...(next.at ? { proxima_tentativa_em: next.at } : {}),
          ultimo_resultado: outcome.resultado,
          ultimo_codigo: outcome.codigo,
          ultima_duracao_ms: outcome.duracaoMs,
          ultima_resposta: outcome.resposta,
          ultimo_erro: outcome.erro,
          ultima_tentativa_em: outcome.at,
          ...(next.status === 'entregue' ? { entregue_em: outcome.at } : {}),
        },
        token,
      ),

    /**
     * A success ends the endpoint's failing streak; when this call ended it, the receiver is
     * back and its deliveries waiting for a later step of the schedule become due at `now`.
     * Returns how many were brought forward.
     */
    async endpointSucceeded(endpointId: number, now: string): Promise<number> {
      const ended = await updateWhile('webhook_endpoints', endpointId, ['falhando_desde', 'is not', null], {
        falhando_desde: null,
      });
      if (!ended) return 0;
      const due = await db
        .updateTable('webhook_entregas')
        .set({ proxima_tentativa_em: now })
        .where('endpoint_id', '=', endpointId)
        .where('status', '=', 'pendente')
        .where('proxima_tentativa_em', '>', now)
        .executeTakeFirst();
      return Number(due.numUpdatedRows);
    },

    /** A failed attempt: starts the endpoint's failing streak (kept when already running). */
    endpointFailed: (endpointId: number, at: string) =>
      updateWhile('webhook_endpoints', endpointId, ['falhando_desde', 'is', null], { falhando_desde: at }),

    /** Active endpoints whose failing streak began before `before` (candidates for switchOff). */
    async failingSince(before: string): Promise<number[]> {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .select('id')
        .where('ativo', '=', 1)
        .where('falhando_desde', '<=', before)
        .execute();
      return rows.map((r) => r.id);
    },

    /**
     * Switches the endpoint off when it has failed since before `disableBefore` with no
     * delivery succeeding after it, and queues the active admins' mail in the same
     * transaction. The conditional UPDATE makes exactly one caller (of any instance) do it:
     * on PostgreSQL a concurrent one waits for the first commit, then finds it off.
     */
    async switchOff(
      endpointId: number,
      at: string,
      disableBefore: string,
      notice: (url: string, since: string) => Omit<OutgoingMail, 'to'>,
    ): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const off = await trx
          .updateTable('webhook_endpoints')
          .set({
            ativo: 0,
            desativado_em: at,
            desativado_motivo: 'Desligado automaticamente: falhas seguidas por 3 dias.',
            atualizado_em: at,
          })
          .where('id', '=', endpointId)
          .where('ativo', '=', 1)
          .where('falhando_desde', '<=', disableBefore)
          .where(({ not, exists, selectFrom }) =>
            not(
              exists(
                selectFrom('webhook_entregas')
                  .select('webhook_entregas.id')
                  .where('webhook_entregas.endpoint_id', '=', endpointId)
                  .where('webhook_entregas.status', '=', 'entregue')
                  .where('webhook_entregas.entregue_em', '>', disableBefore),
              ),
            ),
          )
          .returning(['url', 'falhando_desde'])
          .executeTakeFirst();
        if (!off) return false;
        const admins = await trx
          .selectFrom('usuarios')
          .select('email')
          .where('papel', '=', 'admin')
          .where('ativo', '=', 1)
          .execute();
        const mail = notice(off.url, off.falhando_desde ?? at);
        for (const a of admins) await enqueueMail(trx, { ...mail, to: a.email });
        return true;
      });
    },

    /**
     * For the operator's metrics: deliveries waiting (pending or being sent) to active
     * endpoints, and how long the oldest due one has been due, in seconds (0 when none).
     */
    async pendingStats(now: Date = new Date()): Promise<{ count: number; oldestDueAgeSeconds: number }> {
      const { depth, oldestPendingAt } = await queue.waiting('proxima_tentativa_em');
      const oldest = oldestPendingAt ? Date.parse(String(oldestPendingAt)) : null;
      return {
        count: depth,
        oldestDueAgeSeconds: oldest === null ? 0 : Math.max(0, (now.getTime() - oldest) / 1000),
      };
    },

    /** Deliveries by status and last result (ok, http, tempo_esgotado…), for the metrics. */
    async countsByResult() {
      const rows = await db
        .selectFrom('webhook_entregas')
        .select(['status', 'ultimo_resultado', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy(['status', 'ultimo_resultado'])
        .execute();
      return rows.map((r) => ({ status: r.status, resultado: r.ultimo_resultado, n: Number(r.n) }));
    },

    /**
     * Erasure of personal data: every delivery (pending, delivered or failed) of the records
     * named ("fale_aqui:12", "franquia_leads:3", "respostas_nps:9", "aulas_experimentais:4").
     */
    async eraseByOrigin(origins: string[]): Promise<number> {
      if (!origins.length) return 0;
      const res = await db.deleteFrom('webhook_entregas').where('origem', 'in', origins).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}
export type WebhooksRepository = ReturnType<typeof createWebhooksRepository>;

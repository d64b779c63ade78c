// The three outboxes (mail, webhook deliveries, payment events) are one kind of table: a row
// waits "pendente" until proxima_tentativa_em, then one worker holds it (status `working`)
// until bloqueado_ate, renewing that lease while it works. Their claim, renewal and release
// are written here once, so every queue locks the same way.
import type { Kysely, SelectQueryBuilder, Updateable, UpdateQueryBuilder, UpdateResult } from 'kysely';
import { isPostgres } from '../../db/index';
import type { Database } from '../../db/types';

type QueueTable = 'fila_emails' | 'webhook_entregas' | 'pagamentos_eventos';

type Id = number | string;
type Rows<T extends QueueTable, O> = SelectQueryBuilder<Database, T, O>;

/** The columns the statements below touch, common to every queue table. */
interface QueueRow {
  id: Id;
  status: string;
  proxima_tentativa_em: string;
  bloqueado_ate: string | null;
  bloqueio: string | null;
}
// Any queue table seen as those columns: Kysely cannot check one query over a table not yet chosen.
type AnyQueue = Kysely<Record<string, QueueRow>>;

type Column<T extends QueueTable> = keyof Database[T] & string;

interface QueueSpec<T extends QueueTable> {
  /** the status of a row a worker holds ("enviando", "processando") */
  working: string;
  /** every status a row can have, as the counts list them */
  statuses: readonly string[];
  /** the claim's order before the id: who goes first when more is due than one batch */
  order: Column<T>[];
  /** narrows the rows the queue works (e.g. to active endpoints) */
  only?: <O>(rows: Rows<T, O>) => Rows<T, O>;
}

/**
 * The claim, renewal, outcome and release of `table`'s rows, and their counts. `token` names a claim
 * on tables with a bloqueio column; the mail outbox has none (its lease alone tells a live
 * claim).
 */
export function createQueueRows<T extends QueueTable>(db: Kysely<Database>, table: T, spec: QueueSpec<T>) {
  const queue = db as unknown as AnyQueue;
  const name: string = table;
  const held = (ids: readonly Id[], token: string | undefined) => {
    const q = queue
      .updateTable(name)
      .where('id', 'in', [...ids])
      .where('status', '=', spec.working);
    return token === undefined ? q : q.where('bloqueio', '=', token);
  };
  return {
    /**
     * Claims up to `limit` due rows in one statement: pending ones whose time has come, and
     * held ones whose lease ran out (a worker died mid-attempt). On PostgreSQL the inner
     * SELECT locks with SKIP LOCKED, so instances claim disjoint sets; on SQLite the write
     * lock serialises claims. The caller says what the UPDATE returns.
     */
    claim(
      now: string,
      lockUntil: string,
      limit: number,
      token?: string,
    ): UpdateQueryBuilder<Database, T, T, UpdateResult> {
      let due = queue
        .selectFrom(name)
        .select('id')
        .where((eb) =>
          eb.or([
            eb.and([eb('status', '=', 'pendente'), eb('proxima_tentativa_em', '<=', now)]),
            eb.and([eb('status', '=', spec.working), eb('bloqueado_ate', '<=', now)]),
          ]),
        ) as unknown as Rows<T, { id: Id }>;
      if (spec.only) due = spec.only(due);
      for (const column of [...spec.order, 'id']) due = due.orderBy(column as never);
      due = due.limit(limit);
      if (isPostgres(db)) due = due.forUpdate().skipLocked();
      return queue
        .updateTable(name)
        .set({ status: spec.working, bloqueado_ate: lockUntil, ...(token === undefined ? {} : { bloqueio: token }) })
        .where('id', 'in', due as never) as unknown as UpdateQueryBuilder<Database, T, T, UpdateResult>;
    },

    /** Keeps the lease of rows still being worked: a dead worker loses them when it runs out. */
    async renew(ids: readonly Id[], lockUntil: string, token?: string): Promise<void> {
      if (!ids.length) return;
      await held(ids, token).set({ bloqueado_ate: lockUntil }).execute();
    },

    /** Gives back held rows not attempted (the worker is stopping): due at once elsewhere. */
    async release(ids: readonly Id[], token?: string): Promise<void> {
      if (!ids.length) return;
      const cleared = token === undefined ? {} : { bloqueio: null };
      await held(ids, token)
        .set({ status: 'pendente', bloqueado_ate: null, ...cleared })
        .execute();
    },

    /**
     * Records an attempt's outcome and ends the lease, only while this claim still holds the
     * row (`token`, where the table has one). True when it did.
     */
    async settle(id: Id, outcome: Updateable<Database[T]>, token?: string): Promise<boolean> {
      const ended = token === undefined ? {} : { bloqueio: null };
      let q = queue
        .updateTable(name)
        .set({ ...(outcome as Partial<QueueRow>), bloqueado_ate: null, ...ended })
        .where('id', '=', id);
      if (token !== undefined) q = q.where('bloqueio', '=', token);
      const res = await q.executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },

    /** Rows by status, every status of the spec listed (0 when none). */
    async countByStatus(): Promise<Record<string, number>> {
      const rows = await queue
        .selectFrom(name)
        .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('status')
        .execute();
      const counts: Record<string, number> = Object.fromEntries(spec.statuses.map((status) => [status, 0]));
      for (const r of rows) counts[r.status] = Number(r.n);
      return counts;
    },

    /** Rows still to do (pending or held) and the oldest `column` among them: the metrics' gauges. */
    async waiting(column: Column<T>): Promise<{ depth: number; oldestPendingAt: string | null }> {
      let rows = queue
        .selectFrom(name)
        .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min(column as never).as('oldest')])
        .where('status', 'in', ['pendente', spec.working]) as unknown as Rows<T, { n: number; oldest: unknown }>;
      if (spec.only) rows = spec.only(rows);
      const r = await rows.executeTakeFirstOrThrow();
      return { depth: Number(r.n), oldestPendingAt: (r.oldest as string | null) ?? null };
    },
  };
}

// How a service runs statements of its repositories in ONE transaction without building
// repositories itself (the wiring rule): a feature's index.ts wraps its repository
// factory once, `transactional(app.db, createXRepository)`, and hands the result to the
// service. The service still decides what goes in the transaction (decision 090).
import type { Kysely, Transaction } from 'kysely';
import type { Database } from './types';

export type Trx = Transaction<Database>;

/** Repositories on the database, plus `transaction()` for the same repositories bound to one transaction. */
export type Transactional<R> = R & {
  /**
   * Runs `work` in one transaction with the repositories bound to it; `trx` is for what
   * other features put in the same transaction (enqueueMail, storage.commit, storeOnce).
   * Already bound to a transaction: runs inside it.
   */
  transaction<T>(work: (repos: R, trx: Trx) => Promise<T>): Promise<T>;
};

export function transactional<R extends object>(
  db: Kysely<Database>,
  build: (db: Kysely<Database>) => R,
): Transactional<R> {
  const repos = build(db);
  return Object.assign(repos, {
    transaction<T>(work: (repos: R, trx: Trx) => Promise<T>): Promise<T> {
      if (db.isTransaction) return work(repos, db as Trx);
      return db.transaction().execute((trx) => work(build(trx), trx));
    },
  });
}

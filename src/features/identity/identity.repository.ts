// Every SQL statement about staff identity: accounts and their units, sessions, login
// attempts (and reset-request counts), password-reset tokens. E-mails are stored lower-case.
import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/types';
import { isPostgres, nowIso } from '../../db/index';

type Conn = Kysely<Database> | Transaction<Database>;

export interface NewAccount {
  email: string;
  nome: string;
  senhaHash: string;
  papel: 'admin' | 'gerente';
  unidadeIds?: number[];
}

/** The outcome of asking to count one more attempt against some keys. */
export type Reservation = { locked: true; retryAt: Date } | { locked: false; ids: number[] };

function buildRepository(db: Conn) {
  /**
   * Serialises work on the given keys until the transaction ends. PostgreSQL: one
   * transaction-scoped advisory lock per key, taken in a fixed order (no deadlock between
   * two requests sharing keys). SQLite: every transaction begins IMMEDIATE (db/index.ts),
   * which already holds the single write lock, so there is nothing more to take.
   */
  async function lockKeys(trx: Transaction<Database>, keys: string[]) {
    if (!isPostgres(trx)) return;
    for (const key of [...new Set(keys)].sort()) {
      await sql`select pg_advisory_xact_lock(hashtext(${`identity:${key}`}))`.execute(trx);
    }
  }

  /** What the staff pages know of an account, never its password hash. */
  const accounts = () => db.selectFrom('usuarios').select(['id', 'email', 'nome', 'papel', 'ativo']);

  const repo = {
    // ---- accounts -------------------------------------------------------------------
    /** `senha_hash` only where a login checks it. */
    findByEmail: (email: string) =>
      accounts().select('senha_hash').where('email', '=', email.toLowerCase()).executeTakeFirst(),

    findById: (id: number) => accounts().where('id', '=', id).executeTakeFirst(),

    async emailTaken(email: string) {
      return Boolean(
        await db.selectFrom('usuarios').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst(),
      );
    },

    async list() {
      const users = await accounts().select('criado_em').orderBy('nome').execute();
      const links = await db
        .selectFrom('usuarios_unidades')
        .innerJoin('unidades', 'unidades.id', 'usuarios_unidades.unidade_id')
        .select(['usuarios_unidades.usuario_id', 'unidades.nome'])
        .orderBy('unidades.nome')
        .execute();
      return users.map((u) => ({ ...u, unidades: links.filter((l) => l.usuario_id === u.id).map((l) => l.nome) }));
    },

    async unitIds(userId: number): Promise<number[]> {
      const rows = await db
        .selectFrom('usuarios_unidades')
        .select('unidade_id')
        .where('usuario_id', '=', userId)
        .orderBy('unidade_id')
        .execute();
      return rows.map((r) => r.unidade_id);
    },

    /** Every unit, for the account form's unit picker. */
    allUnits() {
      return db.selectFrom('unidades').select(['id', 'nome', 'cidade', 'uf', 'ativo']).orderBy('nome').execute();
    },

    async existingUnitIds(ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await db.selectFrom('unidades').select('id').where('id', 'in', ids).execute();
      return rows.map((r) => r.id);
    },

    async insertAccount(a: NewAccount, now = nowIso()): Promise<number> {
      const row = await db
        .insertInto('usuarios')
        .values({
          email: a.email.toLowerCase(),
          nome: a.nome,
          senha_hash: a.senhaHash,
          papel: a.papel,
          ativo: 1,
          criado_em: now,
          atualizado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await repo.replaceUnits(row.id, a.unidadeIds ?? []);
      return row.id;
    },

    async updateAccount(id: number, u: { nome: string; papel: string }, now = nowIso()) {
      await db
        .updateTable('usuarios')
        .set({ ...u, atualizado_em: now })
        .where('id', '=', id)
        .execute();
    },

    async replaceUnits(id: number, unitIds: number[]) {
      await db.deleteFrom('usuarios_unidades').where('usuario_id', '=', id).execute();
      if (unitIds.length)
        await db
          .insertInto('usuarios_unidades')
          .values(unitIds.map((unidade_id) => ({ usuario_id: id, unidade_id })))
          .execute();
    },

    async setActive(id: number, ativo: 0 | 1, now = nowIso()) {
      await db.updateTable('usuarios').set({ ativo, atualizado_em: now }).where('id', '=', id).execute();
    },

    /** `reactivate`: the command-line reset also re-enables the account. */
    async setPasswordHash(id: number, senhaHash: string, options: { reactivate?: boolean; now?: string } = {}) {
      await db
        .updateTable('usuarios')
        .set({
          senha_hash: senhaHash,
          atualizado_em: options.now ?? nowIso(),
          ...(options.reactivate ? { ativo: 1 } : {}),
        })
        .where('id', '=', id)
        .execute();
    },

    async activeAdminCount() {
      const r = await db
        .selectFrom('usuarios')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('papel', '=', 'admin')
        .where('ativo', '=', 1)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },

    // ---- sessions -------------------------------------------------------------------
    async insertSession(s: { id: string; usuarioId: number; now: string; expiresAt: string }) {
      await db
        .insertInto('sessoes')
        .values({ id: s.id, usuario_id: s.usuarioId, criado_em: s.now, visto_em: s.now, expira_em: s.expiresAt })
        .execute();
    },

    /** The session and its account, if the account is active (a disabled one has none). */
    findSession(id: string) {
      return db
        .selectFrom('sessoes')
        .innerJoin('usuarios', 'usuarios.id', 'sessoes.usuario_id')
        .select([
          'sessoes.id',
          'sessoes.usuario_id',
          'sessoes.criado_em',
          'sessoes.visto_em',
          'usuarios.email',
          'usuarios.nome',
          'usuarios.papel',
          'usuarios.ativo',
        ])
        .where('sessoes.id', '=', id)
        .executeTakeFirst();
    },

    /**
     * Moves the idle clock. UPDATE only, never an upsert: a request still in flight when
     * its session was deleted (logout, disabled account, new password) finds no row and
     * writes nothing, so the deletion stands.
     */
    async touchSession(id: string, now: string, expiresAt: string): Promise<boolean> {
      const r = await db
        .updateTable('sessoes')
        .set({ visto_em: now, expira_em: expiresAt })
        .where('id', '=', id)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) > 0;
    },

    async deleteSession(id: string) {
      await db.deleteFrom('sessoes').where('id', '=', id).execute();
    },

    /** Ends every session of an account, optionally but one (the one making the change). */
    async deleteSessionsOf(userId: number, exceptId?: string) {
      let q = db.deleteFrom('sessoes').where('usuario_id', '=', userId);
      if (exceptId) q = q.where('id', '<>', exceptId);
      const r = await q.executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    async purgeSessions(now: string) {
      await db.deleteFrom('sessoes').where('expira_em', '<=', now).execute();
    },

    // ---- attempts (login failures, reset requests) ----------------------------------
    /**
     * Decides and records in one transaction that locks the keys: when any key already has
     * `max` rows since `since`, nothing is recorded and the answer is when to retry
     * (the oldest counted row leaves the window); otherwise one row per key is inserted
     * (a reservation that later becomes the failure, or is released). Concurrent callers
     * on the same keys queue on the lock, so at most `max` ever get through.
     */
    async reserveAttempt(keys: string[], max: number, windowMs: number, now: Date): Promise<Reservation> {
      const run = async (trx: Transaction<Database>): Promise<Reservation> => {
        await lockKeys(trx, keys);
        const since = nowIso(new Date(now.getTime() - windowMs));
        let retryAt: Date | null = null;
        for (const key of keys) {
          const rows = await trx
            .selectFrom('tentativas_login')
            .select('criado_em')
            .where('chave', '=', key)
            .where('criado_em', '>', since)
            .orderBy('criado_em')
            .execute();
          if (rows.length < max) continue;
          const pivot = new Date(new Date(rows[rows.length - max]!.criado_em).getTime() + windowMs);
          if (!retryAt || pivot > retryAt) retryAt = pivot;
        }
        if (retryAt) return { locked: true, retryAt };
        const at = nowIso(now);
        const ids: number[] = [];
        for (const chave of keys) {
          ids.push(
            (
              await trx
                .insertInto('tentativas_login')
                .values({ chave, criado_em: at })
                .returning('id')
                .executeTakeFirstOrThrow()
            ).id,
          );
        }
        return { locked: false, ids };
      };
      return db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
    },

    async releaseAttempts(ids: number[]) {
      if (ids.length) await db.deleteFrom('tentativas_login').where('id', 'in', ids).execute();
    },

    async clearAttempts(key: string) {
      await db.deleteFrom('tentativas_login').where('chave', '=', key).execute();
    },

    async purgeAttemptsBefore(iso: string) {
      await db.deleteFrom('tentativas_login').where('criado_em', '<=', iso).execute();
    },

    // ---- password-reset tokens ------------------------------------------------------
    async insertResetToken(t: { usuarioId: number; tokenHash: string; now: string; expiresAt: string }) {
      await db
        .insertInto('senha_redefinicoes')
        .values({ usuario_id: t.usuarioId, token_hash: t.tokenHash, criado_em: t.now, expira_em: t.expiresAt })
        .execute();
    },

    /** An unused, unexpired token and its (active) account. */
    findUsableResetToken(tokenHash: string, now: string) {
      return db
        .selectFrom('senha_redefinicoes')
        .innerJoin('usuarios', 'usuarios.id', 'senha_redefinicoes.usuario_id')
        .select(['senha_redefinicoes.id', 'senha_redefinicoes.usuario_id', 'usuarios.email'])
        .where('senha_redefinicoes.token_hash', '=', tokenHash)
        .where('senha_redefinicoes.usado_em', 'is', null)
        .where('senha_redefinicoes.expira_em', '>', now)
        .where('usuarios.ativo', '=', 1)
        .executeTakeFirst();
    },

    /** Marks the token used; true for exactly one caller, however many race for it. */
    async consumeResetToken(id: number, now: string): Promise<boolean> {
      const r = await db
        .updateTable('senha_redefinicoes')
        .set({ usado_em: now })
        .where('id', '=', id)
        .where('usado_em', 'is', null)
        .where('expira_em', '>', now)
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },

    /** Other links of the account stop working once one is used. */
    async retireResetTokensOf(userId: number, now: string) {
      await db
        .updateTable('senha_redefinicoes')
        .set({ usado_em: now })
        .where('usuario_id', '=', userId)
        .where('usado_em', 'is', null)
        .execute();
    },

    async purgeResetTokensBefore(iso: string) {
      await db.deleteFrom('senha_redefinicoes').where('expira_em', '<=', iso).execute();
    },
  };
  return repo;
}

export interface IdentityRepository extends ReturnType<typeof buildRepository> {
  /** Runs `work` in one transaction with a repository bound to it (or in the current one). */
  transaction<T>(work: (repo: IdentityRepository, trx: Transaction<Database>) => Promise<T>): Promise<T>;
}

export function createIdentityRepository(db: Conn): IdentityRepository {
  const repo: IdentityRepository = {
    ...buildRepository(db),
    transaction(work) {
      if (db.isTransaction) return work(repo, db as Transaction<Database>);
      return db.transaction().execute((trx) => work(createIdentityRepository(trx), trx));
    },
  };
  return repo;
}

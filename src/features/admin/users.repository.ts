import type { Db } from '../../db/index';
import { nowIso } from '../../db/index';

export interface NewUser {
  email: string;
  nome: string;
  senhaHash: string;
  papel: 'admin' | 'gerente';
  unidadeIds?: number[];
}

/** Staff accounts: the only place their SQL lives. E-mails are stored lower-case. */
export function createUsersRepository(db: Db) {
  return {
    findByEmail(email: string) {
      return db
        .selectFrom('usuarios')
        .select(['id', 'email', 'nome', 'senha_hash', 'papel', 'ativo'])
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
    },

    findById(id: number) {
      return db
        .selectFrom('usuarios')
        .select(['id', 'email', 'nome', 'papel', 'ativo'])
        .where('id', '=', id)
        .executeTakeFirst();
    },

    async create(user: NewUser): Promise<number> {
      const now = nowIso();
      return db.transaction().execute(async (trx) => {
        const row = await trx
          .insertInto('usuarios')
          .values({
            email: user.email.toLowerCase(),
            nome: user.nome,
            senha_hash: user.senhaHash,
            papel: user.papel,
            ativo: 1,
            criado_em: now,
            atualizado_em: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        if (user.unidadeIds?.length) {
          await trx
            .insertInto('usuarios_unidades')
            .values(user.unidadeIds.map((unidade_id) => ({ usuario_id: row.id, unidade_id })))
            .execute();
        }
        return row.id;
      });
    },

    async existingUnitIds(ids: number[]): Promise<number[]> {
      if (!ids.length) return [];
      const rows = await db.selectFrom('unidades').select('id').where('id', 'in', ids).execute();
      return rows.map((r) => r.id);
    },

    /** Sets a new password and re-enables the account. */
    async setPassword(email: string, senhaHash: string): Promise<boolean> {
      const res = await db
        .updateTable('usuarios')
        .set({ senha_hash: senhaHash, ativo: 1, atualizado_em: nowIso() })
        .where('email', '=', email.toLowerCase())
        .executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },

    /** Disables the account and ends its open sessions. */
    async disable(email: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const user = await trx.selectFrom('usuarios').select('id').where('email', '=', email.toLowerCase()).executeTakeFirst();
        if (!user) return false;
        await trx.updateTable('usuarios').set({ ativo: 0, atualizado_em: nowIso() }).where('id', '=', user.id).execute();
        // Session data is JSON text; the user id is stored as "userId":<n>.
        await trx.deleteFrom('sessoes').where('dados', 'like', `%"userId":${user.id},%`).execute();
        await trx.deleteFrom('sessoes').where('dados', 'like', `%"userId":${user.id}}%`).execute();
        return true;
      });
    },
  };
}
export type UsersRepository = ReturnType<typeof createUsersRepository>;

/** Failed-login bookkeeping (tentativas_login): keys "conta:<email>" and "ip:<address>". */
export function createLoginAttemptsRepository(db: Db) {
  return {
    /** Failures for each key since `sinceIso`, with the oldest one (for "try again at"). */
    async recent(keys: string[], sinceIso: string) {
      const rows = await db
        .selectFrom('tentativas_login')
        .select(['chave', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.min('criado_em').as('primeira')])
        .where('chave', 'in', keys)
        .where('criado_em', '>', sinceIso)
        .groupBy('chave')
        .execute();
      return rows.map((r) => ({ chave: r.chave, n: Number(r.n), primeira: String(r.primeira) }));
    },

    /** The failures inside the window for one key, oldest first. */
    async times(key: string, sinceIso: string): Promise<string[]> {
      const rows = await db
        .selectFrom('tentativas_login')
        .select('criado_em')
        .where('chave', '=', key)
        .where('criado_em', '>', sinceIso)
        .orderBy('criado_em')
        .execute();
      return rows.map((r) => r.criado_em);
    },

    async record(keys: string[], atIso: string): Promise<void> {
      await db
        .insertInto('tentativas_login')
        .values(keys.map((chave) => ({ chave, criado_em: atIso })))
        .execute();
    },

    async clear(key: string): Promise<void> {
      await db.deleteFrom('tentativas_login').where('chave', '=', key).execute();
    },

    async purgeBefore(iso: string): Promise<void> {
      await db.deleteFrom('tentativas_login').where('criado_em', '<=', iso).execute();
    },
  };
}

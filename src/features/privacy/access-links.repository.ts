// The SQL of the one-time e-mail links that open a short session: "Meus dados"
// (privacidade_acessos) and "Minha matrícula" (matriculas_acessos) keep them in tables of
// the same columns, used the same way.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

type AccessTable = 'privacidade_acessos' | 'matriculas_acessos';

export function createAccessLinks(db: Kysely<Database>, table: AccessTable) {
  /** A link or session is read for the e-mail it was sent to. */
  const emails = () => db.selectFrom(table).select(['id', 'email']);
  return {
    async insertLink(row: { email: string; tokenHash: string; now: string; expiresAt: string }) {
      await db
        .insertInto(table)
        .values({ email: row.email, token_hash: row.tokenHash, criado_em: row.now, expira_em: row.expiresAt })
        .execute();
    },

    findUsableLink(tokenHash: string, now: string) {
      return emails()
        .where('token_hash', '=', tokenHash)
        .where('usado_em', 'is', null)
        .where('expira_em', '>', now)
        .executeTakeFirst();
    },

    /**
     * Uses the link once and starts the session: only one of two concurrent openings wins
     * (the UPDATE's condition), the other finds the link used.
     */
    consumeLink(tokenHash: string, sessionHash: string, now: string, sessionExpiresAt: string) {
      return db
        .updateTable(table)
        .set({ usado_em: now, sessao_hash: sessionHash, sessao_expira_em: sessionExpiresAt })
        .where('token_hash', '=', tokenHash)
        .where('usado_em', 'is', null)
        .where('expira_em', '>', now)
        .returning(['id', 'email'])
        .executeTakeFirst();
    },

    findSession(sessionHash: string, now: string) {
      return emails().where('sessao_hash', '=', sessionHash).where('sessao_expira_em', '>', now).executeTakeFirst();
    },

    async endSession(sessionHash: string) {
      await db.deleteFrom(table).where('sessao_hash', '=', sessionHash).execute();
    },
  };
}

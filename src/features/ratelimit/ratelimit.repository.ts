// The only SQL of the rate limits: one counter row per key and fixed window.
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

export function createRateLimitRepository(db: Kysely<Database>) {
  return {
    /**
     * Adds one to the key's counter for the window and returns the new count, in one
     * atomic statement on both engines (INSERT … ON CONFLICT DO UPDATE … RETURNING):
     * instances counting at the same moment never lose an increment.
     */
    async hit(chave: string, janela: number, expiraEm: number): Promise<number> {
      const row = await db
        .insertInto('limites')
        .values({ chave, janela, expira_em: expiraEm, contagem: 1 })
        .onConflict((oc) => oc.columns(['chave', 'janela']).doUpdateSet({ contagem: sql<number>`limites.contagem + 1` }))
        .returning('contagem')
        .executeTakeFirstOrThrow();
      return Number(row.contagem);
    },

    /** Drops windows that ended before `nowMs`; returns how many. */
    async prune(nowMs: number): Promise<number> {
      const r = await db.deleteFrom('limites').where('expira_em', '<', nowMs).executeTakeFirst();
      return Number(r.numDeletedRows);
    },
  };
}
export type RateLimitRepository = ReturnType<typeof createRateLimitRepository>;

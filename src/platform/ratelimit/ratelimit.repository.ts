// The only SQL of the rate limits: one counter row per key and fixed window.
import { CompiledQuery, type Kysely } from 'kysely';
import { isPostgres } from '../../db/index';
import type { Database } from '../../db/types';

// Written out once instead of built per call: this runs on every limited request (a
// form POST), and building + compiling the query cost several times the statement itself.
const HIT_SQL = (p: (n: number) => string) =>
  `insert into limites (chave, janela, expira_em, contagem) values (${p(1)}, ${p(2)}, ${p(3)}, 1) ` +
  'on conflict (chave, janela) do update set contagem = limites.contagem + 1 returning contagem';

export function createRateLimitRepository(db: Kysely<Database>) {
  const hitSql = isPostgres(db) ? HIT_SQL((n) => `$${n}`) : HIT_SQL(() => '?');
  return {
    /**
     * Adds one to the key's counter for the window and returns the new count, in one
     * atomic statement on both engines (INSERT … ON CONFLICT DO UPDATE … RETURNING):
     * instances counting at the same moment never lose an increment.
     */
    async hit(chave: string, janela: number, expiraEm: number): Promise<number> {
      const result = await db.executeQuery<{ contagem: number | string }>(
        CompiledQuery.raw(hitSql, [chave, janela, expiraEm]),
      );
      const row = result.rows[0];
      if (!row) throw new Error('rate limit upsert returned no row');
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

// The one query /privacidade needs beyond the catalog: where active webhooks send data.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export function createProcessorsRepository(db: Kysely<Database>) {
  return {
    /** The addresses of the webhook endpoints switched on. */
    async activeWebhookUrls(): Promise<string[]> {
      const rows = await db.selectFrom('webhook_endpoints').select('url').where('ativo', '=', 1).execute();
      return rows.map((r) => r.url);
    },
  };
}
export type ProcessorsRepository = ReturnType<typeof createProcessorsRepository>;

// Frozen in time: the inbox export of one status reads its keyset batches (status, ids below the
// last one) along this index; with only (status, criado_em) each batch sorted every message of
// that status again. Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('fale_aqui_status_id_idx').on('fale_aqui').columns(['status', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('fale_aqui_status_id_idx').execute();
}

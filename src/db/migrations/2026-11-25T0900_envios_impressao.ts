// Frozen in time: the fingerprint of each stored public-form submission beside its envio_id
// (docs/decisions/183). A repeat is the same key AND the same content; a different content
// under a used key (a form restored by the back button) is a new submission. Rows stored
// before this change have none and count as repeats of whatever comes with their key, as
// they did. Imports nothing from the app; runs on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // SHA-256 (hex) of the normalised fields, and of the photos' bytes for a free message
  await db.schema.alterTable('envios').addColumn('impressao', 'varchar(64)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('envios').dropColumn('impressao').execute();
}

// Frozen in time: the inbox lists messages newest first (ties by id) for the whole chain; without
// this index each page sorted every message. Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('fale_aqui_lista_idx').on('fale_aqui').columns(['criado_em', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('fale_aqui_lista_idx').execute();
}

// Frozen in time: the channel each survey answer came through: site (default, and every
// answer before this change), cartaz (QR code on the printed poster) or quiosque (the
// reception tablet). Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('respostas_nps')
    .addColumn('origem', 'varchar(20)', (c) => c.notNull().defaultTo('site'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('respostas_nps').dropColumn('origem').execute();
}

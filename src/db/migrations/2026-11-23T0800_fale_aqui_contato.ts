// Frozen in time: how the sender of a free message may be answered. Both contacts are
// optional; aceite_contato records that the sender agreed to be contacted (the app
// requires it whenever a contact is given). Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('fale_aqui').addColumn('contato_email', 'varchar(254)').execute();
  await db.schema.alterTable('fale_aqui').addColumn('contato_telefone', 'varchar(20)').execute();
  await db.schema
    .alterTable('fale_aqui')
    .addColumn('aceite_contato', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('fale_aqui').dropColumn('aceite_contato').execute();
  await db.schema.alterTable('fale_aqui').dropColumn('contato_telefone').execute();
  await db.schema.alterTable('fale_aqui').dropColumn('contato_email').execute();
}

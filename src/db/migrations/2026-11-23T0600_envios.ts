// Frozen in time: one row per stored public-form submission that carried an envio_id
// (issue 10, docs/decisions/082). Imports nothing from the app; runs on both engines.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('envios')
    // which form: 'franquia', 'pesquisa', 'fale_aqui'
    .addColumn('formulario', 'varchar(20)', (c) => c.notNull())
    .addColumn('envio_id', 'varchar(64)', (c) => c.notNull())
    // the stored record (lead, response, message); the replayed answer is rebuilt from it
    .addColumn('registro_id', 'integer')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addPrimaryKeyConstraint('envios_pk', ['formulario', 'envio_id'])
    .execute();
  await db.schema.createIndex('envios_criado_idx').on('envios').column('criado_em').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('envios').ifExists().execute();
}

// Frozen in time: a detractor's answer leaves the staff's attention queue once someone
// has dealt with it (called the customer back, fixed the problem): who and when.
// Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('respostas_nps').addColumn('tratada_em', 'varchar(30)').execute();
  await db.schema
    .alterTable('respostas_nps')
    .addColumn('tratada_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('respostas_nps').dropColumn('tratada_por').execute();
  await db.schema.alterTable('respostas_nps').dropColumn('tratada_em').execute();
}

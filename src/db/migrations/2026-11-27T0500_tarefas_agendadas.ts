// Frozen in time: leases of the scheduled tasks that must run in one instance at a time
// (the scheduled backup). One row per task: when it is next due, and who holds it until
// when; a conditional UPDATE takes the lease, so two instances never both run the task.
// Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tarefas_agendadas')
    .addColumn('nome', 'varchar(60)', (c) => c.primaryKey())
    .addColumn('proxima_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('bloqueado_ate', 'varchar(30)')
    .addColumn('dono', 'varchar(120)')
    .addColumn('ultima_em', 'varchar(30)')
    .addColumn('ultimo_erro', 'text')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tarefas_agendadas').ifExists().execute();
}

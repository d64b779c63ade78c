// Frozen in time: the weekly digest mail. One row per account and week (the Monday, in
// São Paulo), written in the same transaction as the outbox row: the UNIQUE pair is what
// makes the digest go out exactly once even with several instances. Each account may
// switch it off. Imports nothing from the app.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable('resumos_semanais');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('usuario_id', 'integer', (c) => c.notNull().references('usuarios.id').onDelete('cascade'))
    // aaaa-mm-dd: Monday of the week the digest belongs to
    .addColumn('semana', 'varchar(10)', (c) => c.notNull())
    .addColumn('fila_email_id', 'integer')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('resumos_semanais_usuario_semana_uq', ['usuario_id', 'semana'])
    .execute();
  await db.schema
    .alterTable('usuarios')
    .addColumn('resumo_semanal', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('usuarios').dropColumn('resumo_semanal').execute();
  await db.schema.dropTable('resumos_semanais').ifExists().execute();
}

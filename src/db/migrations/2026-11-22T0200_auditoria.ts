// Frozen in time: the audit log of staff changes to the content (issue 5). Imports
// nothing from the app; runs on SQLite and PostgreSQL.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable('auditoria');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    // null: a change made outside the screens (catalog import on the command line)
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('acao', 'varchar(40)', (c) => c.notNull())
    .addColumn('entidade', 'varchar(40)', (c) => c.notNull())
    .addColumn('entidade_id', 'integer')
    .addColumn('antes', 'text')
    .addColumn('depois', 'text')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('auditoria_criado_idx').on('auditoria').columns(['criado_em', 'id']).execute();
  await db.schema.createIndex('auditoria_entidade_idx').on('auditoria').columns(['entidade', 'entidade_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('auditoria').ifExists().execute();
}

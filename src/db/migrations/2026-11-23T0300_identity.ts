// Frozen in time: staff sessions get a table of their own keyed by id with the account in a
// column (no more searching a JSON blob), and password-reset tokens (only their hash is
// stored). Imports nothing from the app; runs on SQLite and PostgreSQL. Sessions of the
// old table are dropped: staff log in again once after this migration.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.dropTable('sessoes').ifExists().execute();
  await db.schema
    .createTable('sessoes')
    // sha256 of the cookie's random value (base64url): a leaked table opens no session
    .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
    .addColumn('usuario_id', 'integer', (c) => c.notNull().references('usuarios.id').onDelete('cascade'))
    .addColumn('dados', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('visto_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('expira_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessoes_usuario_idx').on('sessoes').column('usuario_id').execute();
  await db.schema.createIndex('sessoes_expira_idx').on('sessoes').column('expira_em').execute();

  const table = db.schema.createTable('senha_redefinicoes');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('usuario_id', 'integer', (c) => c.notNull().references('usuarios.id').onDelete('cascade'))
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('expira_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('usado_em', 'varchar(30)')
    .execute();
  await db.schema.createIndex('senha_redefinicoes_usuario_idx').on('senha_redefinicoes').column('usuario_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('senha_redefinicoes').ifExists().execute();
  await db.schema.dropTable('sessoes').ifExists().execute();
  await db.schema
    .createTable('sessoes')
    .addColumn('sid', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('dados', 'text', (c) => c.notNull())
    .addColumn('expira_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessoes_expira_idx').on('sessoes').column('expira_em').execute();
}

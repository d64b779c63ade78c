// Frozen in time: uploaded files stored in the database (STORAGE_DRIVER=database), so
// every instance reads every file (issue 9, point 6). Imports nothing from the app; runs
// on SQLite (blob) and PostgreSQL (bytea).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('arquivos')
    // the storage key, e.g. "fale_aqui/2026/11/<32 hex>.jpg" (the same key the local driver uses as a path)
    .addColumn('chave', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('bytes', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addColumn('tipo', 'varchar(50)', (c) => c.notNull())
    .addColumn('tamanho', 'integer', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    // null while the file is temporary; set in the transaction that stores the row using it
    .addColumn('finalizado_em', 'varchar(30)')
    .execute();
  // the orphan sweep looks for old temporary rows and old final rows
  await db.schema.createIndex('arquivos_criado_idx').on('arquivos').columns(['criado_em']).execute();
  await db.schema.createIndex('arquivos_finalizado_idx').on('arquivos').columns(['finalizado_em']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('arquivos').ifExists().execute();
}

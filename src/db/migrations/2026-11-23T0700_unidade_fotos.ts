// Frozen in time: the photos of a unit (issue 12). Each row is one photo, stored as
// resized WebP and JPEG copies named by its content hash; `ordem` orders them (the first
// is the unit's cover). Imports nothing from the app; runs on SQLite and PostgreSQL.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable('unidade_fotos');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addColumn('ordem', 'integer', (c) => c.notNull().defaultTo(0))
    // the text read instead of the photo (screen readers, slow connections)
    .addColumn('alt', 'varchar(200)', (c) => c.notNull())
    // first 16 hex digits of the SHA-256 of the re-encoded photo: part of every file name and URL
    .addColumn('hash', 'varchar(64)', (c) => c.notNull())
    .addColumn('largura', 'integer', (c) => c.notNull())
    .addColumn('altura', 'integer', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('unidade_fotos_unidade_idx')
    .on('unidade_fotos')
    .columns(['unidade_id', 'ordem'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unidade_fotos').ifExists().execute();
}

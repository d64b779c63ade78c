// Frozen in time: the storage key of every file of a unit photo, one row per copy, so the
// orphan sweep can tell a unit photo's file from a leftover (docs/decisions/071, 150).
// Also the formats a photo has copies in (AVIF from now on). Existing photos get their keys
// here (WebP and JPEG at 480/960/1440, never wider than the photo, as they were stored),
// so the sweep never removes a file in use.
// Imports nothing from the app; runs on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

const WIDTHS = [480, 960, 1440];
const FORMATS = ['webp', 'jpg'];

export async function up(db: Kysely<any>): Promise<void> {
  // the formats a photo has copies in: new photos add AVIF; those stored before have WebP and JPEG only
  await db.schema
    .alterTable('unidade_fotos')
    .addColumn('formatos', 'varchar(30)', (c) => c.notNull().defaultTo('webp,jpg'))
    .execute();
  await db.schema
    .createTable('unidade_fotos_arquivos')
    // the storage key, e.g. "unidade_fotos/3/<16 hex>-960.webp" (arquivos.chave, or a path under UPLOADS_DIR)
    .addColumn('chave', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('foto_id', 'integer', (c) => c.notNull().references('unidade_fotos.id').onDelete('cascade'))
    .execute();
  await db.schema
    .createIndex('unidade_fotos_arquivos_foto_idx')
    .on('unidade_fotos_arquivos')
    .columns(['foto_id'])
    .execute();

  const photos: { id: number; unidade_id: number; hash: string; largura: number }[] = await db
    .selectFrom('unidade_fotos')
    .select(['id', 'unidade_id', 'hash', 'largura'])
    .execute();
  const rows = photos.flatMap((p) =>
    [...new Set(WIDTHS.map((w) => Math.min(w, p.largura)))].flatMap((w) =>
      FORMATS.map((f) => ({ chave: `unidade_fotos/${p.unidade_id}/${p.hash}-${w}.${f}`, foto_id: p.id })),
    ),
  );
  for (let i = 0; i < rows.length; i += 200)
    await db
      .insertInto('unidade_fotos_arquivos')
      .values(rows.slice(i, i + 200))
      .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('unidade_fotos_arquivos').ifExists().execute();
  await db.schema.alterTable('unidade_fotos').dropColumn('formatos').execute();
}

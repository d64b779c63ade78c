// Unit photos follow "nothing left behind" (docs/decisions/071, 150): every copy's key is
// recorded in unidade_fotos_arquivos with the row, so the orphan sweep removes the files a
// crash leaves — between removing a photo's row and its files, between making the files
// final and the commit, before the commit (temporary) — and never a copy in use. Both
// drivers on the engine under test; the migration records the keys of existing photos.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMigrator, migrateToLatest, nowIso } from '../../src/db/index';
import { seedDemo } from '../../src/db/seeds/demo';
import {
  createDatabaseStorage,
  createLocalStorage,
  sweepOrphans,
  type FileStorage,
} from '../../src/platform/storage/index';
import { storeUnitPhoto } from '../../src/features/unit-photos/photos.pipeline';
import { createPhotosRepository } from '../../src/features/unit-photos/photos.repository';
import { createTestDb, type TestDb } from '../helpers/db';

let testDb: TestDb;
const root = mkdtempSync(path.join(os.tmpdir(), 'gym-unit-photo-sweep-'));
let units: number[];
beforeAll(async () => {
  testDb = await createTestDb();
  await seedDemo(testDb.handle.db);
  units = (await testDb.handle.db.selectFrom('unidades').select('id').orderBy('id').execute()).map((u) => u.id);
});
afterAll(async () => {
  await testDb?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const AGE = 120_000;
/** a sweep run as if the age had passed for everything stored so far */
const sweep = (storage: FileStorage) =>
  sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, now: new Date(Date.now() + AGE + 60_000) });

let hue = 0;
const picture = () =>
  sharp({ create: { width: 1000, height: 700, channels: 3, background: { r: (hue += 37) % 256, g: 90, b: 160 } } })
    .jpeg()
    .toBuffer();

/** What the storage has in the final state, among `keys`. */
async function present(storage: FileStorage, keys: string[]): Promise<string[]> {
  const found: string[] = [];
  for (const k of keys) if (await storage.get(k)) found.push(k);
  return found;
}

/** A photo stored as the service stores it: row, key rows and files final in one transaction. */
async function committedPhoto(storage: FileStorage, unitId: number) {
  const stored = await storeUnitPhoto(storage, unitId, await picture());
  const id = await testDb.handle.db.transaction().execute(async (trx) => {
    const repo = createPhotosRepository(trx);
    const photoId = await repo.insert(
      {
        unidade_id: unitId,
        ordem: 1,
        alt: 'Sala ampla',
        hash: stored.hash,
        largura: stored.largura,
        altura: stored.altura,
        formatos: stored.formatos,
      },
      nowIso(),
    );
    await repo.insertFiles(photoId, stored.keys);
    await storage.commit(trx, stored.keys);
    return photoId;
  });
  return { id, keys: stored.keys };
}

describe.each([
  ['local', () => createLocalStorage(path.join(root, 'local'))],
  ['database', () => createDatabaseStorage(testDb.handle.db)],
] as [string, () => FileStorage][])('%s driver', (_driver, make) => {
  it(`the sweep removes the copies of a removed photo, of an uncommitted upload and of a deleted unit, and keeps the \
photos in use`, async () => {
    const storage = make();
    const [unitA, unitB] = _driver === 'local' ? [units[0]!, units[1]!] : [units[2]!, units[3]!];
    const kept = await committedPhoto(storage, unitA);
    expect(kept.keys).toHaveLength(9); // AVIF, WebP and JPEG at 480/960/1000
    expect((await createPhotosRepository(testDb.handle.db).fileKeys(kept.id)).sort()).toEqual([...kept.keys].sort());

    // 1. crash between the commit that removed the photo's row and the removal of its files
    const removed = await committedPhoto(storage, unitA);
    await testDb.handle.db.transaction().execute((trx) => createPhotosRepository(trx).delete(removed.id));

    // 2. crash after the files were made final but before the row was committed
    //    (the local driver renames inside the transaction, just before its commit)
    const unborn = await storeUnitPhoto(storage, unitA, await picture());
    await testDb.handle.db
      .transaction()
      .execute(async (trx) => {
        await storage.commit(trx, unborn.keys);
        throw new Error('crash before the commit');
      })
      .catch(() => {});

    // 3. crash after the copies were stored, before the transaction
    const temporary = await storeUnitPhoto(storage, unitA, await picture());

    // 4. a unit deleted with its photos (the rows go by cascade, the files stay behind)
    const ofDeletedUnit = await committedPhoto(storage, unitB);
    await testDb.handle.db.deleteFrom('unidade_fotos').where('unidade_id', '=', unitB).execute();

    expect(await present(storage, removed.keys)).toHaveLength(9);
    expect(await present(storage, ofDeletedUnit.keys)).toHaveLength(9);

    // A sweep before the age has passed removes nothing final.
    await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE });
    expect(await present(storage, removed.keys)).toHaveLength(9);

    const result = await sweep(storage);
    expect(result.unreferenced).toBeGreaterThanOrEqual(9 + 9 + (_driver === 'local' ? 9 : 0));
    expect(await present(storage, removed.keys)).toEqual([]);
    expect(await present(storage, ofDeletedUnit.keys)).toEqual([]);
    expect(await present(storage, unborn.keys)).toEqual([]);
    // temporary copies are gone too: committing them now fails
    await expect(
      testDb.handle.db.transaction().execute((trx) => storage.commit(trx, temporary.keys)),
    ).rejects.toThrow();
    // the photo in use keeps every copy
    expect((await present(storage, kept.keys)).sort()).toEqual([...kept.keys].sort());
    await testDb.handle.db.deleteFrom('unidade_fotos').where('id', '=', kept.id).execute();
  });
});

it('the migration records the keys of the photos stored before it, so the sweep keeps them', async () => {
  const db = testDb.handle.db;
  const schema = testDb.config.engine === 'postgres' ? testDb.config.schema : undefined;
  const storage = createLocalStorage(path.join(root, 'before'));
  const unitId = units[4]!;
  // back to the schema before the key table, and a photo stored as it was then (row + files)
  expect((await createMigrator(db, schema).migrateTo('2026-11-23T0900_aulas_experimentais')).error).toBeUndefined();
  const all = await storeUnitPhoto(storage, unitId, await picture());
  // as stored then: WebP and JPEG only (the AVIF copies came with this migration)
  await Promise.all(all.keys.filter((k) => k.endsWith('.avif')).map((k) => storage.delete(k)));
  const stored = { ...all, keys: all.keys.filter((k) => !k.endsWith('.avif')) };
  const photoId = await db.transaction().execute(async (trx) => {
    const now = nowIso();
    const { id } = await trx
      .insertInto('unidade_fotos')
      .values({
        unidade_id: unitId,
        ordem: 1,
        alt: 'Antiga',
        hash: stored.hash,
        largura: stored.largura,
        altura: stored.altura,
        criado_em: now,
        atualizado_em: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await storage.commit(trx, stored.keys);
    return id;
  });
  await migrateToLatest(db, schema);
  const recorded = (
    await db.selectFrom('unidade_fotos_arquivos').select('chave').where('foto_id', '=', photoId).execute()
  )
    .map((r) => r.chave)
    .sort();
  expect(recorded).toEqual([...stored.keys].sort());
  expect(recorded).toHaveLength(6);
  const row = await db
    .selectFrom('unidade_fotos')
    .select('formatos')
    .where('id', '=', photoId)
    .executeTakeFirstOrThrow();
  expect(row.formatos).toBe('webp,jpg');
  await sweep(storage);
  expect((await present(storage, stored.keys)).sort()).toEqual([...stored.keys].sort());
});

// The storage interface with both drivers on the engine under test (the database driver
// runs on SQLite too), and the orphan sweep: temporary files, final files no row
// references, spool files — removed once older than the sweep age, never before, and
// never a referenced file.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, nowIso } from '../../src/db/index';
import {
  createDatabaseStorage,
  createLocalStorage,
  createSpool,
  sweepOrphans,
  UnsafePathError,
  type FileStorage,
} from '../../src/platform/storage/index';
import { sanitizeOriginalName, sniffImageFormat } from '../../src/platform/storage/images';
import { createTestDb, TEST_ENGINE, type TestDb } from '../helpers/db';

let testDb: TestDb;
let otherHandle: ReturnType<typeof createDb>;
const root = mkdtempSync(path.join(os.tmpdir(), 'gym-storage-'));
beforeAll(async () => {
  testDb = await createTestDb();
  // a second connection pool: another instance on the same database
  otherHandle = createDb(testDb.config);
});
afterAll(async () => {
  await otherHandle?.destroy();
  await testDb?.cleanup();
  rmSync(root, { recursive: true, force: true });
});

const AGE = 120_000;
const later = () => new Date(Date.now() + AGE + 60_000);

async function bytesOf(storage: FileStorage, key: string): Promise<string | null> {
  const file = await storage.get(key);
  if (!file) return null;
  const chunks: Buffer[] = [];
  for await (const c of file.open()) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString();
}

/** A free message with one photo row pointing at `key` (what makes a final file referenced). */
async function referencingRow(key: string) {
  const db = testDb.handle.db;
  const now = nowIso();
  const { id } = await db
    .insertInto('fale_aqui')
    .values({
      unidade_id: null,
      unidade: 'U',
      nome_completo: 'N',
      anonimo: 0,
      mensagem: 'M',
      status: 'novo',
      criado_em: now,
      atualizado_em: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('fale_aqui_arquivos')
    .values({
      fale_aqui_id: id,
      caminho: key,
      nome_original: null,
      tipo: 'image/png',
      tamanho: 1,
      largura: 1,
      altura: 1,
      sha256: 'x',
      criado_em: now,
    })
    .execute();
}

const drivers: [string, () => FileStorage][] = [
  ['local', () => createLocalStorage(path.join(root, 'local'))],
  ['database', () => createDatabaseStorage(testDb.handle.db)],
];

describe.each(drivers)('%s driver', (driver, make) => {
  let storage: FileStorage;
  beforeAll(() => {
    storage = make();
  });
  const key = (name: string) => `fale_aqui/2026/11/${driver}${name}.png`;

  it('refuses keys that are not plain relative paths', async () => {
    for (const bad of [
      '../x.jpg',
      '/etc/passwd',
      'a/../../b.jpg',
      'fale_aqui/../../x.png',
      'a\\b.jpg',
      'a/b',
      '',
      'a//b.jpg',
      'a/.b.jpg',
      `a/${'x'.repeat(260)}.jpg`,
    ]) {
      await expect(storage.put(bad, Buffer.from('x'), 'image/png'), bad).rejects.toThrow(UnsafePathError);
      await expect(storage.get(bad), bad).rejects.toThrow(UnsafePathError);
    }
  });

  it(`put is temporary (not readable) until commit runs in the transaction of the row; delete is \
idempotent`, async () => {
    await storage.put(key('a1'), Buffer.from('conteudo'), 'image/png');
    expect(await storage.get(key('a1'))).toBeNull();
    await testDb.handle.db.transaction().execute((trx) => storage.commit(trx, [key('a1')]));
    expect(await bytesOf(storage, key('a1'))).toBe('conteudo');
    expect((await storage.get(key('a1')))!.size).toBe(8);
    await storage.delete(key('a1'));
    await storage.delete(key('a1'));
    expect(await storage.get(key('a1'))).toBeNull();
  });

  it('a commit of a file that is gone throws (and so rolls the transaction back)', async () => {
    await expect(
      testDb.handle.db.transaction().execute((trx) => storage.commit(trx, [key('nunca')])),
    ).rejects.toThrow();
  });

  it(`a rolled-back transaction leaves the file temporary (database) or final without a row (local): the sweep takes \
both`, async () => {
    await storage.put(key('rb'), Buffer.from('x'), 'image/png');
    await expect(
      testDb.handle.db.transaction().execute(async (trx) => {
        await storage.commit(trx, [key('rb')]);
        throw new Error('falha depois do commit do arquivo');
      }),
    ).rejects.toThrow('falha');
    const result = await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, now: later() });
    expect(result.temporary + result.unreferenced).toBeGreaterThanOrEqual(1);
    expect(await storage.get(key('rb'))).toBeNull();
    expect([...(await listAll(storage))].filter((c) => c.includes('rb'))).toEqual([]);
  });

  it('the sweep removes old temporary and unreferenced files, keeps referenced and recent ones', async () => {
    await storage.put(key('tmp-old'), Buffer.from('t'), 'image/png');
    await storage.put(key('final-orphan'), Buffer.from('o'), 'image/png');
    await storage.put(key('final-used'), Buffer.from('u'), 'image/png');
    await testDb.handle.db
      .transaction()
      .execute((trx) => storage.commit(trx, [key('final-orphan'), key('final-used')]));
    await referencingRow(key('final-used'));

    // nothing is old yet: a sweep now removes nothing
    expect(await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE })).toMatchObject({
      temporary: 0,
      unreferenced: 0,
    });
    expect(await bytesOf(storage, key('final-orphan'))).toBe('o');

    const result = await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, now: later() });
    expect(result).toMatchObject({ temporary: 1, unreferenced: 1 });
    expect(await storage.get(key('final-orphan'))).toBeNull();
    expect(await bytesOf(storage, key('final-used'))).toBe('u');
    const left = await listAll(storage);
    expect(left.some((k) => k.includes('tmp-old'))).toBe(false);
    // a second sweep (another instance) finds nothing more and does not fail
    expect(await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, now: later() })).toMatchObject({
      temporary: 0,
      unreferenced: 0,
    });
    expect(await bytesOf(storage, key('final-used'))).toBe('u');
  });

  it('two sweeps at once (two instances) remove each orphan once, without errors', async () => {
    for (let i = 0; i < 20; i++) await storage.put(key(`par${i}`), Buffer.from('p'), 'image/png');
    const [a, b] = await Promise.all([
      sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, now: later() }),
      sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, now: later() }),
    ]);
    expect(a.temporary + b.temporary).toBeGreaterThanOrEqual(20);
    expect((await listAll(storage)).some((k) => k.includes('par'))).toBe(false);
  });
});

describe('database driver: a sweep racing a commit', () => {
  it('never removes a file that a transaction is making final, even if its upload is older than the age', async () => {
    const storage = createDatabaseStorage(testDb.handle.db);
    const key = 'fale_aqui/2026/11/corrida0000000000000000000000001.png';
    await storage.put(key, Buffer.from('c'), 'image/png');
    // the upload was slow: its temporary row is already older than the sweep age
    await testDb.handle.db
      .updateTable('arquivos')
      .set({ criado_em: nowIso(new Date(Date.now() - AGE - 60_000)) })
      .where('chave', '=', key)
      .execute();

    let release!: () => void;
    const hold = new Promise<void>((r) => (release = r));
    let sweep: Promise<unknown> | null = null;
    const committed = testDb.handle.db.transaction().execute(async (trx) => {
      await storage.commit(trx, [key]);
      const now = nowIso();
      const { id } = await trx
        .insertInto('fale_aqui')
        .values({
          unidade_id: null,
          unidade: 'U',
          nome_completo: 'N',
          anonimo: 0,
          mensagem: 'M',
          status: 'novo',
          criado_em: now,
          atualizado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('fale_aqui_arquivos')
        .values({
          fale_aqui_id: id,
          caminho: key,
          nome_original: null,
          tipo: 'image/png',
          tamanho: 1,
          largura: 1,
          altura: 1,
          sha256: 'x',
          criado_em: now,
        })
        .execute();
      // another instance sweeps while this transaction is still open (on SQLite the same
      // handle: better-sqlite3 waits for a lock synchronously, so a second handle in this
      // one process would block the transaction it waits for; instances are processes)
      const sweeper = TEST_ENGINE === 'postgres' ? otherHandle : testDb.handle;
      sweep = sweepOrphans(createDatabaseStorage(sweeper.db), sweeper.db, { ageMs: AGE });
      await Promise.race([hold, new Promise((r) => setTimeout(r, 300))]);
    });
    await committed;
    release();
    await sweep;
    expect(await bytesOf(storage, key)).toBe('c');
  });
});

async function listAll(storage: FileStorage): Promise<string[]> {
  const out: string[] = [];
  for await (const c of storage.listForSweep(new Date(Date.now() + 10 * 365 * 86_400_000), [
    { prefix: '', table: 'fale_aqui_arquivos', column: 'caminho' },
  ]))
    out.push(c.key);
  if (storage.driver === 'database') {
    const rows = await testDb.handle.db.selectFrom('arquivos').select('chave').execute();
    out.push(...rows.map((r) => r.chave));
  }
  return out;
}

describe('local driver details', () => {
  const dir = path.join(root, 'detalhes');
  const storage = createLocalStorage(dir);

  it('writes the temporary file next to the final name and renames it on commit', async () => {
    await storage.put('fale_aqui/2026/11/aa11.png', Buffer.from('conteudo'), 'image/png');
    expect(readdirSync(path.join(dir, 'fale_aqui/2026/11'))).toEqual(['aa11.png.tmp']);
    await testDb.handle.db.transaction().execute((trx) => storage.commit(trx, ['fale_aqui/2026/11/aa11.png']));
    expect(readdirSync(path.join(dir, 'fale_aqui/2026/11'))).toEqual(['aa11.png']);
  });

  it('leaves no temporary file when the write fails', async () => {
    writeFileSync(path.join(dir, 'bloqueado'), 'x'); // a file where a folder should be
    await expect(storage.put('bloqueado/2026/f.jpg', Buffer.from('x'), 'image/jpeg')).rejects.toThrow();
  });

  it('never touches files outside the registered prefixes, and sweeps stray "*.tmp" of older versions', async () => {
    mkdirSync(path.join(dir, 'outra_coisa'), { recursive: true });
    writeFileSync(path.join(dir, 'outra_coisa/arquivo.png'), 'x');
    mkdirSync(path.join(dir, 'fale_aqui/2026/10'), { recursive: true });
    writeFileSync(path.join(dir, 'fale_aqui/2026/10/abc.jpg.1a2b3c.tmp'), 'x');
    const old = new Date(Date.now() - AGE - 60_000);
    utimesSync(path.join(dir, 'outra_coisa/arquivo.png'), old, old);
    utimesSync(path.join(dir, 'fale_aqui/2026/10/abc.jpg.1a2b3c.tmp'), old, old);
    await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE });
    expect(readdirSync(path.join(dir, 'outra_coisa'))).toEqual(['arquivo.png']);
    expect(readdirSync(path.join(dir, 'fale_aqui/2026/10'))).toEqual([]);
  });
});

describe('spool (files being received)', () => {
  it('is swept once older than the age, recent spool files stay', async () => {
    const spool = createSpool(path.join(root, 'spool-test'));
    const a = await spool.create();
    a.stream.end('x');
    await new Promise<void>((r) => a.stream.once('close', () => r()));
    const old = new Date(Date.now() - AGE - 1000);
    utimesSync(a.path, old, old);
    const b = await spool.create();
    b.stream.end('y');
    await new Promise<void>((r) => b.stream.once('close', () => r()));
    const storage = createLocalStorage(path.join(root, 'spool-test'));
    const result = await sweepOrphans(storage, testDb.handle.db, { ageMs: AGE, spool });
    expect(result.spool).toBe(1);
    expect(readdirSync(spool.dir)).toEqual([path.basename(b.path)]);
  });
});

describe('image helpers', () => {
  it('sniffs formats by their first bytes only', () => {
    expect(sniffImageFormat(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImageFormat(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffImageFormat(Buffer.from('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffImageFormat(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(sniffImageFormat(Buffer.from('GIF89a'))).toBeNull();
  });

  it('keeps the client filename only as a bounded, printable label', () => {
    expect(sanitizeOriginalName('C:\\Users\\ana\\foto.jpg')).toBe('foto.jpg');
    expect(sanitizeOriginalName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeOriginalName('a\u202egpj.exe')).toBe('agpj.exe');
    expect(sanitizeOriginalName('linha\r\nquebrada.png')).toBe('linhaquebrada.png');
    expect(sanitizeOriginalName('')).toBeNull();
    expect(sanitizeOriginalName('..')).toBeNull();
    expect([...(sanitizeOriginalName('é'.repeat(300)) ?? '')]).toHaveLength(255);
  });
});

describe('settings', () => {
  it(`STORAGE_DRIVER: local on SQLite, database on PostgreSQL unless set; a bad value stops start-up with a pt-BR \
message`, async () => {
    const { ConfigError, loadConfig } = await import('../../src/config');
    expect(loadConfig({}).storage).toEqual({ driver: 'local', sweepIntervalMs: 120_000, sweepAgeMs: 120_000 });
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).storage.driver).toBe('database');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db', STORAGE_DRIVER: 'local' }).storage.driver).toBe('local');
    expect(loadConfig({ STORAGE_DRIVER: 'database' }).storage.driver).toBe('database');
    expect(loadConfig({ STORAGE_SWEEP_INTERVAL_SECONDS: '5', STORAGE_SWEEP_AGE_SECONDS: '7' }).storage).toMatchObject({
      sweepIntervalMs: 5000,
      sweepAgeMs: 7000,
    });
    try {
      loadConfig({ STORAGE_DRIVER: 'postgres', STORAGE_SWEEP_AGE_SECONDS: '0' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as InstanceType<typeof ConfigError>).problems.join('\n');
      expect(problems).toMatch(/STORAGE_SWEEP_AGE_SECONDS/);
    }
    expect(() => loadConfig({ STORAGE_DRIVER: 'postgres' })).toThrow(/STORAGE_DRIVER: use "local" .* ou "database"/);
  });
});

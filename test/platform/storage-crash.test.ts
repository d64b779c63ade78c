// kill -9 of the built server while photos are being uploaded, then a restart: within the
// sweep window nothing orphan is left — no spool file of a half-received upload, no
// temporary file, no final file without a row — and every stored message keeps its photo.
// The sweep age/interval are shortened through their settings.
// On SQLite the server uses the local driver, on PostgreSQL the database driver (the defaults).
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseConfig } from '../../src/config';
import { createDb, migrateToLatest, nowIso, type DbHandle } from '../../src/db/index';
import { TEST_ENGINE, TEST_PG_URL } from '../helpers/db';
import { multipartBody } from '../helpers/upload';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-crash-'));
const uploadsDir = path.join(dir, 'uploads');
const schema = `t_crash_${process.pid}_${randomBytes(3).toString('hex')}`;
let databaseUrl: string;
let dbConfig: DatabaseConfig;
let handle: DbHandle;
const children: ChildProcess[] = [];

beforeAll(async () => {
  if (!existsSync('dist/server.js')) throw new Error('run `npm run build` first (npm test does)');
  if (TEST_ENGINE === 'postgres') {
    const c = new pg.Client({ connectionString: TEST_PG_URL });
    await c.connect();
    await c.query(`create schema "${schema}"`);
    await c.end();
    databaseUrl = `${TEST_PG_URL}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
    dbConfig = { engine: 'postgres', connectionString: TEST_PG_URL, schema };
    // Migrated here with the schema named: the server's own migrator (no schema setting)
    // could otherwise take another test schema's bookkeeping table for its own.
    const pre = createDb(dbConfig);
    await migrateToLatest(pre.db, schema);
    await pre.destroy();
  } else {
    databaseUrl = `sqlite:${path.join(dir, 'db.sqlite')}`;
    dbConfig = { engine: 'sqlite', filename: path.join(dir, 'db.sqlite') };
  }
});

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await handle?.destroy();
  if (TEST_ENGINE === 'postgres') {
    const c = new pg.Client({ connectionString: TEST_PG_URL });
    await c.connect();
    await c.query(`drop schema if exists "${schema}" cascade`);
    await c.end();
  }
  rmSync(dir, { recursive: true, force: true });
});

async function startServer(): Promise<{ child: ChildProcess; base: string }> {
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'development',
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      UPLOADS_DIR: uploadsDir,
      MAIL_WORKER: 'false',
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'loopback',
      STORAGE_SWEEP_AGE_SECONDS: '2',
      STORAGE_SWEEP_INTERVAL_SECONDS: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const port = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /Server listening at http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${out}`)));
  });
  return { child, base: `http://127.0.0.1:${port}` };
}

let address = 0;
async function formSession(base: string) {
  const page = await fetch(`${base}/NPS/nps_app_php/fale_aqui.php`);
  const html = await page.text();
  const token = /name="_token" value="([^"]+)"/.exec(html)![1]!;
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { token, cookie };
}

/** Everything stored, in any state: files under UPLOADS_DIR and rows of `arquivos`. */
async function everything(): Promise<{ files: string[]; rows: { chave: string; final: boolean }[] }> {
  const files: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      let info;
      try {
        info = statSync(full); // a spool file may go between readdir and stat
      } catch {
        continue;
      }
      if (info.isDirectory()) walk(full);
      else files.push(path.relative(uploadsDir, full).split(path.sep).join('/'));
    }
  };
  walk(uploadsDir);
  const rows = (await handle.db.selectFrom('arquivos').select(['chave', 'finalizado_em']).execute()).map((r) => ({
    chave: r.chave,
    final: r.finalizado_em !== null,
  }));
  // The demo seed's unit photos (drawn in the background after start-up) are checked apart (unitPhotos).
  const ours = (key: string) => !key.startsWith('unidade_fotos/');
  return { files: files.filter(ours).sort(), rows: rows.filter((r) => ours(r.chave)) };
}

/** Unit photos (the demo seed's, drawn in the background, maybe cut by the kill): stored vs recorded keys. */
async function unitPhotos(): Promise<{ stored: string[]; recorded: string[] }> {
  const stored: string[] = [];
  const walk = (d: string) => {
    if (!existsSync(d)) return;
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full, { throwIfNoEntry: false })?.isDirectory()) walk(full);
      else stored.push(path.relative(uploadsDir, full).split(path.sep).join('/'));
    }
  };
  walk(path.join(uploadsDir, 'unidade_fotos'));
  for (const r of await handle.db
    .selectFrom('arquivos')
    .select('chave')
    .where('chave', 'like', 'unidade_fotos/%')
    .execute())
    stored.push(r.chave);
  const recorded = (await handle.db.selectFrom('unidade_fotos_arquivos').select('chave').execute()).map((r) => r.chave);
  return { stored: stored.sort(), recorded: recorded.sort() };
}

async function referenced(): Promise<string[]> {
  return (await handle.db.selectFrom('fale_aqui_arquivos').select('caminho').orderBy('caminho').execute()).map(
    (r) => r.caminho,
  );
}

it('after a kill -9 during uploads and a restart, the sweep leaves exactly the files rows reference', {
  timeout: 90_000,
}, async () => {
  let server = await startServer();
  handle = createDb(dbConfig);
  const driver = TEST_ENGINE === 'postgres' ? 'database' : 'local';
  const unit = await handle.db
    .selectFrom('unidades')
    .select('id')
    .where('ativo', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  const { token, cookie } = await formSession(server.base);
  const fields = { _token: token, unidade_id: String(unit.id), unidade: '', mensagem: 'Foto do aparelho' };
  const small = await sharp({ create: { width: 320, height: 240, channels: 3, background: '#4070a0' } })
    .jpeg()
    .toBuffer();
  const big = await sharp({
    create: {
      width: 1200,
      height: 900,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 120, sigma: 60 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();

  // 1. Three messages stored before the crash: their photos must survive everything.
  for (let i = 0; i < 3; i++) {
    const body = await multipartBody(fields, [{ name: `ok-${i}.jpg`, type: 'image/jpeg', data: small }]);
    const res = await fetch(`${server.base}/NPS/nps_app_php/salvar_fale_aqui.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': body.contentType, 'x-forwarded-for': `10.5.0.${++address}` },
      body: body.payload,
    });
    expect(res.status).toBe(303);
  }
  const kept = await referenced();
  expect(kept).toHaveLength(3);

  // 2. Uploads in flight at the moment of the crash: four half-sent bodies (their photos
  //    are being spooled) and four complete ones racing the kill.
  const body = await multipartBody(fields, [{ name: 'grande.jpg', type: 'image/jpeg', data: big }]);
  const port = Number(new URL(server.base).port);
  const open: http.ClientRequest[] = [];
  for (let i = 0; i < 4; i++) {
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path: '/NPS/nps_app_php/salvar_fale_aqui.php',
      headers: {
        cookie,
        'content-type': body.contentType,
        'content-length': String(body.payload.length),
        'x-forwarded-for': `10.5.1.${++address}`,
      },
    });
    req.on('error', () => {});
    req.write(body.payload.subarray(0, Math.floor(body.payload.length * 0.7)));
    open.push(req);
  }
  for (let i = 0; i < 4; i++) {
    fetch(`${server.base}/NPS/nps_app_php/salvar_fale_aqui.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': body.contentType, 'x-forwarded-for': `10.5.2.${++address}` },
      body: body.payload,
    }).catch(() => {});
  }
  // wait until the half-sent photos are on disk in the spool
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && (await everything()).files.filter((f) => f.startsWith('.spool/')).length < 4)
    await new Promise((r) => setTimeout(r, 50));
  expect((await everything()).files.filter((f) => f.startsWith('.spool/')).length).toBeGreaterThanOrEqual(4);

  server.child.kill('SIGKILL');
  await new Promise((r) => server.child.once('exit', r));
  for (const req of open) req.destroy();

  // 3. The other two leftovers a crash can make, placed deterministically (the race above
  //    may or may not produce them): a temporary file (stored, crash before the commit) and
  //    a final file without a row (local driver: renamed, crash before the transaction committed).
  //    The same for a unit photo's copy: a removed photo whose files stayed (crash between
  //    the commit and the file removal) looks exactly like this final file without a row.
  const temporaryKey = `fale_aqui/2026/11/${randomBytes(16).toString('hex')}.jpg`;
  const orphanKey = `fale_aqui/2026/11/${randomBytes(16).toString('hex')}.jpg`;
  const unitPhotoOrphan = `unidade_fotos/${unit.id}/${randomBytes(8).toString('hex')}-480.webp`;
  if (driver === 'local') {
    mkdirSync(path.join(uploadsDir, 'fale_aqui/2026/11'), { recursive: true });
    mkdirSync(path.join(uploadsDir, `unidade_fotos/${unit.id}`), { recursive: true });
    writeFileSync(path.join(uploadsDir, `${temporaryKey}.tmp`), small);
    writeFileSync(path.join(uploadsDir, orphanKey), small);
    writeFileSync(path.join(uploadsDir, unitPhotoOrphan), small);
  } else {
    const now = nowIso();
    await handle.db
      .insertInto('arquivos')
      .values({
        chave: temporaryKey,
        bytes: small,
        tipo: 'image/jpeg',
        tamanho: small.length,
        criado_em: now,
        finalizado_em: null,
      })
      .execute();
    await handle.db
      .insertInto('arquivos')
      .values({
        chave: orphanKey,
        bytes: small,
        tipo: 'image/jpeg',
        tamanho: small.length,
        criado_em: now,
        finalizado_em: now,
      })
      .execute();
    await handle.db
      .insertInto('arquivos')
      .values({
        chave: unitPhotoOrphan,
        bytes: small,
        tipo: 'image/webp',
        tamanho: small.length,
        criado_em: now,
        finalizado_em: now,
      })
      .execute();
  }
  expect((await unitPhotos()).stored).toContain(unitPhotoOrphan);

  const finalKeys = await referenced();
  const before = await everything();
  const expectedFiles = driver === 'local' ? finalKeys : [];
  const expectedRows = driver === 'database' ? finalKeys : [];
  // there is something to clean up
  expect(before.files.length + before.rows.length).toBeGreaterThan(expectedFiles.length + expectedRows.length);

  // 4. Restart: within the sweep window (age 2 s, every 1 s) only referenced files remain.
  server = await startServer();
  const started = Date.now();
  let after = await everything();
  let photos = await unitPhotos();
  while (Date.now() - started < 40_000) {
    after = await everything();
    photos = await unitPhotos();
    const rowsLeft = after.rows.map((r) => r.chave).sort();
    if (
      JSON.stringify(after.files) === JSON.stringify(expectedFiles) &&
      JSON.stringify(rowsLeft) === JSON.stringify(expectedRows) &&
      JSON.stringify(photos.stored) === JSON.stringify(photos.recorded)
    )
      break;
    await new Promise((r) => setTimeout(r, 200));
  }
  // unit photos: exactly the recorded copies remain (the demo seed finishes after the restart)
  expect(photos.stored).toEqual(photos.recorded);
  expect(photos.stored).not.toContain(unitPhotoOrphan);
  expect(after.files).toEqual(expectedFiles);
  expect(after.rows.map((r) => r.chave).sort()).toEqual(expectedRows);
  expect(after.rows.every((r) => r.final)).toBe(true);
  for (const k of kept) expect(finalKeys).toContain(k);

  // the photos stored before the crash are still readable by staff after the restart
  const stored = await handle.db.selectFrom('fale_aqui_arquivos').select(['id', 'caminho']).execute();
  expect(stored.length).toBe(finalKeys.length);

  server.child.kill('SIGTERM');
  await new Promise((r) => server.child.once('exit', r));
});

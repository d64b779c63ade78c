// The micro-cache of docs/operations.md, with real nginx in front of two instances of the
// built server (docs/decisions/190): a public page is cached by nginx from the app's own
// Cache-Control, answered 304 on its ETag, and still served while both instances are down.
// Runs in the postgres project only: two instances share one PostgreSQL database.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PUBLIC_CACHE_CONTROL } from '../../src/http/caching';
import { sleep, startInstance, stopInstance, type Instance } from '../helpers/cluster';
import { TEST_PG_URL } from '../helpers/db';
import { startNginx, type TestNginx } from '../helpers/nginx';

const database = `nginx_cache_${process.pid}_${randomBytes(3).toString('hex')}`;
const UNIT_PAGE = '/Detalhes.php?id=1';
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };
let uploads: string;
let nginx: TestNginx;
const instances: Instance[] = [];

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: TEST_PG_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  await admin(`create database "${database}"`);
  uploads = mkdtempSync(path.join(os.tmpdir(), 'gym-nginx-uploads-'));
  const url = new URL(TEST_PG_URL);
  url.pathname = `/${database}`;
  const env = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'segredo-de-teste-compartilhado-por-todas-as-instancias',
    DATABASE_URL: url.toString(),
    TRUST_PROXY: 'loopback',
    UPLOADS_DIR: uploads,
    MAIL_WORKER: 'false',
    SCHEDULED_JOBS: 'false',
  };
  instances.push(...(await Promise.all(['a', 'b'].map((n) => startInstance(n, env)))));
  nginx = await startNginx(instances.map((i) => `127.0.0.1:${i.port}`));
}, 90_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all(instances.map((i) => stopInstance(i)));
  if (uploads) rmSync(uploads, { recursive: true, force: true });
  await admin(`drop database if exists "${database}" with (force)`);
});

it('the app answers 304 to the ETag it sent', async () => {
  const app = `http://127.0.0.1:${instances[0]!.port}`;
  const first = await fetch(app + UNIT_PAGE, { headers: BROWSER });
  expect(first.status).toBe(200);
  expect(first.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
  expect(first.headers.get('vary')).toMatch(/accept-encoding/i);
  const etag = first.headers.get('etag');
  expect(etag).toMatch(/^"[\w-]+"$/);
  const again = await fetch(app + UNIT_PAGE, { headers: { ...BROWSER, 'if-none-match': etag! } });
  expect(again.status).toBe(304);
  expect(await again.text()).toBe('');
  // a tag a cache in front weakened (nginx does when it compresses) still matches
  const weak = await fetch(app + UNIT_PAGE, { headers: { ...BROWSER, 'if-none-match': `W/${etag}` } });
  expect(weak.status).toBe(304);
});

it('nginx keeps the public page and serves it while both instances are stopped', async () => {
  const viaNginx = (headers: Record<string, string> = {}) =>
    fetch(nginx.url + UNIT_PAGE, { headers: { ...BROWSER, ...headers } });
  const first = await viaNginx();
  expect(first.status).toBe(200);
  const body = await first.text();
  expect(body).toContain('Grade de aulas');
  const cached = await viaNginx();
  expect(cached.headers.get('x-cache-status')).toBe('HIT');
  expect(await cached.text()).toBe(body);
  // nginx answers a conditional GET from its cache too
  const revalidated = await viaNginx({ 'if-none-match': String(first.headers.get('etag')) });
  expect(revalidated.status).toBe(304);
  // staff paths are never cached
  const login = await fetch(`${nginx.url}/pages/Franquia/admin.php`);
  expect(login.headers.get('x-cache-status')).toBeNull();

  await Promise.all(instances.map((i) => stopInstance(i)));
  expect(instances.every((i) => !i.alive())).toBe(true);
  // Past s-maxage: the entry is stale, and no instance answers.
  await sleep(6_000);
  const stale = await viaNginx();
  expect(stale.status).toBe(200);
  expect(['STALE', 'UPDATING']).toContain(stale.headers.get('x-cache-status'));
  expect(await stale.text()).toBe(body);
  // nothing behind nginx at all: an address it never kept fails
  const uncached = await fetch(`${nginx.url}/Detalhes.php?id=2`, { headers: BROWSER });
  expect(uncached.status).toBeGreaterThanOrEqual(500);
}, 60_000);

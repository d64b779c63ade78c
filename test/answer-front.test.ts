// The answer front (docs/decisions/182): repeats of the catalog's kept public answers are
// answered before Fastify, over real HTTP. What it sends must be what Fastify sends for the
// same request (status, headers, bytes, in every encoding), it must follow the snapshot's
// freshness rule on this instance and on another one, and everything it cannot answer
// exactly (HEAD, unseen addresses, request logging, shutdown) must reach Fastify.
import { EventEmitter } from 'node:events';
import http from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp, type App } from '../src/app';
import { AnswerFront, type FrontSource } from '../src/http/answer-front';
import { HSTS } from '../src/http/security';
import { invalidateCatalogCache } from '../src/features/catalog/index';
import { CATALOG_TTL_MS, type CatalogSnapshot } from '../src/features/catalog/catalog.service';
import { SnapshotCache } from '../src/features/catalog/snapshot-cache';
import { createTestApp, secondInstance, type TestContext } from './helpers/app';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function request(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The headers that say what the answer is (not the connection, the date or the request's id). */
function answerHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (!['x-request-id', 'date', 'connection', 'keep-alive'].includes(k.toLowerCase()))
      out[k.toLowerCase()] = String(v);
  }
  return out;
}

async function listen(app: App): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Records which requests the front answered (true) and which it passed on (false). */
function watch(front: AnswerFront): boolean[] {
  const answered: boolean[] = [];
  const serve = front.serve.bind(front);
  front.serve = (req, res) => {
    const r = serve(req, res);
    answered.push(r);
    return r;
  };
  return answered;
}

const ENCODINGS: Record<string, string>[] = [
  { 'accept-encoding': 'gzip, deflate, br, zstd' },
  { 'accept-encoding': 'gzip' },
  {},
  { 'accept-encoding': 'br', 'x-no-compression': '1' },
];

describe('answer front', () => {
  let t: TestContext;
  let base: string;
  let unitId: number;
  let answered: boolean[];

  beforeAll(async () => {
    t = await createTestApp();
    base = await listen(t.app);
    answered = watch(t.app.answerFront);
    unitId = (
      await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  const kept = () => [
    '/',
    '/unidades',
    `/unidades?cidade=${encodeURIComponent('São Paulo')}`,
    `/Detalhes.php?id=${unitId}`,
    `/pages/Pass/index.php?id=${unitId}`,
    '/search_ajax.php?q=movimento',
    '/pesquisa.php?q=centro',
    '/unidades.json?lat=-23.56&lng=-46.65&limit=5',
    '/sitemap.xml',
  ];

  it('answers a repeat with the status, headers and bytes Fastify sends, in every encoding', async () => {
    for (const path of kept()) {
      answered.length = 0;
      const first = await request(base, path, ENCODINGS[0]);
      expect(first.status, path).toBe(200);
      for (const headers of ENCODINGS) {
        const front = await request(base, path, headers);
        const fastify = await t.app.inject({ url: path, headers });
        expect(front.status, path).toBe(fastify.statusCode);
        expect(answerHeaders(front.headers), `${path} ${JSON.stringify(headers)}`).toEqual(
          answerHeaders(fastify.headers),
        );
        expect(front.body.equals(fastify.rawPayload), path).toBe(true);
        expect(front.headers['x-request-id']).toMatch(/^[a-z0-9]+-[a-z0-9]+$/);
      }
      // the first went through Fastify (which kept it), every repeat was the front's
      expect(answered, path).toEqual([false, true, true, true, true]);
    }
  });

  it('gives each answer its own request id, or the proxy’s when it is well-formed', async () => {
    const path = '/search_ajax.php?q=movimento';
    await request(base, path);
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add(String((await request(base, path)).headers['x-request-id']));
    expect(ids.size).toBe(5);
    expect((await request(base, path, { 'x-request-id': 'lb-42.abc' })).headers['x-request-id']).toBe('lb-42.abc');
    expect((await request(base, path, { 'x-request-id': 'bad id with spaces' })).headers['x-request-id']).not.toBe(
      'bad id with spaces',
    );
  });

  it('sends no HSTS when X-Forwarded-Proto comes from a proxy it does not trust, as Fastify', async () => {
    const path = '/sitemap.xml';
    await request(base, path);
    answered.length = 0;
    const front = await request(base, path, { 'x-forwarded-proto': 'https' });
    const fastify = await t.app.inject({ url: path, headers: { 'x-forwarded-proto': 'https' } });
    expect(answered).toEqual([true]);
    expect(front.headers['strict-transport-security']).toBeUndefined();
    expect(answerHeaders(front.headers)).toEqual(answerHeaders(fastify.headers));
  });

  it('passes on what it cannot answer as Fastify would: HEAD, other methods, unseen addresses and errors', async () => {
    const path = '/sitemap.xml';
    await request(base, path);
    answered.length = 0;
    const head = await request(base, path, {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect((await request(base, path, {}, 'POST')).status).toBe(404);
    // a spelling not answered yet goes to Fastify once, then it is the front's too
    const other = '/search_ajax.php?q=movimento&origem=teste';
    expect((await request(base, other)).status).toBe(200);
    expect((await request(base, other)).status).toBe(200);
    // bad input and unknown units are never kept
    for (const bad of ['/Detalhes.php?id=abc', '/Detalhes.php?id=999999', `/search_ajax.php?q=${'x'.repeat(300)}`]) {
      const a = await request(base, bad);
      const b = await request(base, bad);
      expect(b.status, bad).toBe(a.status);
      expect(a.status, bad).toBeGreaterThanOrEqual(400);
      expect(a.status, bad).toBeLessThan(500);
    }
    expect(answered).toEqual([false, false, false, true, false, false, false, false, false, false]);
  });

  it(`follows the snapshot: an edit shows at once here, and within the freshness window on another \
instance`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const other = await secondInstance(t);
    try {
      const otherBase = await listen(other);
      const path = `/Detalhes.php?id=${unitId}`;
      const search = '/search_ajax.php?q=movimento';
      for (const b of [base, otherBase]) {
        await request(b, path);
        await request(b, search);
        expect((await request(b, path)).body.toString()).not.toContain('Renomeada Pela Frente');
      }
      await t.db
        .updateTable('unidades')
        .set({ nome: 'Movimento Renomeada Pela Frente' })
        .where('id', '=', unitId)
        .execute();
      invalidateCatalogCache(t.app);
      expect((await request(base, path)).body.toString()).toContain('Renomeada Pela Frente');
      expect((await request(base, search)).body.toString()).toContain('Renomeada Pela Frente');
      // the other instance's front keeps its snapshot's answers until the window has passed…
      expect((await request(otherBase, path)).body.toString()).not.toContain('Renomeada Pela Frente');
      expect((await request(otherBase, search)).body.toString()).not.toContain('Renomeada Pela Frente');
      vi.setSystemTime(Date.now() + CATALOG_TTL_MS + 1);
      // …then the first request reads the database and every later one shows the change
      for (let i = 0; i < 3; i++) {
        expect((await request(otherBase, path)).body.toString()).toContain('Renomeada Pela Frente');
        expect((await request(otherBase, search)).body.toString()).toContain('Renomeada Pela Frente');
      }
    } finally {
      vi.useRealTimers();
      await other.close();
    }
  });
});

describe('answer front and the unit page’s own window', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    vi.useRealTimers();
    await t?.close();
  });

  it(`a kept unit page expires on its own while the snapshot stays fresh: hours edited on another instance \
show`, async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const other = await secondInstance(t);
    try {
      const base = await listen(other);
      const answered = watch(other.answerFront);
      const unitId = (
        await t.db.selectFrom('unidade_horarios').select('unidade_id').orderBy('unidade_id').executeTakeFirstOrThrow()
      ).unidade_id;
      const path = `/Detalhes.php?id=${unitId}`;
      // the snapshot is read at L, the page rendered at L + 1 s (kept until L + 1 s + TTL)
      vi.setSystemTime(Date.now() + CATALOG_TTL_MS + 1);
      await request(base, '/sitemap.xml');
      vi.setSystemTime(Date.now() + 1_000);
      await request(base, path);
      expect((await request(base, path)).body.toString()).not.toContain('05:17 às');
      await t.db.updateTable('unidade_horarios').set({ abre: '05:17' }).where('unidade_id', '=', unitId).execute();
      // L + TTL: the snapshot is read again (unchanged: the hours are not part of it)…
      vi.setSystemTime(Date.now() + CATALOG_TTL_MS - 1_000 + 1);
      await request(base, '/sitemap.xml');
      // …and the page, still within its own window, is the kept one
      answered.length = 0;
      expect((await request(base, path)).body.toString()).not.toContain('05:17 às');
      expect(answered).toEqual([true]);
      // past the page's window (the snapshot still fresh) it is rendered again, with the new hours
      vi.setSystemTime(Date.now() + 1_000);
      answered.length = 0;
      expect((await request(base, path)).body.toString()).toContain('05:17 às');
      expect((await request(base, path)).body.toString()).toContain('05:17 às');
      expect(answered).toEqual([false, true]);
    } finally {
      vi.useRealTimers();
      await other.close();
    }
  });
});

describe('answer front and the request log', () => {
  it('stands aside while request lines are logged (pino at info), and answers once the level is warn', async () => {
    const lines: string[] = [];
    const stream = { write: (line: string) => void lines.push(line) };
    const t = await createTestApp();
    const app = await buildApp(t.config, { db: t.testDb.handle, logger: { level: 'info', stream } });
    try {
      const base = await listen(app);
      const answered = watch(app.answerFront);
      const path = '/search_ajax.php?q=movimento';
      for (let i = 0; i < 3; i++) expect((await request(base, path)).status).toBe(200);
      expect(answered).toEqual([false, false, false]);
      expect(lines.filter((l) => l.includes('"request completed"'))).toHaveLength(3);
      app.log.level = 'warn';
      expect((await request(base, path)).status).toBe(200); // Fastify again: nothing was kept while logging
      expect((await request(base, path)).status).toBe(200);
      expect(answered).toEqual([false, false, false, false, true]);
      expect(lines.filter((l) => l.includes('"request completed"'))).toHaveLength(3);
    } finally {
      await app.close();
      await t.close();
    }
  });

  it('stands aside from shutdown on', async () => {
    const t = await createTestApp();
    const app = await buildApp(t.config, { db: t.testDb.handle, logger: false });
    const base = await listen(app);
    await request(base, '/sitemap.xml');
    expect(app.answerFront.size).toBe(1);
    await app.close();
    expect(app.answerFront.size).toBe(0);
    const req = { method: 'GET', url: '/sitemap.xml', headers: {}, socket: {} } as never;
    expect(app.answerFront.serve(req, {} as never)).toBe(false);
    await t.close();
  });
});

describe('answer front behind a proxy', () => {
  let t: TestContext;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { TRUST_PROXY: 'true' } });
    base = await listen(t.app);
  });
  afterAll(async () => t?.close());

  it('sends HSTS exactly when Fastify would: over HTTPS as the trusted proxy says', async () => {
    const path = '/sitemap.xml';
    await request(base, path);
    for (const headers of [
      { 'x-forwarded-proto': 'https' },
      { 'x-forwarded-proto': 'http' },
      {},
      { 'x-forwarded-proto': 'http, https' },
    ] as Record<string, string>[]) {
      const front = await request(base, path, headers);
      const fastify = await t.app.inject({ url: path, headers });
      expect(front.headers['strict-transport-security'], JSON.stringify(headers)).toBe(
        fastify.headers['strict-transport-security'],
      );
    }
    expect((await request(base, path, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe(
      HSTS,
    );
  });
});

describe('AnswerFront', () => {
  const source = (bytes: Buffer | undefined, key = 'k'): FrontSource => ({
    owner: {},
    key,
    negotiable: false,
    bytes: () => bytes,
  });
  /** a reply as keep() sees it; `finish` sends it, with the headers it has by then */
  const fakeReply = (
    url: string,
    headers: Record<string, string> = { 'content-type': 'text/plain' },
    method = 'GET',
    statusCode = 200,
  ) => {
    const raw = new EventEmitter();
    const reply = { request: { method, raw: { url } }, statusCode, raw, getHeaders: () => headers };
    return { reply: reply as never, finish: () => raw.emit('finish'), headers };
  };
  const keep = (
    f: AnswerFront,
    url: string,
    src: FrontSource,
    headers?: Record<string, string>,
    method?: string,
    status?: number,
  ) => {
    const r = fakeReply(url, headers, method, status);
    f.keep(r.reply, src);
    r.finish();
  };
  const fakeRequest = (url: string) =>
    ({ method: 'GET', url, headers: {}, socket: { remoteAddress: '127.0.0.1' } }) as never;
  const fakeResponse = () => {
    const res = { status: 0, headers: [] as string[], body: Buffer.alloc(0) as Buffer, headersSent: false };
    return Object.assign(res, {
      writeHead: (s: number, h: string[]) => ((res.status = s), (res.headers = h)),
      end: (b: Buffer) => (res.body = b),
    });
  };
  const front = (logs = false, maxEntries = 3) =>
    new AnswerFront({ requestId: () => 'id-1', trustProxy: false, hsts: HSTS, logsRequests: () => logs, maxEntries });

  it('keeps a bounded number of addresses, the oldest going first', () => {
    const f = front();
    for (const url of ['/a', '/b', '/c', '/d']) keep(f, url, source(Buffer.from(url)));
    expect(f.size).toBe(3);
    expect(f.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);
    const res = fakeResponse();
    expect(f.serve(fakeRequest('/d'), res as never)).toBe(true);
    expect(res.body.toString()).toBe('/d');
    expect(res.headers).toEqual(['x-request-id', 'id-1', 'content-type', 'text/plain', 'content-length', '2']);
  });

  it('passes everything on while request lines are logged, after close(), and once the source is gone', () => {
    const logging = front(true);
    keep(logging, '/a', source(Buffer.from('a')));
    expect(logging.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);

    const f = front();
    keep(f, '/gone', source(undefined));
    expect(f.serve(fakeRequest('/gone'), fakeResponse() as never)).toBe(false);
    expect(f.size).toBe(0);
    keep(f, '/a', source(Buffer.from('a')));
    f.close();
    expect(f.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);
    keep(f, '/a', source(Buffer.from('a')));
    expect(f.size).toBe(0);
  });

  it(`reads the headers once the answer is sent: a cookie or rate limit added by a later hook, another status or \
method, are never kept`, () => {
    const f = front();
    const late = fakeReply('/c');
    f.keep(late.reply, source(Buffer.from('c')));
    late.headers['set-cookie'] = '_csrf=abc; Path=/; HttpOnly'; // as @fastify/cookie's onSend adds it
    late.finish();
    keep(f, '/r', source(Buffer.from('r')), { 'x-ratelimit-limit': '30' });
    keep(f, '/404', source(Buffer.from('x')), {}, 'GET', 404);
    keep(f, '/post', source(Buffer.from('x')), {}, 'POST');
    expect(f.size).toBe(0);
    const added = fakeReply('/h');
    f.keep(added.reply, source(Buffer.from('h')));
    added.headers['cache-control'] = 'public, max-age=60';
    added.finish();
    const res = fakeResponse();
    expect(f.serve(fakeRequest('/h'), res as never)).toBe(true);
    expect(res.headers).toContain('cache-control');
  });

  it('an error while answering goes to Fastify instead of ending the process', () => {
    const errors: unknown[] = [];
    const f = new AnswerFront({
      requestId: () => 'id-1',
      trustProxy: false,
      hsts: HSTS,
      logsRequests: () => false,
      onError: (e) => errors.push(e),
    });
    keep(f, '/x', {
      owner: {},
      key: 'x',
      negotiable: false,
      bytes: () => {
        throw new Error('boom');
      },
    });
    expect(f.serve(fakeRequest('/x'), fakeResponse() as never)).toBe(false);
    expect(errors).toHaveLength(1);
    expect(f.size).toBe(0);
  });

  it('holds the cache’s key, not the answer: what the cache drops is freed', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const f = front(false, 100);
    const snap = {} as CatalogSnapshot;
    const cache = new SnapshotCache({ entries: 1, bytes: 64 * 1024 * 1024 }, { front: f, fresh: () => snap });
    cache.get(snap, 'none');
    const offer = (key: string) => {
      const r = fakeReply(`/${key}`);
      const answer = cache.set(snap, key, Buffer.alloc(4 * 1024 * 1024, key));
      cache.offerToFront(r.reply, answer, false);
      r.finish();
      return new WeakRef(answer.bytes);
    };
    const first = offer('a');
    offer('b'); // the cache holds one answer: 'a' goes
    await new Promise((resolve) => setTimeout(resolve, 0));
    gc();
    expect(first.deref()).toBeUndefined();
    expect(f.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);
    expect(f.serve(fakeRequest('/b'), fakeResponse() as never)).toBe(true);
  });
});

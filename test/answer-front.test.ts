// The answer front (docs/decisions/182): repeats of the catalog's kept public answers are
// answered before Fastify, over real HTTP. What it sends must be what Fastify sends for the
// same request (status, headers, bytes, in every encoding), it must follow the snapshot's
// freshness rule on this instance and on another one, and everything it cannot answer
// exactly (HEAD, unseen addresses, request logging, shutdown) must reach Fastify.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../src/app';
import { AnswerFront, type FrontSource } from '../src/http/answer-front';
import { HSTS } from '../src/http/security';
import { invalidateCatalogCache } from '../src/features/catalog/index';
import { CATALOG_TTL_MS } from '../src/features/catalog/catalog.service';
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
    if (!['x-request-id', 'date', 'connection', 'keep-alive'].includes(k.toLowerCase())) out[k.toLowerCase()] = String(v);
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
    unitId = (await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()).id;
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
        expect(answerHeaders(front.headers), `${path} ${JSON.stringify(headers)}`).toEqual(answerHeaders(fastify.headers));
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
    expect((await request(base, path, { 'x-request-id': 'bad id with spaces' })).headers['x-request-id']).not.toBe('bad id with spaces');
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

  it('follows the snapshot: an edit shows at once here, and within the freshness window on another instance', async () => {
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
      await t.db.updateTable('unidades').set({ nome: 'Movimento Renomeada Pela Frente' }).where('id', '=', unitId).execute();
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
    for (const headers of [{ 'x-forwarded-proto': 'https' }, { 'x-forwarded-proto': 'http' }, {}, { 'x-forwarded-proto': 'http, https' }] as Record<string, string>[]) {
      const front = await request(base, path, headers);
      const fastify = await t.app.inject({ url: path, headers });
      expect(front.headers['strict-transport-security'], JSON.stringify(headers)).toBe(fastify.headers['strict-transport-security']);
    }
    expect((await request(base, path, { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toBe(HSTS);
  });
});

describe('AnswerFront', () => {
  const source = (bytes: Buffer | undefined): FrontSource => ({ answer: {}, negotiable: false, bytes: () => bytes });
  const fakeReply = (url: string, headers: Record<string, string> = { 'content-type': 'text/plain' }) =>
    ({ request: { method: 'GET', raw: { url } }, statusCode: 200, getHeaders: () => headers }) as never;
  const fakeRequest = (url: string) => ({ method: 'GET', url, headers: {}, socket: { remoteAddress: '127.0.0.1' } }) as never;
  const fakeResponse = () => {
    const res = { status: 0, headers: [] as string[], body: Buffer.alloc(0) as Buffer };
    return Object.assign(res, { writeHead: (s: number, h: string[]) => ((res.status = s), (res.headers = h)), end: (b: Buffer) => (res.body = b) }) as never as typeof res;
  };
  const front = (logs = false, maxEntries = 3) => new AnswerFront({ requestId: () => 'id-1', trustProxy: false, hsts: HSTS, logsRequests: () => logs, maxEntries });

  it('keeps a bounded number of addresses, the oldest going first', () => {
    const f = front();
    for (const url of ['/a', '/b', '/c', '/d']) f.keep(fakeReply(url), source(Buffer.from(url)));
    expect(f.size).toBe(3);
    expect(f.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);
    const res = fakeResponse();
    expect(f.serve(fakeRequest('/d'), res as never)).toBe(true);
    expect(res.body.toString()).toBe('/d');
    expect(res.headers).toEqual(['x-request-id', 'id-1', 'content-type', 'text/plain', 'content-length', '2']);
  });

  it('passes everything on while request lines are logged, after close(), and once the source is gone', () => {
    const logging = front(true);
    logging.keep(fakeReply('/a'), source(Buffer.from('a')));
    expect(logging.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);

    const f = front();
    f.keep(fakeReply('/gone'), source(undefined));
    expect(f.serve(fakeRequest('/gone'), fakeResponse() as never)).toBe(false);
    expect(f.size).toBe(0);
    f.keep(fakeReply('/a'), source(Buffer.from('a')));
    f.close();
    expect(f.serve(fakeRequest('/a'), fakeResponse() as never)).toBe(false);
    f.keep(fakeReply('/a'), source(Buffer.from('a')));
    expect(f.size).toBe(0);
  });

  it('never keeps a cookie, a rate-limited answer, another status or another method', () => {
    const f = front();
    f.keep({ request: { method: 'GET', raw: { url: '/c' } }, statusCode: 200, getHeaders: () => ({ 'set-cookie': 'a=1', 'content-type': 'text/plain' }) } as never, source(Buffer.from('c')));
    f.keep({ request: { method: 'GET', raw: { url: '/r' } }, statusCode: 200, getHeaders: () => ({ 'x-ratelimit-limit': '30' }) } as never, source(Buffer.from('r')));
    expect(f.serve(fakeRequest('/c'), fakeResponse() as never)).toBe(false);
    f.keep({ request: { method: 'GET', raw: { url: '/404' } }, statusCode: 404, getHeaders: () => ({}) } as never, source(Buffer.from('x')));
    f.keep({ request: { method: 'POST', raw: { url: '/post' } }, statusCode: 200, getHeaders: () => ({}) } as never, source(Buffer.from('x')));
    expect(f.size).toBe(0);
  });
});

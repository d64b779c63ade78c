// The per-snapshot cache of rendered answers (docs/decisions/130): bounded, emptied when the
// snapshot changes, and every cached public answer follows the snapshot's freshness rule —
// at once on the instance that made an edit, within CATALOG_TTL_MS on another instance.
// The second instance's clock is faked so the test does not sleep. Kept answers also keep
// their compressed forms, made once per snapshot (docs/decisions/160).
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import type { App } from '../../src/app';
import { invalidateCatalogCache } from '../../src/features/catalog/index';
import { CATALOG_TTL_MS, type CatalogSnapshot } from '../../src/features/catalog/catalog.snapshot';
import { distanceKm, unitsByDistance } from '../../src/features/catalog/catalog.geo';
import type { UnitSummaryRow } from '../../src/features/catalog/catalog.repository';
import { SnapshotCache } from '../../src/features/catalog/snapshot-cache';
import { PRIVACY_PATH } from '../../src/features/privacy/policy.view';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';

describe('SnapshotCache', () => {
  const snap = () => ({}) as CatalogSnapshot;
  const bytes = (n: number) => Buffer.alloc(n, 'x');

  it('answers only for the snapshot the bytes were made from', () => {
    const cache = new SnapshotCache({ entries: 10, bytes: 1000 });
    const a = snap();
    const b = snap();
    expect(cache.get(a, 'home')).toBeUndefined();
    cache.set(a, 'home', bytes(10));
    expect(cache.get(a, 'home')?.bytes.length).toBe(10);
    // a new snapshot empties it, and a late answer made from the old one is not kept
    expect(cache.get(b, 'home')).toBeUndefined();
    cache.set(a, 'home', bytes(10));
    expect(cache.get(b, 'home')).toBeUndefined();
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it('drops the least recently used past its entry or byte bound', () => {
    const cache = new SnapshotCache({ entries: 3, bytes: 100 });
    const s = snap();
    cache.get(s, 'x');
    cache.set(s, 'a', bytes(30));
    cache.set(s, 'b', bytes(30));
    cache.set(s, 'c', bytes(30));
    cache.get(s, 'a'); // used: b is now the oldest
    cache.set(s, 'd', bytes(30));
    expect(['a', 'b', 'c', 'd'].filter((k) => cache.get(s, k))).toEqual(['a', 'c', 'd']);
    cache.set(s, 'e', bytes(60)); // 90 + 60 > 100 bytes: the two oldest go
    expect(cache.stats()).toEqual({ entries: 2, bytes: 90 });
    cache.set(s, 'huge', bytes(101)); // larger than the whole bound: not kept
    expect(cache.get(s, 'huge')).toBeUndefined();
  });

  it('keeps compressed forms with their answer, in the byte bound, and drops them with it', () => {
    const cache = new SnapshotCache({ entries: 10, bytes: 20_000 });
    const s = snap();
    cache.get(s, 'x');
    const page = Buffer.from('<p>Academia Movimento</p>\n'.repeat(300));
    const answer = cache.set(s, 'home', page);
    const br = cache.encoded(answer, 'br');
    expect(zlib.brotliDecompressSync(br)).toEqual(page);
    expect(cache.encoded(cache.get(s, 'home')!, 'br')).toBe(br); // the same buffer: not made again
    const gzip = cache.encoded(answer, 'gzip');
    expect(zlib.gunzipSync(gzip)).toEqual(page);
    expect(cache.stats()).toEqual({ entries: 1, bytes: page.length + br.length + gzip.length });
    // a compressed form that pushes past the bound evicts the least recently used answer
    cache.set(s, 'other', bytes(20_000 - page.length - br.length - gzip.length));
    cache.get(s, 'home');
    const next = cache.set(s, 'pass', Buffer.from('<p>Pass</p>'.repeat(100)));
    expect(cache.stats().entries).toBe(2); // 'other' went to make room for the page itself
    cache.encoded(next, 'gzip');
    expect(cache.stats().bytes).toBeLessThanOrEqual(20_000);
    // a new snapshot drops them all; compressing an answer no longer kept counts nothing
    expect(cache.get(snap(), 'home')).toBeUndefined();
    cache.encoded(next, 'br');
    expect(cache.stats()).toEqual({ entries: 0, bytes: 0 });
  });

  it('expires answers with a time to live, but keeps them for a database outage', () => {
    const cache = new SnapshotCache({ entries: 10, bytes: 1000 });
    const s = snap();
    cache.get(s, 'x', 1000);
    cache.set(s, 'unidade:1', bytes(5), 5000, 1000);
    expect(cache.get(s, 'unidade:1', 5999)).toBeDefined();
    expect(cache.get(s, 'unidade:1', 6000)).toBeUndefined();
    expect(cache.stale(s, 'unidade:1')?.bytes.length).toBe(5);
    expect(cache.stale(snap(), 'unidade:1')).toBeUndefined();
  });
});

it(`units by distance: the chord-distance order is the great-circle order, ties and units without coordinates by \
name`, () => {
  const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
  let seed = 7;
  const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
  const names = ['Água', 'agua', 'Zeta', 'beta', 'Beta', 'Ébano'];
  for (let round = 0; round < 100; round++) {
    const units = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, i) => {
      const located = random() > 0.15;
      const same = random() < 0.1; // several units at one point: a tie
      return {
        id: i + 1,
        nome: `${names[Math.floor(random() * names.length)]}${random() < 0.5 ? ` ${i}` : ''}`,
        latitude: !located ? null : same ? -23.5 : -33 + random() * 30,
        longitude: !located ? null : same ? -46.6 : -70 + random() * 40,
      } as UnitSummaryRow;
    });
    const from = { latitude: -33 + random() * 30, longitude: -70 + random() * 40 };
    const expected = units
      .map((u) => ({
        ...u,
        distanceKm:
          u.latitude !== null && u.longitude !== null
            ? distanceKm(from, { latitude: u.latitude, longitude: u.longitude })
            : null,
      }))
      .sort((a, b) =>
        a.distanceKm === null || b.distanceKm === null
          ? (a.distanceKm === null ? 1 : 0) - (b.distanceKm === null ? 1 : 0) || collator.compare(a.nome, b.nome)
          : a.distanceKm - b.distanceKm || collator.compare(a.nome, b.nome),
      );
    for (const limit of [1, 3, 10, 50, Infinity])
      expect(unitsByDistance(units, from, limit)).toEqual(expected.slice(0, limit));
  }
});

describe('cached public answers on two instances', () => {
  let t: TestContext;
  let other: App;
  beforeAll(async () => {
    t = await createTestApp();
    vi.useFakeTimers({ toFake: ['Date'] });
    other = await secondInstance(t);
  });
  afterAll(async () => {
    vi.useRealTimers();
    await other?.close();
    await t?.close();
  });

  const pages = (unitId: number) => [
    '/',
    '/unidades',
    `/unidades?cidade=${encodeURIComponent('São Paulo')}`,
    `/pages/Pass/index.php?id=${unitId}`,
    `/Detalhes.php?id=${unitId}`,
    '/search_ajax.php?q=movimento',
    '/unidades.json?lat=-23.56&lng=-46.65&limit=50',
  ];

  it(`a renamed unit shows on every cached page and in the sitemap: at once here, within the TTL on the other \
instance`, async () => {
    const unit = await t.db
      .selectFrom('unidades')
      .select(['id', 'nome'])
      .where('ativo', '=', 1)
      .where('cidade', '=', 'São Paulo')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const get = async (app: App, url: string) => {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      return res.body;
    };
    // both instances render (and keep) every page with the old name
    for (const app of [t.app, other]) {
      for (const url of pages(unit.id)) expect(await get(app, url), url).toContain(unit.nome);
      expect(await get(app, '/sitemap.xml')).not.toContain('<lastmod>2031-02-03</lastmod>');
    }

    // an edit made outside both (another process): the rows change, the cached bytes must follow
    await t.db
      .updateTable('unidades')
      .set({ nome: 'Movimento Renomeada Cache', atualizado_em: '2031-02-03T10:00:00.000Z' })
      .where('id', '=', unit.id)
      .execute();
    // the instance that made an edit invalidates its snapshot: every page shows it on the next request
    invalidateCatalogCache(t.app);
    for (const url of pages(unit.id)) expect(await get(t.app, url), url).toContain('Movimento Renomeada Cache');
    expect(await get(t.app, '/sitemap.xml')).toContain('<lastmod>2031-02-03</lastmod>');

    // the other instance still serves its snapshot's pages…
    expect(await get(other, '/unidades')).not.toContain('Movimento Renomeada Cache');
    expect(await get(other, '/sitemap.xml')).not.toContain('<lastmod>2031-02-03</lastmod>');
    // …until the snapshot's freshness window has passed
    vi.setSystemTime(Date.now() + CATALOG_TTL_MS + 1);
    for (const url of pages(unit.id)) expect(await get(other, url), url).toContain('Movimento Renomeada Cache');
    expect(await get(other, '/sitemap.xml')).toContain('<lastmod>2031-02-03</lastmod>');
  });

  it('a unit switched off leaves the list, the sitemap and the search, and its pages answer 404', async () => {
    const unit = await t.db
      .selectFrom('unidades')
      .select(['id', 'nome'])
      .where('ativo', '=', 1)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    for (const url of [
      '/unidades',
      '/sitemap.xml',
      `/Detalhes.php?id=${unit.id}`,
      `/pages/Pass/index.php?id=${unit.id}`,
    ]) {
      expect((await other.inject(url)).statusCode, url).toBe(200);
    }
    const search = `/search_ajax.php?q=${encodeURIComponent(unit.nome)}`;
    expect((await other.inject(search)).json()).toContainEqual(expect.objectContaining({ id: unit.id }));
    await t.db.updateTable('unidades').set({ ativo: 0 }).where('id', '=', unit.id).execute();
    vi.setSystemTime(Date.now() + CATALOG_TTL_MS + 1);
    expect((await other.inject('/unidades')).body).not.toContain(unit.nome);
    expect((await other.inject('/sitemap.xml')).body).not.toContain(`id=${unit.id}<`);
    expect((await other.inject(search)).json()).not.toContainEqual(expect.objectContaining({ id: unit.id }));
    expect((await other.inject(`/Detalhes.php?id=${unit.id}`)).statusCode).toBe(404);
    expect((await other.inject(`/pages/Pass/index.php?id=${unit.id}`)).statusCode).toBe(404);
  });

  it('cached bytes keep the headers, HEAD and compression of a rendered answer', async () => {
    for (const url of ['/unidades', '/sitemap.xml', '/pages/Pass/index.php?id=1']) {
      const first = await other.inject(url);
      const again = await other.inject(url);
      expect(again.body).toBe(first.body);
      expect(again.headers['content-type']).toBe(first.headers['content-type']);
      expect(again.headers['content-security-policy']).toBe(first.headers['content-security-policy']);
      expect(again.headers['cache-control']).toBe(first.headers['cache-control']);
      const head = await other.inject({ method: 'HEAD', url });
      expect(head.statusCode).toBe(200);
      expect(head.body).toBe('');
      const gzip = await other.inject({ url, headers: { 'accept-encoding': 'gzip' } });
      expect(gzip.headers['content-encoding']).toBe('gzip');
    }
    // data (JSON, the sitemap, robots.txt) carries the short header set: a policy that allows nothing
    const json = await other.inject('/unidades.json?lat=-23.56&lng=-46.65');
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
    for (const res of [json, await other.inject('/sitemap.xml'), await other.inject('/robots.txt')]) {
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['permissions-policy']).toBeUndefined();
    }
  });

  it('/unidades.json keeps one answer per point and limit, however the numbers are written', async () => {
    const body = (url: string) => other.inject(url).then((r) => r.json() as { id: number; distancia_km: number }[]);
    const first = await body('/unidades.json?lat=-23.56&lng=-46.65');
    expect(await body('/unidades.json?lat=-23.560&lng=-46.6500')).toEqual(first);
    expect(await body('/unidades.json?lat=%20-23.56&lng=-46.65&limit=10')).toEqual(first);
    // another limit or another point is another answer, not the kept one
    expect(await body('/unidades.json?lat=-23.56&lng=-46.65&limit=2')).toEqual(first.slice(0, 2));
    const far = await body('/unidades.json?lat=-3.73&lng=-38.52');
    expect(far.map((u) => u.distancia_km)).not.toEqual(first.map((u) => u.distancia_km));
  });
});

describe('cached answers in the encoding the client asks for', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const decode = (res: LightMyRequestResponse) => {
    const encoding = res.headers['content-encoding'];
    return encoding === 'br'
      ? zlib.brotliDecompressSync(res.rawPayload)
      : encoding === 'gzip'
        ? zlib.gunzipSync(res.rawPayload)
        : res.rawPayload;
  };
  const get = async (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') => {
    const res = await t.app.inject({ method, url, headers });
    expect(res.statusCode, url).toBe(200);
    return res;
  };
  const urls = ['/', '/unidades', '/pages/Pass/index.php?id=1', '/Detalhes.php?id=1', '/sitemap.xml'];
  const cases: [Record<string, string>, string | undefined][] = [
    [{ 'accept-encoding': 'br' }, 'br'],
    [{ 'accept-encoding': 'gzip' }, 'gzip'],
    [{}, undefined],
    [{ 'accept-encoding': 'identity' }, undefined],
    [{ 'accept-encoding': 'br;q=0, gzip' }, 'gzip'],
    [{ 'accept-encoding': 'gzip, deflate, br, zstd' }, 'br'], // a phone's Chromium
    [{ 'accept-encoding': 'br', 'x-no-compression': '1' }, undefined],
  ];

  /**
   * `url` in every case's encoding: the negotiated one, with vary and its own length, decoding to the identity bytes (≥
   * 1 KB).
   */
  const expectNegotiated = async (url: string) => {
    const identity = (await get(url)).rawPayload;
    expect(identity.length, url).toBeGreaterThanOrEqual(1024);
    const answers = [];
    for (const [headers, encoding] of cases) {
      const res = await get(url, headers);
      const label = `${url} ${JSON.stringify(headers)}`;
      expect(res.headers['content-encoding'], label).toBe(encoding);
      expect(res.headers.vary, label).toMatch(/accept-encoding/i);
      expect(Number(res.headers['content-length']), label).toBe(res.rawPayload.length);
      expect(decode(res).equals(identity), label).toBe(true);
      answers.push({ res, encoding, label });
    }
    return { identity, answers };
  };

  it(`every cached page is sent in the negotiated encoding, decoding to the identity bytes, with vary and its own \
length`, async () => {
    for (const url of urls) {
      const { identity, answers } = await expectNegotiated(url);
      for (const { res, encoding, label } of answers) {
        if (encoding) expect(res.rawPayload.length, label).toBeLessThan(identity.length / 2);
      }
      // HEAD: the same headers, no body
      const br = await get(url, { 'accept-encoding': 'br' });
      const head = await get(url, { 'accept-encoding': 'br' }, 'HEAD');
      expect(head.headers['content-encoding']).toBe('br');
      expect(head.headers['content-length']).toBe(br.headers['content-length']);
      expect(head.rawPayload.length).toBe(0);
    }
  });

  it(`answers made for one request (a search page, a position) are compressed as negotiated too, without \
@fastify/compress`, async () => {
    const fresh = ['/?q=academia', '/unidades?lat=-23.56&lng=-46.65'];
    for (const url of fresh) await expectNegotiated(url);
    // A list by position is JSON made per request: compressed once it is worth it.
    const near = await get('/unidades.json?lat=-23.56&lng=-46.65&limit=50', { 'accept-encoding': 'br' });
    const nearIdentity = await get('/unidades.json?lat=-23.56&lng=-46.65&limit=50');
    expect(nearIdentity.headers['content-type']).toMatch(/^application\/json/);
    expect(decode(near).equals(nearIdentity.rawPayload)).toBe(true);
    expect(near.headers['content-encoding']).toBe(nearIdentity.rawPayload.length >= 1024 ? 'br' : undefined);
  });

  it('search answers: small ones go as they are, without vary', async () => {
    const res = await get('/search_ajax.php?q=movimento', { 'accept-encoding': 'br' });
    expect(res.rawPayload.length).toBeLessThan(1024);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.json()).not.toHaveLength(0);
  });

  it(`picks the encoding @fastify/compress picks for the same header (the privacy page is compressed by \
it)`, async () => {
    const headers = [
      'br',
      'gzip',
      'identity',
      'deflate',
      '*',
      'x-gzip',
      'BR',
      'zstd, gzip',
      'br;q=0, *',
      'gzip;q=0.5, br;q=0.4',
      'gzip;q=1, br;q=1',
      'br; q=0.9 , gzip',
      'br;q=abc, gzip;q=0.1',
      'identity;q=1, gzip;q=0.1',
      'gzip;q=0, br;q=0',
      '',
    ];
    for (const h of headers) {
      const byCompress = await get(PRIVACY_PATH, { 'accept-encoding': h });
      const cached = await get('/', { 'accept-encoding': h });
      expect(cached.headers['content-encoding'], h).toBe(byCompress.headers['content-encoding']);
    }
  });

  it('compresses once per snapshot: the same bytes again without compressing, new bytes after an edit', async () => {
    const unit = await t.db
      .selectFrom('unidades')
      .select(['id', 'nome'])
      .where('ativo', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const first = await get('/unidades', { 'accept-encoding': 'br' });
    const gzipFirst = await get('/unidades', { 'accept-encoding': 'gzip' });
    const br = vi.spyOn(zlib, 'brotliCompressSync');
    const gzip = vi.spyOn(zlib, 'gzipSync');
    try {
      const again = await get('/unidades', { 'accept-encoding': 'br' });
      expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
      expect((await get('/unidades', { 'accept-encoding': 'gzip' })).rawPayload.equals(gzipFirst.rawPayload)).toBe(
        true,
      );
      expect(br).not.toHaveBeenCalled();
      expect(gzip).not.toHaveBeenCalled();

      await t.db.updateTable('unidades').set({ nome: 'Movimento Comprimida Nova' }).where('id', '=', unit.id).execute();
      invalidateCatalogCache(t.app);
      const edited = await get('/unidades', { 'accept-encoding': 'br' });
      expect(edited.rawPayload.equals(first.rawPayload)).toBe(false);
      expect(decode(edited).toString()).toContain('Movimento Comprimida Nova');
      expect(decode(edited).toString()).not.toContain(unit.nome);
      expect(br).toHaveBeenCalledTimes(1); // made once for the new snapshot…
      expect((await get('/unidades', { 'accept-encoding': 'br' })).rawPayload.equals(edited.rawPayload)).toBe(true);
      expect(br).toHaveBeenCalledTimes(1); // …and kept
      expect(decode(await get('/unidades', { 'accept-encoding': 'gzip' })).toString()).toContain(
        'Movimento Comprimida Nova',
      );
    } finally {
      br.mockRestore();
      gzip.mockRestore();
    }
  });
});

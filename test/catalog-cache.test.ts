// The per-snapshot cache of rendered answers (docs/decisions/130): bounded, emptied when the
// snapshot changes, and every cached public answer follows the snapshot's freshness rule —
// at once on the instance that made an edit, within CATALOG_TTL_MS on another instance.
// The second instance's clock is faked so the test does not sleep.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../src/app';
import { invalidateCatalogCache } from '../src/features/catalog/index';
import { CATALOG_TTL_MS, distanceKm, unitsByDistance, type CatalogSnapshot } from '../src/features/catalog/catalog.service';
import type { UnitSummaryRow } from '../src/features/catalog/catalog.repository';
import { SnapshotCache } from '../src/features/catalog/snapshot-cache';
import { createTestApp, secondInstance, type TestContext } from './helpers/app';

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

it('units by distance: the chord-distance order is the great-circle order, ties and units without coordinates by name', () => {
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
      .map((u) => ({ ...u, distanceKm: u.latitude !== null && u.longitude !== null ? distanceKm(from, { latitude: u.latitude, longitude: u.longitude }) : null }))
      .sort((a, b) =>
        a.distanceKm === null || b.distanceKm === null
          ? (a.distanceKm === null ? 1 : 0) - (b.distanceKm === null ? 1 : 0) || collator.compare(a.nome, b.nome)
          : a.distanceKm - b.distanceKm || collator.compare(a.nome, b.nome),
      );
    for (const limit of [1, 3, 10, 50, Infinity]) expect(unitsByDistance(units, from, limit)).toEqual(expected.slice(0, limit));
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

  it('a renamed unit shows on every cached page and in the sitemap: at once here, within the TTL on the other instance', async () => {
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
    await t.db.updateTable('unidades').set({ nome: 'Movimento Renomeada Cache', atualizado_em: '2031-02-03T10:00:00.000Z' }).where('id', '=', unit.id).execute();
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
    const unit = await t.db.selectFrom('unidades').select(['id', 'nome']).where('ativo', '=', 1).orderBy('id', 'desc').executeTakeFirstOrThrow();
    for (const url of ['/unidades', '/sitemap.xml', `/Detalhes.php?id=${unit.id}`, `/pages/Pass/index.php?id=${unit.id}`]) {
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
    // JSON answers carry the short JSON header set
    const json = await other.inject('/unidades.json?lat=-23.56&lng=-46.65');
    expect(json.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(json.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

// HTTP caching of public answers (docs/decisions/190): Cache-Control for shared caches, an
// ETag per representation, 304 on a matching If-None-Match (weak comparison, RFC 9110), a
// new tag once the answer changes; staff and private pages are never public.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PUBLIC_CACHE_CONTROL, ifNoneMatchHits } from '../../src/http/caching';
import { invalidateCatalogCache } from '../../src/features/catalog/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { LOGIN_URL } from '../helpers/staff';

describe('If-None-Match', () => {
  it('matches by the weak comparison, in a list, and *', () => {
    expect(ifNoneMatchHits('"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('W/"abc"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"x", W/"abc" ,"y"', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('*', '"abc"')).toBe(true);
    expect(ifNoneMatchHits('"abc-br"', '"abc"')).toBe(false);
    expect(ifNoneMatchHits('abc', '"abc"')).toBe(false);
    expect(ifNoneMatchHits(undefined, '"abc"')).toBe(false);
  });
});

describe('public answers', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const kept = [
    '/',
    '/Detalhes.php?id=1',
    '/pages/Pass/index.php?id=1',
    '/unidades',
    '/unidades.json?lat=-23.56&lng=-46.65',
    '/search_ajax.php?q=movimento',
    '/pesquisa.php?q=movimento',
    '/sitemap.xml',
  ];

  it('carry the public Cache-Control and an ETag, and answer 304 to it', async () => {
    for (const url of kept) {
      for (const encoding of ['br', 'gzip', 'identity']) {
        const headers = { 'accept-encoding': encoding };
        const first = await t.app.inject({ url, headers });
        expect(first.statusCode, url).toBe(200);
        expect(first.headers['cache-control'], url).toBe(PUBLIC_CACHE_CONTROL);
        const etag = String(first.headers.etag);
        expect(etag, url).toMatch(/^"[\w-]+"$/);
        expect(first.headers['set-cookie'], url).toBeUndefined();
        const again = await t.app.inject({ url, headers: { ...headers, 'if-none-match': etag } });
        expect(again.statusCode, url).toBe(304);
        expect(again.body, url).toBe('');
        expect(again.headers.etag, url).toBe(etag);
        expect(again.headers['cache-control'], url).toBe(PUBLIC_CACHE_CONTROL);
        expect(again.headers['content-encoding'], url).toBeUndefined();
        // what a cache in front sends after weakening the tag (nginx with gzip does)
        const weak = await t.app.inject({ url, headers: { ...headers, 'if-none-match': `"other", W/${etag}` } });
        expect(weak.statusCode, url).toBe(304);
        const head = await t.app.inject({ method: 'HEAD', url, headers: { ...headers, 'if-none-match': etag } });
        expect(head.statusCode, url).toBe(304);
      }
    }
  });

  it('each encoding is its own representation: its own tag, and vary says so', async () => {
    const url = '/Detalhes.php?id=1';
    const br = await t.app.inject({ url, headers: { 'accept-encoding': 'br' } });
    const gzip = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    const plain = await t.app.inject({ url });
    expect(new Set([br.headers.etag, gzip.headers.etag, plain.headers.etag]).size).toBe(3);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    // the brotli tag does not validate the gzip bytes
    const cross = await t.app.inject({ url, headers: { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag } });
    expect(cross.statusCode).toBe(200);
    expect(cross.headers['content-encoding']).toBe('gzip');
  });

  it('an edit makes a new tag: the old one gets the new page', async () => {
    const url = '/Detalhes.php?id=1';
    const before = await t.app.inject({ url });
    await t.db.updateTable('unidades').set({ nome: 'Movimento Etiqueta Nova' }).where('id', '=', 1).execute();
    invalidateCatalogCache(t.app);
    const after = await t.app.inject({ url, headers: { 'if-none-match': String(before.headers.etag) } });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Movimento Etiqueta Nova');
    expect(after.headers.etag).not.toBe(before.headers.etag);
  });

  it('pages made for one request are public without a tag; errors and staff pages are never public', async () => {
    const search = await t.app.inject('/?q=movimento');
    expect(search.statusCode).toBe(200);
    expect(search.headers['cache-control']).toBe(PUBLIC_CACHE_CONTROL);
    expect(search.headers.etag).toBeUndefined();
    const missing = await t.app.inject('/Detalhes.php?id=999999');
    expect(missing.statusCode).toBe(404);
    expect(String(missing.headers['cache-control'] ?? '')).not.toMatch(/public/);
    const bad = await t.app.inject('/search_ajax.php?q=a&q=b');
    expect(bad.statusCode).toBe(400);
    expect(String(bad.headers['cache-control'] ?? '')).not.toMatch(/public/);
    const login = await t.app.inject(LOGIN_URL);
    expect(login.headers['cache-control']).toMatch(/no-store/);
  });
});

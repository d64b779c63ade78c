// For search engines: the sitemap of public pages and robots.txt, with absolute URLs from PUBLIC_URL.
import type { FastifyInstance } from 'fastify';
import { absoluteUrl } from '../../brand/index';
import type { CatalogService } from './catalog.service';
import type { CatalogSnapshot } from './catalog.snapshot';
import { SnapshotCache } from './snapshot-cache';
import { sendCached } from './send-cached';
import { ENCODED_BY_ROUTE } from '../../http/compression';
import { passHref, unitHref } from './catalog.parts';
import { PRIVACY_PATH } from '../privacy/policy.view';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Areas a crawler has no business in: the staff area and the counted redirects. */
export const ROBOTS_DISALLOW = ['/admin/', '/pages/Franquia/admin.php', '/pages/Franquia/smtp_test.php', '/ir/'];

export function seoRoutes(app: FastifyInstance, service: CatalogService) {
  // Made once per snapshot (~60 KB at 300 units; a sitemap is at most 50,000 URLs).
  const sitemaps = new SnapshotCache({ entries: 1, bytes: 12 * 1024 * 1024 });
  // Data, not pages: the short header set (security.ts).
  const data = { ...ENCODED_BY_ROUTE, config: { securityHeaders: 'data' as const } };
  app.get('/sitemap.xml', data, async (_request, reply) => {
    const snap = await service.snapshot();
    const body = sitemaps.get(snap, 'sitemap') ?? sitemaps.set(snap, 'sitemap', Buffer.from(sitemap(snap)));
    return sendCached(reply.type('application/xml; charset=utf-8'), sitemaps, body);
  });

  app.get('/robots.txt', data, async (_request, reply) => {
    const body = [
      'User-agent: *',
      ...ROBOTS_DISALLOW.map((p) => `Disallow: ${p}`),
      '',
      `Sitemap: ${absoluteUrl('/sitemap.xml')}`,
      '',
    ].join('\n');
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600').send(body);
  });
}

/** The sitemap of the snapshot's active units. */
function sitemap(snap: CatalogSnapshot): string {
  const latest = snap.units.reduce((max, u) => (u.atualizado_em > max ? u.atualizado_em : max), '');
  const entry = (path: string, lastmod?: string) =>
    `<url><loc>${xml(absoluteUrl(path))}</loc>` +
    `${lastmod ? `<lastmod>${xml(lastmod.slice(0, 10))}</lastmod>` : ''}</url>`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    entry('/', latest || undefined),
    entry('/unidades', latest || undefined),
    entry(PRIVACY_PATH),
    ...snap.units.flatMap((u) => [entry(unitHref(u.id), u.atualizado_em), entry(passHref(u.id), u.atualizado_em)]),
    '</urlset>',
  ].join('\n');
}

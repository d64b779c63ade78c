// For search engines: the sitemap of public pages and robots.txt, with absolute URLs from PUBLIC_URL.
import type { FastifyInstance } from 'fastify';
import { absoluteUrl } from '../../brand/index';
import type { CatalogService, CatalogSnapshot } from './catalog.service';
import { SnapshotCache, type FrontLink } from './snapshot-cache';
import { sendCached } from './send-cached';
import { ENCODED_BY_ROUTE } from '../../http/compression';
import { h } from 'preact';
import { renderPage } from '../../views/render';
import { passHref, unitHref } from './catalog.view';
import { safeExternalUrl } from '../../lib/url';
import { PRIVACY_PATH, PrivacyPage, type Processor } from './privacy.view';
import { retentionRules } from '../privacy/retention';

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Areas a crawler has no business in: the staff area and the counted redirects. */
export const ROBOTS_DISALLOW = ['/admin/', '/pages/Franquia/admin.php', '/pages/Franquia/smtp_test.php', '/ir/'];

export function seoRoutes(app: FastifyInstance, service: CatalogService, front: FrontLink) {
  // The privacy notice lists the benefit platforms of the catalog: made once per snapshot.
  const notices = new SnapshotCache({ entries: 1, bytes: 1024 * 1024 }, front);
  const settings = app.config.privacy;
  const retention = retentionRules(settings.retention);
  const mailProvider = app.config.smtp ? (settings.mailProviderName ?? app.config.smtp.host) : null;
  app.get(PRIVACY_PATH, async (_request, reply) => {
    const snap = await service.snapshot();
    const page = () =>
      Buffer.from(
        renderPage(
          h(PrivacyPage, {
            dpo: { name: settings.dpoName, email: settings.dpoEmail },
            retention,
            processors: processorsOf(snap, mailProvider),
          }),
        ),
      );
    const body = notices.get(snap, 'privacidade') ?? notices.set(snap, 'privacidade', page());
    return sendCached(reply.type('text/html; charset=utf-8'), notices, body);
  });

  // Made once per snapshot (~60 KB at 300 units; a sitemap is at most 50,000 URLs).
  const sitemaps = new SnapshotCache({ entries: 1, bytes: 12 * 1024 * 1024 }, front);
  // Data, not pages: the short header set (security.ts).
  const data = { ...ENCODED_BY_ROUTE, config: { securityHeaders: 'data' as const } };
  app.get('/sitemap.xml', data, async (_request, reply) => {
    const snap = await service.snapshot();
    const body = sitemaps.get(snap, 'sitemap') ?? sitemaps.set(snap, 'sitemap', Buffer.from(sitemap(snap)));
    return sendCached(
      reply.type('application/xml; charset=utf-8').header('cache-control', 'public, max-age=300'),
      sitemaps,
      body,
    );
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

/**
 * Who the site shares data with or sends people to: the benefit platforms the Pass pages
 * of active units link to (by name, with the link's host), and the mail provider.
 * Webhook receivers are not listed yet.
 */
export function processorsOf(snap: CatalogSnapshot, mailProvider: string | null): Processor[] {
  const platforms = new Map<string, Set<string>>();
  for (const u of snap.units) {
    const url = safeExternalUrl(u.beneficio_url);
    if (!url) continue;
    const name = (u.beneficio_nome ?? '').trim() || 'Plataforma de benefício';
    const hosts = platforms.get(name) ?? new Set<string>();
    hosts.add(new URL(url).hostname.replace(/^www\./, ''));
    platforms.set(name, hosts);
  }
  const out: Processor[] = [...platforms]
    .sort(([a], [b]) => a.localeCompare(b, 'pt-BR'))
    .map(([nome, hosts]) => ({
      nome,
      site: [...hosts].sort().join(', '),
      finalidade:
        'plataforma de benefício para a qual as páginas de Pass levam você; o cadastro e o uso do benefício ' +
        'acontecem lá, sob a política de privacidade dela.',
    }));
  if (mailProvider) {
    out.push({
      nome: mailProvider,
      finalidade:
        'serviço que entrega os nossos e-mails (confirmações e lembretes de aula, respostas às mensagens); ' +
        'recebe o seu e-mail e o texto da mensagem.',
    });
  }
  return out;
}

/** The sitemap of the snapshot's active units. */
function sitemap(snap: CatalogSnapshot): string {
  const latest = snap.units.reduce((max, u) => (u.atualizado_em > max ? u.atualizado_em : max), '');
  const entry = (path: string, lastmod?: string) =>
    `<url><loc>${xml(absoluteUrl(path))}</loc>${lastmod ? `<lastmod>${xml(lastmod.slice(0, 10))}</lastmod>` : ''}</url>`;
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

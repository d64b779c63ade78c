// HTTP only: parse the query, ask the service, send JSON or a (cached) rendered page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h, type VNode } from 'preact';
import { badUnitAddress, sendError } from '../../http/errors';
import { ENCODED_BY_ROUTE } from '../../http/compression';
import { isDbUnavailableError } from '../../db/unavailable';
import { renderPage } from '../../views/render';
import { featuredPlans, type CatalogService } from './catalog.service';
import { queryId } from '../../lib/form/index';
import { SnapshotCache } from './snapshot-cache';
import { sendCached, sendFresh } from './send-cached';
import { HomePage, type HomeProps } from './home.view';
import { PassPage } from './pass.view';
import { UnitPage } from './unit.view';

// `tipo` is "plano" | "unidade"; a plain string keeps the serialiser on its fast path.
// `cidade` is optional: the serialiser leaves it out of plan items.
const SearchItem = Type.Object(
  { tipo: Type.String(), id: Type.Integer(), nome: Type.String(), cidade: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const SearchError = Type.Object({ error: Type.String(), message: Type.String() });
const SearchQuery = Type.Object({ q: Type.Optional(Type.String()) });
const IdQuery = Type.Object({ id: Type.Optional(Type.String()) });
const HTML = 'text/html; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Rendered pages (home, unit and Pass pages): about 27 KB per unit page and 3 KB per Pass
 * page, so a 300-unit chain fits in ~9 MB; the bound keeps a larger one from growing past it.
 */
const PAGE_LIMITS = { entries: 5_000, bytes: 16 * 1024 * 1024 };
/** Search answers as JSON bytes, by the query as typed (a scan of random queries cannot grow memory). */
const SEARCH_LIMITS = { entries: 2_000, bytes: 4 * 1024 * 1024 };
/** the longest `q` kept: longer ones are refused anyway */
const MAX_CACHED_QUERY = 200;

export function catalogRoutes(app: FastifyInstance, service: CatalogService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const pages = new SnapshotCache(PAGE_LIMITS);
  const searches = new SnapshotCache(SEARCH_LIMITS);

  const unknownUnit = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(
      request,
      reply,
      404,
      'Unidade não encontrada',
      'Esta unidade não existe ou não está mais em funcionamento. Veja as outras unidades na página inicial.',
    );

  // Answers are kept as JSON bytes by the query as typed: a repeated search costs a lookup,
  // not the folding, matching and serialising (made once by the route's own serializer).
  const searchHandler = async (request: FastifyRequest<{ Querystring: { q?: string } }>, reply: FastifyReply) => {
    if (request.validationError) {
      return reply
        .code(400)
        .send({ error: 'Busca inválida', message: 'Envie um único parâmetro q com o texto da busca.' });
    }
    const q = request.query.q ?? '';
    const snap = await service.snapshot();
    const cached = searches.get(snap, q);
    if (cached) return sendCached(reply.type(JSON_TYPE), searches, cached);
    const outcome = await service.search(q);
    if (!outcome.ok) return reply.code(400).send({ error: outcome.error, message: outcome.message });
    const body = Buffer.from(reply.serialize(outcome.items) as string);
    // Too long to keep: compressed (if asked) for this request only.
    if (q.length > MAX_CACHED_QUERY) return sendFresh(reply.type(JSON_TYPE), body);
    return sendCached(reply.type(JSON_TYPE), searches, searches.set(snap, q, body));
  };
  const searchSchema = {
    querystring: SearchQuery,
    response: { 200: Type.Array(SearchItem), 400: SearchError },
  };
  for (const url of ['/search_ajax.php', '/pesquisa.php']) {
    r.get(
      url,
      { schema: searchSchema, attachValidation: true, ...ENCODED_BY_ROUTE, config: { securityHeaders: 'data' } },
      searchHandler,
    );
  }

  // Every answer of these routes goes through sendCached or sendFresh (errors and 404s are
  // small pages, sent as they are).
  const page = (reply: FastifyReply, vnode: VNode<any>, status = 200) =>
    sendFresh(reply.code(status).type(HTML), Buffer.from(renderPage(vnode)));

  r.get(
    '/',
    { schema: { querystring: SearchQuery }, attachValidation: true, ...ENCODED_BY_ROUTE },
    async (request, reply) => {
      const snap = await service.snapshot();
      const home = (q: string, results: HomeProps['results'], error: string | null) =>
        h(HomePage, { snapshot: snap, featured: featuredPlans(snap), q, results, error });
      const q = request.validationError ? '' : (request.query.q ?? '').trim();
      if (!q) {
        // The plain home page is the same for everyone until the catalog changes.
        const html = pages.get(snap, 'home') ?? pages.set(snap, 'home', Buffer.from(renderPage(home('', null, null))));
        return sendCached(reply.type(HTML), pages, html);
      }
      const outcome = await service.searchDetailed(q);
      if (!outcome.ok) return page(reply, home(q, null, `${outcome.error}. ${outcome.message}`), 400);
      if ([...q].length < 2) return page(reply, home(q, null, 'Digite pelo menos 2 letras para buscar.'));
      return page(reply, home(q, outcome.results, null));
    },
  );

  /**
   * A unit's page named by `?id=` (its page, its Pass page): 400 for a malformed id, 404 for a
   * unit the snapshot lacks (no query), else the copy kept under `${prefix}:id` for `ttlMs`,
   * or the page `render` makes (undefined: the unit went away meanwhile, 404).
   */
  const unitIdPage = (
    path: string,
    prefix: string,
    render: (id: number) => Promise<VNode<any> | undefined>,
    ttlMs = Infinity,
  ) =>
    r.get(
      path,
      { schema: { querystring: IdQuery }, attachValidation: true, ...ENCODED_BY_ROUTE },
      async (request, reply) => {
        const id = request.validationError ? null : queryId(request.query.id);
        if (id === null) return badUnitAddress(request, reply);
        const snap = await service.snapshot();
        if (!snap.unitsById.has(id)) return unknownUnit(request, reply);
        const key = `${prefix}:${id}`;
        const now = Date.now();
        const cached = pages.get(snap, key, now);
        if (cached) return sendCached(reply.type(HTML), pages, cached);
        let vnode;
        try {
          vnode = await render(id);
        } catch (err) {
          // Database unreachable: the page rendered before is better than an error.
          const stale = pages.stale(snap, key);
          if (stale && isDbUnavailableError(err)) return sendCached(reply.type(HTML), pages, stale);
          throw err;
        }
        if (!vnode) return unknownUnit(request, reply);
        const html = pages.set(snap, key, Buffer.from(renderPage(vnode)), ttlMs, now);
        return sendCached(reply.type(HTML), pages, html);
      },
    );

  // The timetable and hours are read from the database, not the snapshot: kept for the
  // snapshot's own freshness window, so other instances' edits show within it too.
  unitIdPage(
    '/Detalhes.php',
    'unidade',
    async (id) => {
      const data = await service.unitPage(id);
      return data && h(UnitPage, { data });
    },
    service.ttlMs,
  );
  unitIdPage('/pages/Pass/index.php', 'pass', async (id) => {
    const data = await service.passPage(id);
    return data && h(PassPage, { data });
  });
}

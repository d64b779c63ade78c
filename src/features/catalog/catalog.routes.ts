// HTTP only: parse the query, ask the service, send JSON or a (cached) rendered page.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError } from '../../http/errors';
import { isDbUnavailableError } from '../../db/unavailable';
import { renderPage } from '../../views/render';
import { featuredPlans, parseId, type CatalogService, type CatalogSnapshot } from './catalog.service';
import { HomePage, PassPage, UnitPage } from './catalog.view';

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

interface CachedPage {
  /** encoded once: a cached page is written as is, with no per-request UTF-8 encoding */
  html: Buffer;
  generation: number;
  /** the snapshot the page was made from, or its expiry time for pages read from the database */
  snapshot?: CatalogSnapshot;
  expires?: number;
}

/** Rendered pages are kept per unit; bounded by the number of active units. */
const MAX_CACHED_PAGES = 5_000;

function remember(cache: Map<number, CachedPage>, id: number, page: CachedPage) {
  if (cache.size >= MAX_CACHED_PAGES) cache.delete(cache.keys().next().value as number);
  cache.set(id, page);
}

export function catalogRoutes(app: FastifyInstance, service: CatalogService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const unitPages = new Map<number, CachedPage>();
  const passPages = new Map<number, CachedPage>();
  let homePage: CachedPage | null = null;

  const badId = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(request, reply, 400, 'Endereço inválido', 'O código da unidade no endereço não é válido. Escolha a unidade na página inicial.');
  const unknownUnit = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe ou não está mais em funcionamento. Veja as outras unidades na página inicial.');

  // The service keeps each answer (one array per query per snapshot); its JSON bytes are
  // kept next to it, made once by the route's own serializer.
  const searchJson = new WeakMap<readonly object[], Buffer>();
  const searchHandler = async (request: FastifyRequest<{ Querystring: { q?: string } }>, reply: FastifyReply) => {
    if (request.validationError) {
      return reply.code(400).send({ error: 'Busca inválida', message: 'Envie um único parâmetro q com o texto da busca.' });
    }
    const outcome = await service.search(request.query.q);
    if (!outcome.ok) return reply.code(400).send({ error: outcome.error, message: outcome.message });
    let body = searchJson.get(outcome.items);
    if (!body) {
      body = Buffer.from(reply.serialize(outcome.items) as string);
      searchJson.set(outcome.items, body);
    }
    return reply.type(JSON_TYPE).send(body);
  };
  const searchSchema = {
    querystring: SearchQuery,
    response: { 200: Type.Array(SearchItem), 400: SearchError },
  };
  for (const url of ['/search_ajax.php', '/pesquisa.php']) {
    r.get(url, { schema: searchSchema, attachValidation: true, config: { securityHeaders: 'json' } }, searchHandler);
  }

  r.get('/', { schema: { querystring: SearchQuery }, attachValidation: true }, async (request, reply) => {
    const snap = await service.snapshot();
    const q = request.validationError ? '' : (request.query.q ?? '').trim();
    if (!q) {
      // The plain home page is the same for everyone until the catalog changes.
      if (!homePage || homePage.snapshot !== snap || homePage.generation !== service.generation) {
        homePage = {
          html: Buffer.from(renderPage(h(HomePage, { snapshot: snap, featured: featuredPlans(snap), q: '', results: null, error: null }))),
          snapshot: snap,
          generation: service.generation,
        };
      }
      return reply.type(HTML).send(homePage.html);
    }
    const outcome = await service.searchDetailed(q);
    if (!outcome.ok) {
      return reply.page(h(HomePage, { snapshot: snap, featured: featuredPlans(snap), q, results: null, error: `${outcome.error}. ${outcome.message}` }), 400);
    }
    const tooShort = [...q].length < 2;
    return reply.page(
      h(HomePage, {
        snapshot: snap,
        featured: featuredPlans(snap),
        q,
        results: tooShort ? null : outcome.results,
        error: tooShort ? 'Digite pelo menos 2 letras para buscar.' : null,
      }),
    );
  });

  r.get('/Detalhes.php', { schema: { querystring: IdQuery }, attachValidation: true }, async (request, reply) => {
    const id = request.validationError ? null : parseId(request.query.id);
    if (id === null) return badId(request, reply);
    if (!(await service.isActiveUnit(id))) return unknownUnit(request, reply);
    const cached = unitPages.get(id);
    const now = Date.now();
    if (cached && cached.generation === service.generation && (cached.expires ?? 0) > now) {
      return reply.type(HTML).send(cached.html);
    }
    const generation = service.generation;
    let data;
    try {
      data = await service.unitPage(id);
    } catch (err) {
      // Database unreachable: the page rendered before is better than an error.
      if (cached && isDbUnavailableError(err)) return reply.type(HTML).send(cached.html);
      throw err;
    }
    if (!data) return unknownUnit(request, reply);
    const html = Buffer.from(renderPage(h(UnitPage, { data })));
    remember(unitPages, id, { html, generation, expires: now + service.ttlMs });
    return reply.type(HTML).send(html);
  });

  r.get('/pages/Pass/index.php', { schema: { querystring: IdQuery }, attachValidation: true }, async (request, reply) => {
    const id = request.validationError ? null : parseId(request.query.id);
    if (id === null) return badId(request, reply);
    const snap = await service.snapshot();
    const cached = passPages.get(id);
    if (cached && cached.snapshot === snap && cached.generation === service.generation) {
      return reply.type(HTML).send(cached.html);
    }
    const data = await service.passPage(id);
    if (!data) return unknownUnit(request, reply);
    const html = Buffer.from(renderPage(h(PassPage, { data })));
    remember(passPages, id, { html, generation: service.generation, snapshot: snap });
    return reply.type(HTML).send(html);
  });
}

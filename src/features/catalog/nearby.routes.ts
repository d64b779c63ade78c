// "Units near me": the page (works without JavaScript: CEP or city) and the JSON list.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import type { CatalogService } from './catalog.service';
import { nearestUnits } from './catalog.geo';
import { nearJson, parseLimit, parsePoint, resolveNear } from './nearby';
import { UnitsPage } from './nearby.view';
import { SnapshotCache } from './snapshot-cache';
import { sendCached, sendFresh } from './send-cached';
import { ENCODED_BY_ROUTE } from '../../http/compression';
import { renderPage } from '../../views/render';

const HTML = 'text/html; charset=utf-8';
/** the plain list and a few CEP/city answers: each lists every unit (~160 KB at 300 units) */
const PAGE_LIMITS = { entries: 24, bytes: 4 * 1024 * 1024 };
/** /unidades.json answers (~1 KB at the default limit): a scan of random points cannot grow memory */
const JSON_LIMITS = { entries: 2_000, bytes: 2 * 1024 * 1024 };

const Str = Type.Optional(Type.String({ maxLength: 200 }));
const NearQuery = Type.Object({ lat: Str, lng: Str, cep: Str, cidade: Str, limit: Str });
const NearItem = Type.Object({
  id: Type.Integer(),
  nome: Type.String(),
  cidade: Type.String(),
  bairro: Type.String(),
  distancia_km: Type.Union([Type.Number(), Type.Null()]),
});
const ErrorBody = Type.Object({ error: Type.String(), message: Type.String() });

export function nearbyRoutes(app: FastifyInstance, service: CatalogService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  const pages = new SnapshotCache(PAGE_LIMITS);
  const answers = new SnapshotCache(JSON_LIMITS);

  r.get(
    '/unidades',
    { schema: { querystring: NearQuery }, attachValidation: true, ...ENCODED_BY_ROUTE },
    async (request, reply) => {
      const snap = await service.snapshot();
      const query = request.validationError ? {} : request.query;
      // A point is anyone's own position: not worth keeping. The list by city, a CEP or a
      // city name is the same page for everyone who types the same thing.
      const key =
        request.validationError || query.lat?.trim() || query.lng?.trim()
          ? null
          : `${query.cep ?? ''}\u0000${query.cidade ?? ''}`;
      const cached = key === null ? undefined : pages.get(snap, key);
      if (cached) return sendCached(reply.type(HTML), pages, cached);
      const outcome = request.validationError
        ? ({ kind: 'invalid', field: 'cidade', message: 'Busca muito longa.' } as const)
        : resolveNear(snap, query);
      const status = outcome.kind === 'invalid' ? 400 : 200;
      const html = Buffer.from(renderPage(h(UnitsPage, { snapshot: snap, query, outcome })));
      if (key === null || status !== 200) return sendFresh(reply.code(status).type(HTML), html);
      return sendCached(reply.type(HTML), pages, pages.set(snap, key, html));
    },
  );

  r.get(
    '/unidades.json',
    {
      schema: { querystring: NearQuery, response: { 200: Type.Array(NearItem), 400: ErrorBody } },
      attachValidation: true,
      ...ENCODED_BY_ROUTE,
      config: { securityHeaders: 'data' },
    },
    async (request, reply) => {
      if (request.validationError) {
        return reply
          .code(400)
          .send({ error: 'Parâmetros inválidos', message: 'Use lat, lng e limit com valores curtos.' });
      }
      const point = parsePoint(request.query.lat, request.query.lng);
      if ('error' in point) return reply.code(400).send({ error: 'Localização inválida', message: point.error });
      const limit = parseLimit(request.query.limit);
      if (typeof limit !== 'number') return reply.code(400).send({ error: 'Limite inválido', message: limit.error });
      const snap = await service.snapshot();
      // Kept by the parsed numbers ("-23.560" and "-23.56" are one answer): the answer depends
      // on nothing else, and callers often repeat a point (a city's centre, the place an IP
      // locates, a kiosk). A miss costs a lookup (docs/decisions/175).
      const key = `${point.latitude},${point.longitude},${limit}`;
      const answer =
        answers.get(snap, key) ??
        answers.set(
          snap,
          key,
          Buffer.from(reply.serialize(nearestUnits(snap.units, point, limit).map(nearJson)) as string),
        );
      return sendCached(reply.type('application/json; charset=utf-8'), answers, answer);
    },
  );
}

// "Units near me": the page (works without JavaScript: CEP or city) and the JSON list.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { unitsByDistance, type CatalogService } from './catalog.service';
import { nearJson, parseLimit, parsePoint, resolveNear } from './nearby';
import { UnitsPage } from './nearby.view';

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

  r.get('/unidades', { schema: { querystring: NearQuery }, attachValidation: true }, async (request, reply) => {
    const snap = await service.snapshot();
    const query = request.validationError ? {} : request.query;
    const outcome = request.validationError
      ? ({ kind: 'invalid', field: 'cidade', message: 'Busca muito longa.' } as const)
      : resolveNear(snap, query);
    return reply.page(h(UnitsPage, { snapshot: snap, query, outcome }), outcome.kind === 'invalid' ? 400 : 200);
  });

  r.get(
    '/unidades.json',
    { schema: { querystring: NearQuery, response: { 200: Type.Array(NearItem), 400: ErrorBody } }, attachValidation: true },
    async (request, reply) => {
      if (request.validationError) {
        return reply.code(400).send({ error: 'Parâmetros inválidos', message: 'Use lat, lng e limit com valores curtos.' });
      }
      const point = parsePoint(request.query.lat, request.query.lng);
      if ('error' in point) return reply.code(400).send({ error: 'Localização inválida', message: point.error });
      const limit = parseLimit(request.query.limit);
      if (typeof limit !== 'number') return reply.code(400).send({ error: 'Limite inválido', message: limit.error });
      const snap = await service.snapshot();
      return unitsByDistance(snap.units, point, limit).map(nearJson);
    },
  );
}

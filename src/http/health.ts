import fp from 'fastify-plugin';
import Type from 'typebox';
import { ping } from '../db/index';

const Health = Type.Object({ status: Type.String() });

export default fp(
  async (app) => {
    app.get('/healthz', { schema: { response: { 200: Health } }, config: { securityHeaders: 'json' } }, async () => ({ status: 'ok' }));
    app.get('/readyz', { schema: { response: { 200: Health, 503: Health } }, config: { securityHeaders: 'json' } }, async (request, reply) => {
      try {
        await ping(app.db);
        return { status: 'ok' };
      } catch (err) {
        request.log.warn({ err }, 'readiness: database unreachable');
        return reply.code(503).send({ status: 'database unavailable' });
      }
    });
  },
  { name: 'health', fastify: '5.x', dependencies: ['db'] },
);

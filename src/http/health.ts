import fp from 'fastify-plugin';
import Type from 'typebox';
import { ping } from '../db/index';
import { ENCODED_BY_ROUTE } from './compression';

const Health = Type.Object({ status: Type.String() });
const READY_TIMEOUT_MS = 1_000;

export default fp(
  async (app) => {
    app.get(
      '/healthz',
      { schema: { response: { 200: Health } }, ...ENCODED_BY_ROUTE, config: { securityHeaders: 'data' } },
      async () => ({ status: 'ok' }),
    );
    app.get(
      '/readyz',
      { schema: { response: { 200: Health, 503: Health } }, ...ENCODED_BY_ROUTE, config: { securityHeaders: 'data' } },
      async (request, reply) => {
        try {
          // A load balancer probes often and gives up quickly: answer within a second even
          // when connecting hangs (the pool's own timeout is longer).
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            ping(app.db),
            new Promise((_, reject) => {
              timer = setTimeout(() => reject(new Error('readiness ping timed out')), READY_TIMEOUT_MS);
            }),
          ]).finally(() => clearTimeout(timer));
          return { status: 'ok' };
        } catch (err) {
          request.log.warn({ err }, 'readiness: database unreachable');
          return reply.code(503).send({ status: 'database unavailable' });
        }
      },
    );
  },
  { name: 'health', fastify: '5.x', dependencies: ['db'] },
);

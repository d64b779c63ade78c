import fp from 'fastify-plugin';
import { sendError } from './errors';

/**
 * The 404 page. Rate limited (counted in the database, shared by every instance), so
 * scanning for URLs is slow and cheap for us. While the database is down the limit is
 * not counted and the page still answers.
 */
export default fp(
  async (app) => {
    app.setNotFoundHandler(
      { preHandler: app.rateLimitHook({ name: '404', max: 60, timeWindow: 60_000, failOpen: true }) },
      (request, reply) =>
        sendError(
          request,
          reply,
          404,
          'Página não encontrada',
          'O endereço que você abriu não existe ou foi removido.',
        ),
    );
  },
  { name: 'not-found', fastify: '5.x', dependencies: ['errors', 'ratelimit'] },
);

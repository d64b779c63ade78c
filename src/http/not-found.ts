import fp from 'fastify-plugin';
import rateLimit from '@fastify/rate-limit';
import { sendError } from './errors';

/**
 * The 404 page. Rate limited, so scanning for URLs is slow and cheap for us. Routes opt
 * into rate limits with `config.rateLimit`; nothing is limited globally.
 */
export default fp(
  async (app) => {
    await app.register(rateLimit, { global: false });
    app.setNotFoundHandler(
      { preHandler: app.rateLimit({ max: 60, timeWindow: '1 minute' }) },
      (request, reply) =>
        sendError(request, reply, 404, 'Página não encontrada', 'O endereço que você abriu não existe ou foi removido.'),
    );
  },
  { name: 'not-found', fastify: '5.x', dependencies: ['errors'] },
);

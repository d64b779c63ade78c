import fp from 'fastify-plugin';

/** Public site: home, search, unit page, benefit landing page. */
export default fp(
  async (app) => {
    app.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send('<!doctype html><title>Academia Movimento</title>'));
  },
  { name: 'feature-catalog', fastify: '5.x', dependencies: ['db', 'errors'] },
);

import fp from 'fastify-plugin';
import { createCtaRepository } from './cta.repository';
import { ctaRoutes } from './cta.routes';

/** Calls to action: counted redirects (/ir/…) and the staff clicks report (/admin/cliques). */
export default fp(
  async (app) => {
    ctaRoutes(app, createCtaRepository(app.db));
  },
  { name: 'feature-cta', fastify: '5.x', dependencies: ['db', 'errors', 'auth', 'feature-catalog'] },
);

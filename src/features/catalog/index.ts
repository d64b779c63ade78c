// The public catalog: home, unit search and unit pages, benefit landing pages, served
// from an in-memory snapshot of units, plans and modalities (dropped on content changes).
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createCatalogRepository } from './catalog.repository';
import { createCatalogService, type CatalogService } from './catalog.service';
import { catalogRoutes } from './catalog.routes';
import { nearbyRoutes } from './nearby.routes';
import { seoRoutes } from './seo.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** the public catalog: in-memory snapshot, search, unit and Pass page data */
    catalog: CatalogService;
  }
}

/**
 * Call after editing units, plans, areas, modalities or the timetable: this instance shows
 * the change at once. Other instances pick it up within CATALOG_TTL_MS (5 s).
 */
export function invalidateCatalogCache(app: FastifyInstance): void {
  app.catalog?.invalidate();
}

/** Public site: home, search, unit page, benefit landing page. */
export default fp(
  async (app) => {
    const service = createCatalogService(createCatalogRepository(app.db), {
      onStaleError: (err) => app.log.warn({ err }, 'catalog reload failed; serving the previous snapshot'),
    });
    app.decorate('catalog', service);
    catalogRoutes(app, service);
    nearbyRoutes(app, service);
    seoRoutes(app, service);
  },
  { name: 'feature-catalog', fastify: '5.x', dependencies: ['db', 'errors', 'brand'] },
);

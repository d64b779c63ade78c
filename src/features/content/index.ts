import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors';
import { invalidateCatalogCache } from '../catalog/index';
import { createAuditRepository } from './audit.repository';
import { auditRoutes } from './audit.routes';
import { catalogContentRoutes } from './catalog.routes';
import { createPlansService } from './plans.service';
import { ForbiddenError, NotFoundError, type ContentDeps } from './shared';
import { surveyRoutes } from './survey.routes';
import { createSurveyService } from './survey.service';
import { createTaxonomyService } from './taxonomy.service';
import { timetableRoutes } from './timetable.routes';
import { createTimetableService } from './timetable.service';
import { unitRoutes } from './units.routes';
import { createUnitsService } from './units.service';

export function createContentServices(deps: ContentDeps) {
  return {
    units: createUnitsService(deps),
    plans: createPlansService(deps),
    areas: createTaxonomyService(deps, 'area'),
    modalities: createTaxonomyService(deps, 'modalidade'),
    timetable: createTimetableService(deps),
    survey: createSurveyService(deps),
    audit: createAuditRepository(deps.db),
  };
}
export type ContentServices = ReturnType<typeof createContentServices>;

/** Staff screens for the chain's content and the audit log (accounts: features/identity). */
export default fp(
  async (app: FastifyInstance) => {
    // This instance drops its catalog snapshot at once; other instances refresh within the
    // catalog's TTL (5 s), so every instance shows a change within a few seconds.
    const services = createContentServices({ db: app.db, onCatalogChange: () => invalidateCatalogCache(app) });
    await app.register(async (scope) => {
      // Staff pages show accounts, audit trails and unpublished content: never cached.
      scope.addHook('onRequest', async (_request, reply) => {
        reply.header('cache-control', 'private, no-store');
      });
      // A record removed between the page and the POST: 404 page, not a 500.
      scope.setErrorHandler((error, request, reply) => {
        if (error instanceof NotFoundError) return sendError(request, reply, 404, 'Cadastro não encontrado', 'O cadastro não existe mais. Volte para a lista.');
        if (error instanceof ForbiddenError) return sendError(request, reply, 403, 'Acesso negado', 'Sua conta não tem permissão para esta página.');
        throw error;
      });
      unitRoutes(scope, services);
      catalogContentRoutes(scope, services);
      timetableRoutes(scope, services);
      surveyRoutes(scope, services);
      auditRoutes(scope, services);
    });
  },
  { name: 'feature-content', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

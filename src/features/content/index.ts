import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors';
import { withStaffSession } from '../../http/session';
import { invalidateCatalogCache } from '../catalog/index';
import { accountRoutes } from './accounts.routes';
import { createAccountsService } from './accounts.service';
import { createAuditRepository } from './shared/audit.repository';
import { catalogContentRoutes } from './plans-taxonomy/plans-taxonomy.routes';
import { createPlansService } from './plans-taxonomy/plans.service';
import { ForbiddenError, NotFoundError, type ContentDeps } from './shared/change';
import { surveyRoutes } from './survey-questions/survey-questions.routes';
import { createSurveyService } from './survey-questions/survey-questions.service';
import { createTaxonomyService } from './plans-taxonomy/taxonomy.service';
import { timetableRoutes } from './timetable/timetable.routes';
import { createTimetableService } from './timetable/timetable.service';
import { unitRoutes } from './units/units.routes';
import { createUnitsService } from './units/units.service';

export function createContentServices(deps: ContentDeps) {
  return {
    units: createUnitsService(deps),
    plans: createPlansService(deps),
    areas: createTaxonomyService(deps, 'area'),
    modalities: createTaxonomyService(deps, 'modalidade'),
    timetable: createTimetableService(deps),
    survey: createSurveyService(deps),
    accounts: createAccountsService(deps),
    audit: createAuditRepository(deps.db),
  };
}
export type ContentServices = ReturnType<typeof createContentServices>;

/** Staff screens for the chain's content, accounts and the audit log (issue 5). */
export default fp(
  async (app: FastifyInstance) => {
    // This instance drops its catalog snapshot at once; other instances refresh within the
    // catalog's TTL (5 s), so every instance shows a change within a few seconds.
    const services = createContentServices({ db: app.db, onCatalogChange: () => invalidateCatalogCache(app) });
    await app.register(withStaffSession(async (scope) => {
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
      accountRoutes(scope, services);
    }));
  },
  { name: 'feature-content', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

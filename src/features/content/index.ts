// Staff screens for the chain's content (units, plans and taxonomy, timetables, survey
// questions, catalog import/export); one folder per thing edited. Staff accounts live in
// features/identity, the audit log in features/audit.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { sendError } from '../../http/errors';
import { invalidateCatalogCache } from '../catalog/index';
import { catalogContentRoutes } from './plans-taxonomy/plans-taxonomy.routes';
import { ForbiddenError, NotFoundError } from '../../staff/errors';
import { createContentServices } from './services';
import { surveyQuestionsRoutes } from './survey-questions/survey-questions.routes';
import { timetableRoutes } from './timetable/timetable.routes';
import { unitRoutes } from './units/units.routes';

export { createContentServices, type ContentServices } from './services';

/** Staff screens for the chain's content (accounts: features/identity; audit log: features/audit). */
export default fp(
  async (app: FastifyInstance) => {
    // This instance drops its catalog snapshot at once; other instances refresh within the
    // catalog's TTL (5 s), so every instance shows a change within a few seconds.
    const services = createContentServices({ db: app.db, onCatalogChange: () => invalidateCatalogCache(app) });
    await app.register(async (scope) => {
      // Staff pages show unpublished content: never cached.
      scope.addHook('onRequest', async (_request, reply) => {
        reply.header('cache-control', 'private, no-store');
      });
      // A record removed between the page and the POST: 404 page, not a 500.
      scope.setErrorHandler((error, request, reply) => {
        if (error instanceof NotFoundError)
          return sendError(
            request,
            reply,
            404,
            'Cadastro não encontrado',
            'O cadastro não existe mais. Volte para a lista.',
          );
        if (error instanceof ForbiddenError)
          return sendError(request, reply, 403, 'Acesso negado', 'Sua conta não tem permissão para esta página.');
        throw error;
      });
      unitRoutes(scope, services);
      catalogContentRoutes(scope, services);
      timetableRoutes(scope, services);
      surveyQuestionsRoutes(scope, services);
    });
  },
  { name: 'feature-content', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity'] },
);

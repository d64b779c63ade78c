// Staff screens for the chain's content (units, plans and taxonomy, timetables, survey
// questions, catalog import/export); one folder per thing edited. Staff accounts live in
// features/identity, the audit log in features/audit.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { invalidateCatalogCache } from '../catalog/index';
import { planPriceRoutes } from './plan-prices/plan-prices.routes';
import { catalogContentRoutes } from './plans-taxonomy/plans-taxonomy.routes';
import { staffScope } from '../../staff/scope';
import { createContentServices } from './services';
import { surveyQuestionsRoutes } from './survey-questions/survey-questions.routes';
import { timetableRoutes } from './timetable/timetable.routes';
import { contentHubRoutes, unitRoutes } from './units/units.routes';

export { createContentServices } from './services';

/** Staff screens for the chain's content (accounts: features/identity; audit log: features/audit). */
export default fp(
  async (app: FastifyInstance) => {
    // This instance drops its catalog snapshot at once; other instances refresh within the
    // catalog's TTL (5 s), so every instance shows a change within a few seconds.
    const services = createContentServices({ db: app.db, onCatalogChange: () => invalidateCatalogCache(app) });
    // Staff pages show unpublished content: never stored. A record removed between the page
    // and the POST is a 404 page, not a 500.
    const guard = {
      noStore: true,
      errors: {
        notFound: { title: 'Cadastro não encontrado', message: 'O cadastro não existe mais. Volte para a lista.' },
        forbidden: { title: 'Acesso negado', message: 'Sua conta não tem permissão para esta página.' },
      },
    };
    await staffScope(app, { role: 'staff', ...guard }, (scope) => contentHubRoutes(scope, services));
    await staffScope(app, { role: 'staff', perUnit: true, ...guard }, (scope) => timetableRoutes(scope, services));
    await staffScope(app, { role: 'staff', perUnit: true, ...guard }, (scope) => planPriceRoutes(scope, services));
    await staffScope(app, { role: 'admin', ...guard }, (scope) => {
      unitRoutes(scope, services);
      catalogContentRoutes(scope, services);
      surveyQuestionsRoutes(scope, services);
    });
  },
  { name: 'feature-content', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity'] },
);

// Privacy (LGPD): the map of personal data (registry.ts), "Meus dados" for the person and
// the staff queue of requests with erasure. Owns privacidade_solicitacoes and
// privacidade_acessos; reads and erases, through the registry, every table that holds
// personal data. Features added later (consent, retention, incidents) join here.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { privacyAdminRoutes } from './admin.routes';
import { meusDadosRoutes } from './meus-dados.routes';
import { createMeusDadosService } from './meus-dados.service';
import { createPersonDataService } from './person-data.service';
import { createRequestsService } from './requests.service';
import { privacyRepositories } from './services';
import { staffScope } from '../../staff/scope';

const PURGE_EVERY_MS = 10 * 60 * 1000;

export default fp(
  async (app: FastifyInstance) => {
    const repos = privacyRepositories(app.db);
    const person = createPersonDataService({ repos, storage: app.storage, log: app.log });
    const meusDados = createMeusDadosService({
      repos,
      person,
      limits: app.rateLimits,
      config: app.config,
      log: app.log,
    });
    const requests = createRequestsService({ repos, person });
    await app.register(async (scope) => meusDadosRoutes(scope, meusDados));
    // A person's data on staff screens: never stored.
    await staffScope(app, { role: 'admin', noStore: true }, (scope) => privacyAdminRoutes(scope, requests));

    // Links and sessions of "Meus dados" past their time go away.
    if (app.config.scheduledJobs) {
      const timer = setInterval(() => {
        meusDados.purge().catch((err) => app.log.warn({ err }, 'meus dados purge failed'));
      }, PURGE_EVERY_MS);
      timer.unref();
      app.addHook('onClose', async () => clearInterval(timer));
    }
  },
  {
    name: 'feature-privacy',
    fastify: '5.x',
    dependencies: ['db', 'errors', 'forms', 'identity', 'ratelimit', 'storage'],
  },
);

// Feedback from members: the survey (NPS) and free messages with photos ("Fale aqui"),
// and the staff views of both (report, inbox, CSV exports, photos).
import fp from 'fastify-plugin';
import { faleAquiRoutes } from './messages/fale-aqui.routes';
import { createFeedbackServices } from './services';
import { homeRoutes } from './home.routes';
import { inboxRoutes } from './messages/inbox.routes';
import { posterRoutes } from './poster/poster.routes';
import { preferencesRoutes } from './digest/preferences.routes';
import { reportRoutes } from './survey/report.routes';
import { surveyRoutes } from './survey/survey.routes';
import { startDigestScheduler, type DigestService } from './digest/digest.service';
import { staffScope } from '../../staff/scope';

declare module 'fastify' {
  interface FastifyInstance {
    /** the weekly digest (tests and the jobs:digest command call run() with their own clock) */
    weeklyDigest: DigestService;
  }
}

/** Feature plugin: feedback (survey, free messages with photos, and the staff views of both). */
export default fp(
  async (app) => {
    const services = createFeedbackServices(app);
    await surveyRoutes(app, services);
    await faleAquiRoutes(app, services);
    await staffScope(app, { role: 'staff' }, async (scope) => {
      await homeRoutes(scope, { attention: services.attention, report: services.surveyReport });
      await reportRoutes(scope, services.surveyReport);
      await inboxRoutes(scope, { messages: services.messages, report: services.surveyReport });
      await posterRoutes(scope, services.surveyReport);
      await preferencesRoutes(scope, services.digest);
    });

    const digest = services.digest;
    app.decorate('weeklyDigest', digest);
    if (app.config.scheduledJobs && app.config.smtp) {
      let scheduler: { stop(): Promise<void> } | null = null;
      app.addHook('onReady', async () => {
        scheduler = startDigestScheduler(digest, { log: app.log });
      });
      app.addHook('onClose', async () => {
        await scheduler?.stop();
      });
    }
  },
  { name: 'feature-feedback', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity', 'storage'] },
);

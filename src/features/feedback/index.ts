// Feedback from members: the survey (NPS) and free messages with photos ("Fale aqui"),
// and the staff views of both (report, inbox, CSV exports, photos).
import fp from 'fastify-plugin';
import { faleAquiRoutes } from './fale-aqui.routes';
import { createFeedbackServices } from './services';
import { staffRoutes } from './staff.routes';
import { surveyRoutes } from './survey.routes';

/** Feature plugin: feedback (survey, free messages with photos, and the staff views of both). */
export default fp(
  async (app) => {
    const services = createFeedbackServices(app);
    await surveyRoutes(app, services);
    await faleAquiRoutes(app, services);
    await app.register((scope) => staffRoutes(scope, services));
  },
  { name: 'feature-feedback', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

import fp from 'fastify-plugin';
import { faleAquiRoutes } from './fale-aqui.routes';
import { staffRoutes } from './staff.routes';
import { surveyRoutes } from './survey.routes';

/** Feature plugin: feedback (survey, free messages with photos, and the staff views of both). */
export default fp(
  async (app) => {
    await surveyRoutes(app);
    await faleAquiRoutes(app);
    await app.register(staffRoutes);
  },
  { name: 'feature-feedback', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

import fp from 'fastify-plugin';
import { surveyRoutes } from './survey.routes';

/** Feature plugin: feedback (survey, free messages with photos, and the staff views of both). */
export default fp(
  async (app) => {
    await surveyRoutes(app);
  },
  { name: 'feature-feedback', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

import fp from 'fastify-plugin';
import panelRoutes from './panel.routes';
import formRoutes from './form.routes';

/** Franchise: the public lead form and the staff lead panel. */
export default fp(
  async (app) => {
    await app.register(formRoutes);
    await app.register(panelRoutes);
  },
  { name: 'feature-franchise', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

// Franchise leads: the public lead form (stored, notified by e-mail) and the staff lead
// panel (filters, CSV export, status, notes, deletion).
import fp from 'fastify-plugin';
import panelRoutes from './panel.routes';
import formRoutes from './form.routes';
import { createPanelService } from './panel.service';

/** Franchise: the public lead form and the staff lead panel. */
export default fp(
  async (app) => {
    await app.register(formRoutes);
    const panel = createPanelService(app.db);
    await app.register((scope) => panelRoutes(scope, panel));
  },
  { name: 'feature-franchise', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

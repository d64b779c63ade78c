// Franchise leads: the public lead form (stored, notified by e-mail) and the staff lead
// panel (filters, CSV export, status, notes, deletion).
import fp from 'fastify-plugin';
import { exportDb } from '../../db/index';
import { transactional } from '../../db/transactional';
import panelRoutes from './panel.routes';
import formRoutes from './form.routes';
import { createLeadService } from './lead.service';
import { createLeadsRepository } from './leads.repository';
import { createPanelService } from './panel.service';

/** Franchise: the public lead form and the staff lead panel. */
export default fp(
  async (app) => {
    const repo = transactional(app.db, createLeadsRepository);
    const leads = createLeadService({ repo, config: app.config });
    await app.register((scope) => formRoutes(scope, leads));
    const panel = createPanelService(
      repo,
      createLeadsRepository(app.readDb),
      createLeadsRepository(exportDb(app.db, app.readDb)),
    );
    await app.register((scope) => panelRoutes(scope, panel));
  },
  { name: 'feature-franchise', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity'] },
);

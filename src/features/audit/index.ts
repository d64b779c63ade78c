// The audit log: who changed what on the staff screens (table `auditoria`, written inside
// each change's transaction by content and identity) and its admin page /admin/auditoria.
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createAuditRepository } from './audit.repository';
import { auditRoutes } from './audit.routes';
import { createAuditService } from './audit.service';
import { staffScope } from '../../staff/scope';

export default fp(
  async (app: FastifyInstance) => {
    const service = createAuditService(createAuditRepository(app.db));
    // Audit trails are staff-only: never stored.
    await staffScope(app, { role: 'admin', noStore: true }, (scope) => auditRoutes(scope, service));
  },
  { name: 'feature-audit', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity'] },
);

// The mail diagnostic page (admins): the SMTP settings in use, a test message through the
// outbox and the outbox's state. Sign-in, accounts and passwords live in features/identity.
import fp from 'fastify-plugin';
import { createOutboxRepository } from './index';
import diagnosticRoutes from './diagnostic.routes';
import { createDiagnosticService } from './diagnostic.service';
import { staffScope } from '../../staff/scope';

/**
 * The mail diagnostic page (admins). Accounts, login and sessions: features/identity.
 */
export default fp(
  async (app) => {
    const diagnostic = createDiagnosticService(createOutboxRepository(app.db));
    await staffScope(app, { role: 'admin' }, (scope) => diagnosticRoutes(scope, diagnostic));
  },
  { name: 'mail-diagnostic', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity'] },
);

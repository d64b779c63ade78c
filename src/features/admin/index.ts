// The mail diagnostic page (admins): SMTP settings, outbox counts and a live SMTP test.
// Staff sign-in, accounts and sessions live in features/identity.
import fp from 'fastify-plugin';
import { createOutboxRepository } from '../mail/index';
import diagnosticRoutes from './mail-diagnostic.routes';
import { createDiagnosticService } from './mail-diagnostic.service';

/**
 * The mail diagnostic page (admins). Accounts, login and sessions: features/identity.
 */
export default fp(
  async (app) => {
    const diagnostic = createDiagnosticService(createOutboxRepository(app.db));
    await app.register((scope) => diagnosticRoutes(scope, diagnostic));
  },
  { name: 'feature-admin', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

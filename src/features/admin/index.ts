// The mail diagnostic page (admins): the SMTP settings in use, a test message through the
// outbox and the outbox's state. Sign-in, accounts and passwords live in features/identity.
import fp from 'fastify-plugin';
import diagnosticRoutes from './mail-diagnostic.routes';

/**
 * The mail diagnostic page (admins). Accounts, login and sessions: features/identity.
 */
export default fp(
  async (app) => {
    await app.register(diagnosticRoutes);
  },
  { name: 'feature-admin', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

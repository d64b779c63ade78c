// Staff sign-in: the login and logout pages, staff accounts' passwords and login
// throttling, and the mail diagnostic page.
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

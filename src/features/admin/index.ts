// Staff sign-in: the login and logout pages, staff accounts' passwords and login
// throttling, and the mail diagnostic page.
import fp from 'fastify-plugin';
import { createLoginService } from './login.service';
import { withStaffSession } from '../../http/session';
import diagnosticRoutes from './mail-diagnostic.routes';

/**
 * Staff accounts and the mail diagnostic page. Login/logout share the franchise
 * panel's path (/pages/Franquia/admin.php): see features/franchise/panel.routes.tsx.
 */
export default fp(
  async (app) => {
    await app.register(withStaffSession(diagnosticRoutes));
    // Failed-login rows older than the window no longer count: drop them now and then.
    const timer = setInterval(() => {
      createLoginService(app.db)
        .purge()
        .catch((err) => app.log.warn({ err }, 'login attempt purge failed'));
    }, 10 * 60 * 1000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'feature-admin', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

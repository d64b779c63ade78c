// Staff identity and access: accounts, password hashing, login attempts and lockout,
// sessions, roles, the per-unit access check, the accounts screens and password reset.
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, wantsJson } from '../../http/errors';
import { staffScope } from '../../staff/scope';
import { accountRoutes } from './accounts.routes';
import { createAccountsService } from './accounts.service';
import { ADMIN_PATH } from './login.routes';
import { createLoginService } from './login.service';
import { passwordResetRoutes } from './password-reset.routes';
import { createPasswordResetService } from './password-reset.service';
import { identityRepositories } from './services';
import { createSessions, type SessionState } from './sessions';
import { countJob } from '../../platform/metrics/metrics';

export function createIdentityServices(app: Pick<FastifyInstance, 'db' | 'config' | 'log'>) {
  const repos = identityRepositories(app.db);
  const repo = repos.identity;
  const sessions = createSessions(repo);
  return {
    repo,
    sessions,
    login: createLoginService(repo),
    accounts: createAccountsService({ repos }),
    reset: createPasswordResetService({ repo, config: app.config, log: app.log }),
  };
}

// request.staff, app.requireStaff and app.requireAdmin, which this plugin provides, are
// declared with the staff kit (src/staff/access.ts), which uses them.
declare module 'fastify' {
  interface FastifyInstance {
    identity: ReturnType<typeof createIdentityServices> & {
      /** The request's session, read once per request. */
      state(request: FastifyRequest): Promise<SessionState>;
    };
  }
}

const PURGE_EVERY_MS = 10 * 60 * 1000;

export default fp(
  async (app) => {
    const services = createIdentityServices(app);
    // Read lazily and once per request: public pages never touch sessions at all.
    const states = new WeakMap<FastifyRequest, Promise<SessionState>>();
    const state = (request: FastifyRequest) => {
      let s = states.get(request);
      if (!s) {
        s = services.sessions.read(request);
        states.set(request, s);
      }
      return s;
    };
    app.decorate('identity', { ...services, state });
    app.decorateRequest('staff', null);

    app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
      const s = await state(request);
      if (s.kind === 'active') {
        const unidadeIds = s.staff.papel === 'admin' ? [] : await services.repo.unitIds(s.staff.id);
        request.staff = { ...s.staff, unidadeIds };
        return;
      }
      if (request.cookies?.sid) services.sessions.clearCookie(request, reply);
      if (wantsJson(request)) {
        await reply.code(401).send({ error: 'Login necessário', message: 'Faça login para continuar.' });
        return;
      }
      const back = request.method === 'GET' ? `?voltar=${encodeURIComponent(request.url)}` : '';
      await reply.redirect(`${ADMIN_PATH}${back}`, 303);
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.requireStaff(request, reply);
      if (reply.sent) return;
      if (request.staff?.papel !== 'admin') {
        await sendError(request, reply, 403, 'Acesso negado', 'Sua conta não tem permissão para esta página.');
      }
    });

    passwordResetRoutes(app, services.reset);
    // Account pages are never stored; a record removed between page and POST is a 404.
    await staffScope(
      app,
      {
        role: 'admin',
        noStore: true,
        errors: {
          notFound: { title: 'Conta não encontrada', message: 'A conta não existe mais. Volte para a lista.' },
        },
      },
      (scope) => accountRoutes(scope, services.accounts),
    );

    // Expired sessions, login attempts out of the window and old reset links go away.
    const timer = setInterval(() => {
      countJob('identity_purge', () =>
        Promise.all([services.sessions.purge(), services.login.purge(), services.reset.purge()]),
      ).catch((err) => app.log.warn({ err }, 'identity purge failed'));
    }, PURGE_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'identity', fastify: '5.x', dependencies: ['db', 'errors', 'forms'] },
);

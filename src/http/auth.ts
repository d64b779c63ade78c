import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { currentUserId } from './session';
import { sendError, wantsJson } from './errors';

export interface StaffUser {
  id: number;
  email: string;
  nome: string;
  papel: 'admin' | 'gerente';
  /** units a "gerente" may see; empty for admins (who see all) */
  unidadeIds: number[];
}

declare module 'fastify' {
  interface FastifyRequest {
    staff: StaffUser | null;
  }
  interface FastifyInstance {
    /** preHandler: lets logged-in, active staff through; others go to the login page. */
    requireStaff(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** preHandler: admins only (403 for a unit manager). */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

export const LOGIN_PATH = '/pages/Franquia/admin.php';

export default fp(
  async (app) => {
    app.decorateRequest('staff', null);

    async function loadStaff(request: FastifyRequest): Promise<StaffUser | null> {
      const userId = await currentUserId(request);
      if (!userId) return null;
      const user = await app.db
        .selectFrom('usuarios')
        .select(['id', 'email', 'nome', 'papel'])
        .where('id', '=', userId)
        .where('ativo', '=', 1)
        .executeTakeFirst();
      if (!user) {
        // Disabled or deleted while logged in: the session ends now.
        await request.session.destroy();
        return null;
      }
      const units =
        user.papel === 'admin'
          ? []
          : (await app.db.selectFrom('usuarios_unidades').select('unidade_id').where('usuario_id', '=', user.id).execute()).map(
              (r) => r.unidade_id,
            );
      return { ...user, papel: user.papel === 'gerente' ? 'gerente' : 'admin', unidadeIds: units };
    }

    app.decorate('requireStaff', async (request: FastifyRequest, reply: FastifyReply) => {
      request.staff = await loadStaff(request);
      if (request.staff) return;
      if (wantsJson(request)) {
        await reply.code(401).send({ error: 'Faça login para continuar.' });
        return;
      }
      const back = request.method === 'GET' ? `?voltar=${encodeURIComponent(request.url)}` : '';
      await reply.redirect(`${LOGIN_PATH}${back}`, 303);
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      await app.requireStaff(request, reply);
      if (reply.sent) return;
      if (request.staff?.papel !== 'admin') {
        await sendError(request, reply, 403, 'Acesso negado', 'Sua conta não tem permissão para esta página.');
      }
    });
  },
  { name: 'auth', fastify: '5.x', dependencies: ['db', 'session', 'errors'] },
);

/** Props for the staff layout: name and a CSRF token for the logout button. */
export function staffLayout(request: FastifyRequest, reply: FastifyReply) {
  return request.staff
    ? { name: request.staff.nome, csrfToken: reply.generateCsrf(), papel: request.staff.papel }
    : null;
}

// /pages/Franquia/admin.php: the staff login (when nobody is logged in) and the lead panel.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError } from '../../http/errors';
import { staffLayout } from '../../http/auth';
import { ADMIN_PATH, handleLogin, handleLogout, safeReturnPath, showLogin } from '../admin/login.routes';
import { Layout } from '../../views/layout';

const Query = Type.Record(Type.String(), Type.Unknown());
const Body = Type.Record(Type.String(), Type.Unknown());

export default async function panelRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(ADMIN_PATH, { schema: { querystring: Query } }, async (request, reply) => {
    const q = request.query as Record<string, unknown>;
    if (!request.session.userId) {
      return showLogin(request, reply, {
        voltar: safeReturnPath(q.voltar),
        notice: q.saiu ? 'Você saiu da área da equipe.' : undefined,
      });
    }
    // A stale session (idle/absolute expiry, disabled account) is sent back here to log in.
    await app.requireStaff(request, reply);
    if (reply.sent) return reply;
    if (request.staff?.papel !== 'admin') {
      return sendError(request, reply, 403, 'Acesso negado', 'Os leads de franquia são visíveis apenas para administradores.');
    }
    reply.header('cache-control', 'no-store');
    return reply.page(
      h(Layout, { title: 'Leads de franquia', staff: staffLayout(request, reply), children: h('h1', null, 'Leads de franquia') }),
    );
  });

  r.post(ADMIN_PATH, { schema: { body: Body }, preHandler: app.csrfProtection }, async (request, reply) => {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const acao = typeof body.acao === 'string' ? body.acao : 'entrar';
    if (acao === 'sair') return handleLogout(request, reply);
    if (acao === 'entrar') return handleLogin(request, reply, body);
    await app.requireAdmin(request, reply);
    if (reply.sent) return reply;
    return sendError(request, reply, 400, 'Ação desconhecida', 'A ação pedida não existe.');
  });
}

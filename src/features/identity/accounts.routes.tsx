// Staff accounts screens (admin only): /admin/contas, /nova, /:id, /:id/senha, /:id/ativo.
import { invalidBody } from '../../http/errors';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { done, FormBody, formValues, IdParams, NoticeQuery, notFound, sendInvalid, staffProps } from '../../staff/http';
import type { FieldErrors } from '../../staff/validation';
import type { AccountsService } from './accounts.service';
import { AccountFormPage, AccountsListPage } from './accounts.view';
import { ListQuery, listPage } from '../../staff/list';
import { sessionKey } from './sessions';

export function accountRoutes(app: FastifyInstance, accounts: AccountsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };

  async function editPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: {
      errors?: FieldErrors;
      values?: Record<string, string | string[]>;
      passwordErrors?: FieldErrors;
      activeErrors?: FieldErrors;
      notice?: string;
    } = {},
    status = 200,
  ) {
    const user = await accounts.get(id);
    if (!user) return notFound(request, reply, 'Conta não encontrada');
    const values = extra.values ?? { nome: user.nome, papel: user.papel, unidades: user.unidadeIds.map(String) };
    return reply.page(
      <AccountFormPage
        staff={staffProps(request, reply)}
        user={user}
        values={values}
        units={await accounts.units()}
        {...extra}
      />,
      status,
    );
  }

  r.get('/admin/contas', { ...admin, schema: { querystring: ListQuery } }, async (request, reply) => {
    const { items, list } = listPage(
      await accounts.list(),
      request.query,
      '/admin/contas',
      (u) => `${u.nome} ${u.email} ${u.unidades.join(' ')}`,
    );
    return reply.page(
      <AccountsListPage staff={staffProps(request, reply)} users={items} list={list} notice={request.query.ok} />,
    );
  });
  r.get('/admin/contas/nova', admin, async (request, reply) =>
    reply.page(
      <AccountFormPage
        staff={staffProps(request, reply)}
        user={null}
        values={{ papel: 'gerente' }}
        units={await accounts.units()}
      />,
    ),
  );
  r.post(
    '/admin/contas/nova',
    { ...adminPost, schema: { body: FormBody }, config: { formPath: '/admin/contas/nova' } },
    async (request, reply) => {
      const result = await accounts.create({ id: request.staff!.id }, request.body);
      if (!result.ok) {
        const units = await accounts.units();
        return sendInvalid(request, reply, result.errors, () => (
          <AccountFormPage
            staff={staffProps(request, reply)}
            user={null}
            values={formValues(request.body)}
            errors={result.errors}
            units={units}
          />
        ));
      }
      return done(request, reply, `/admin/contas/${result.value.id}?ok=criado`, { id: result.value.id });
    },
  );
  r.get(
    '/admin/contas/:id',
    { ...admin, schema: { params: IdParams, querystring: NoticeQuery } },
    async (request, reply) => editPage(request, reply, request.params.id, { notice: request.query.ok }),
  );
  r.post(
    '/admin/contas/:id',
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await accounts.get(id))) return notFound(request, reply, 'Conta não encontrada');
      const result = await accounts.update({ id: request.staff!.id }, id, request.body);
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return editPage(request, reply, id, { values: formValues(request.body), errors: result.errors }, 422);
      }
      return done(request, reply, `/admin/contas/${id}?ok=salvo`, { id });
    },
  );
  r.post(
    '/admin/contas/:id/senha',
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: '/admin/contas' } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await accounts.get(id))) return notFound(request, reply, 'Conta não encontrada');
      // Changing one's own password keeps the current session; every other one ends.
      const sid = request.cookies.sid;
      const result = await accounts.resetPassword(
        { id: request.staff!.id, sessionId: sid ? sessionKey(sid) : undefined },
        id,
        request.body,
      );
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return editPage(request, reply, id, { passwordErrors: result.errors }, 422);
      }
      return done(request, reply, `/admin/contas/${id}?ok=senha`);
    },
  );
  r.post(
    '/admin/contas/:id/ativo',
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: '/admin/contas' } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await accounts.get(id))) return notFound(request, reply, 'Conta não encontrada');
      const active = request.body.ativo === '1';
      const result = await accounts.setActive({ id: request.staff!.id }, id, active);
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return editPage(request, reply, id, { activeErrors: result.errors }, 422);
      }
      return done(request, reply, `/admin/contas/${id}?ok=${active ? 'ativado' : 'desativado'}`, { ativo: active });
    },
  );
}

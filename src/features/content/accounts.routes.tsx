// Staff accounts and the audit log (admin only).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AccountFormPage, AccountsListPage, AUDIT_ENTITIES, AuditPage } from './accounts.view';
import { done, FormBody, formValues, IdParams, NoticeQuery, notFound, sendInvalid, staffProps } from './shared/http';
import type { ContentServices } from './services';
import type { FieldErrors } from './shared/validation';

const AUDIT_PAGE_SIZE = 50;
const AuditQuery = Type.Object({
  entidade: Type.Optional(Type.String({ maxLength: 40 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

export function accountRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };

  async function editPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: { errors?: FieldErrors; values?: Record<string, string | string[]>; passwordErrors?: FieldErrors; activeErrors?: FieldErrors; notice?: string } = {},
    status = 200,
  ) {
    const user = await s.accounts.get(id);
    if (!user) return notFound(request, reply, 'Conta não encontrada');
    const values = extra.values ?? { nome: user.nome, papel: user.papel, unidades: user.unidadeIds.map(String) };
    return reply.page(<AccountFormPage staff={staffProps(request, reply)} user={user} values={values} units={await s.units.list()} {...extra} />, status);
  }

  r.get('/admin/contas', { ...admin, schema: { querystring: NoticeQuery } }, async (request, reply) =>
    reply.page(<AccountsListPage staff={staffProps(request, reply)} users={await s.accounts.list()} notice={request.query.ok} />),
  );
  r.get('/admin/contas/nova', admin, async (request, reply) =>
    reply.page(<AccountFormPage staff={staffProps(request, reply)} user={null} values={{ papel: 'gerente' }} units={await s.units.list()} />),
  );
  r.post('/admin/contas/nova', { ...adminPost, schema: { body: FormBody }, config: { formPath: '/admin/contas/nova' } }, async (request, reply) => {
    const result = await s.accounts.create({ id: request.staff!.id }, request.body);
    if (!result.ok) {
      const units = await s.units.list();
      return sendInvalid(request, reply, result.errors, () => <AccountFormPage staff={staffProps(request, reply)} user={null} values={formValues(request.body)} errors={result.errors} units={units} />);
    }
    return done(request, reply, `/admin/contas/${result.value.id}?ok=criado`, { id: result.value.id });
  });
  r.get('/admin/contas/:id', { ...admin, schema: { params: IdParams, querystring: NoticeQuery } }, async (request, reply) =>
    editPage(request, reply, request.params.id, { notice: request.query.ok }),
  );
  r.post('/admin/contas/:id', { ...adminPost, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
    const id = request.params.id;
    if (!(await s.accounts.get(id))) return notFound(request, reply, 'Conta não encontrada');
    const result = await s.accounts.update({ id: request.staff!.id }, id, request.body);
    if (!result.ok) {
      if (request.headers.accept?.includes('application/json')) return reply.code(422).send({ errors: result.errors });
      return editPage(request, reply, id, { values: formValues(request.body), errors: result.errors }, 422);
    }
    return done(request, reply, `/admin/contas/${id}?ok=salvo`, { id });
  });
  r.post('/admin/contas/:id/senha', { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: '/admin/contas' } }, async (request, reply) => {
    const id = request.params.id;
    if (!(await s.accounts.get(id))) return notFound(request, reply, 'Conta não encontrada');
    const result = await s.accounts.resetPassword({ id: request.staff!.id }, id, request.body);
    if (!result.ok) {
      if (request.headers.accept?.includes('application/json')) return reply.code(422).send({ errors: result.errors });
      return editPage(request, reply, id, { passwordErrors: result.errors }, 422);
    }
    return done(request, reply, `/admin/contas/${id}?ok=senha`);
  });
  r.post('/admin/contas/:id/ativo', { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: '/admin/contas' } }, async (request, reply) => {
    const id = request.params.id;
    if (!(await s.accounts.get(id))) return notFound(request, reply, 'Conta não encontrada');
    const active = request.body.ativo === '1';
    const result = await s.accounts.setActive({ id: request.staff!.id }, id, active);
    if (!result.ok) {
      if (request.headers.accept?.includes('application/json')) return reply.code(422).send({ errors: result.errors });
      return editPage(request, reply, id, { activeErrors: result.errors }, 422);
    }
    return done(request, reply, `/admin/contas/${id}?ok=${active ? 'ativado' : 'desativado'}`, { ativo: active });
  });

  r.get('/admin/auditoria', { ...admin, schema: { querystring: AuditQuery } }, async (request, reply) => {
    const entidade = AUDIT_ENTITIES.some((e) => e.value === request.query.entidade) ? request.query.entidade! : '';
    const total = await s.audit.count({ entidade: entidade || undefined });
    const pages = Math.max(1, Math.ceil(total / AUDIT_PAGE_SIZE));
    const asked = Number.parseInt(request.query.pagina ?? '1', 10);
    // An out-of-range page shows the nearest real page instead of an empty list.
    const page = Number.isFinite(asked) ? Math.min(Math.max(asked, 1), pages) : 1;
    const rows = await s.audit.list({ entidade: entidade || undefined }, AUDIT_PAGE_SIZE, (page - 1) * AUDIT_PAGE_SIZE);
    if (request.headers.accept?.includes('application/json') && !request.headers.accept.includes('text/html')) {
      return reply.send({ total, pagina: page, paginas: pages, itens: rows });
    }
    return reply.page(<AuditPage staff={staffProps(request, reply)} entidade={entidade} page={page} pages={pages} total={total} rows={rows} />);
  });
}

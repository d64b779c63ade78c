// The audit log (admin only): /admin/auditoria?entidade=&pagina=
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AUDIT_ENTITIES, AuditPage } from './audit.view';
import { staffProps } from '../shared/http';
import type { ContentServices } from '../services';

const AUDIT_PAGE_SIZE = 50;
const AuditQuery = Type.Object({
  entidade: Type.Optional(Type.String({ maxLength: 40 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

export function auditRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };

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

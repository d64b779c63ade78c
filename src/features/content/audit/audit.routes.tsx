// The audit log (admin only): /admin/auditoria?entidade=&pagina=
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AUDIT_ENTITIES, AuditPage } from './audit.view';
import { staffProps } from '../shared/http';
import type { ContentServices } from '../services';
import { LIST_PAGE_SIZE } from '../shared/list';
import { pageWindow } from '../../../lib/pagination';

const AuditQuery = Type.Object({
  entidade: Type.Optional(Type.String({ maxLength: 40 })),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

export function auditRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };

  r.get('/admin/auditoria', { ...admin, schema: { querystring: AuditQuery } }, async (request, reply) => {
    const entidade = AUDIT_ENTITIES.some((e) => e.value === request.query.entidade) ? request.query.entidade! : '';
    const q = (request.query.q ?? '').trim();
    const filter = { entidade: entidade || undefined, text: q || undefined };
    // An out-of-range page shows the last real page instead of an empty list.
    const info = pageWindow(await s.audit.count(filter), LIST_PAGE_SIZE, request.query.pagina);
    const rows = await s.audit.list(filter, info.size, info.offset);
    if (request.headers.accept?.includes('application/json') && !request.headers.accept.includes('text/html')) {
      return reply.send({ total: info.total, pagina: info.page, paginas: info.pages, itens: rows });
    }
    const list = { ...info, path: '/admin/auditoria', q, params: entidade ? { entidade } : undefined };
    return reply.page(<AuditPage staff={staffProps(request, reply)} entidade={entidade} list={list} rows={rows} />);
  });
}

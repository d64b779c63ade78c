// The audit log (admin only): /admin/auditoria?entidade=&pagina=
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AUDIT_ENTITIES, AuditPage } from './audit.view';
import { staffProps } from '../../staff/http';
import type { AuditService } from './audit.service';

const AuditQuery = Type.Object({
  entidade: Type.Optional(Type.String({ maxLength: 40 })),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

export function auditRoutes(app: FastifyInstance, service: AuditService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };

  r.get('/admin/auditoria', { ...admin, schema: { querystring: AuditQuery } }, async (request, reply) => {
    const entidade = AUDIT_ENTITIES.some((e) => e.value === request.query.entidade) ? request.query.entidade! : '';
    const q = (request.query.q ?? '').trim();
    const filter = { entidade: entidade || undefined, text: q || undefined };
    // An out-of-range page shows the last real page instead of an empty list.
    const { info, rows } = await service.page(filter, request.query.pagina);
    if (request.headers.accept?.includes('application/json') && !request.headers.accept.includes('text/html')) {
      return reply.send({ total: info.total, pagina: info.page, paginas: info.pages, itens: rows });
    }
    const list = { ...info, path: '/admin/auditoria', q, params: entidade ? { entidade } : undefined };
    return reply.page(<AuditPage staff={staffProps(request, reply)} entidade={entidade} list={list} rows={rows} />);
  });
}

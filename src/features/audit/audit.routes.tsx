// The audit log (admin only, the staff scope of index.ts): /admin/auditoria?entidade=&pagina=
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { AUDIT_ENTITIES, AuditPage } from './audit.view';
import type { AuditService } from './audit.service';

const AuditQuery = Type.Object({
  entidade: Type.Optional(Type.String({ maxLength: 40 })),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

export function auditRoutes(app: FastifyInstance, service: AuditService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get('/admin/auditoria', { schema: { querystring: AuditQuery } }, async (request, reply) => {
    const entidade = AUDIT_ENTITIES.some((e) => e.value === request.query.entidade) ? request.query.entidade! : '';
    const q = (request.query.q ?? '').trim();
    const filter = { entidade: entidade || undefined, text: q || undefined };
    // An out-of-range page shows the last real page instead of an empty list.
    const { info, rows } = await service.page(filter, request.query.pagina);
    if (request.headers.accept?.includes('application/json') && !request.headers.accept.includes('text/html')) {
      return reply.send({ total: info.total, pagina: info.page, paginas: info.pages, itens: rows });
    }
    const list = { ...info, path: '/admin/auditoria', q, params: entidade ? { entidade } : undefined };
    return reply.page(<AuditPage staff={request.staffPage} entidade={entidade} list={list} rows={rows} />);
  });
}

// /admin/privacidade (admins only): the queue, /busca (one person across the site), a
// request opened by staff (POST), one request (/:id) with /concluir, /recusar, /eliminar,
// and /:id/dados.zip (the person's data, for an access asked at the front desk). Guards and
// CSRF: the staff scope (index.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { nowIso } from '../../db/index';
import { newEnvioId } from '../../lib/form/index';
import { done, FormBody, formValues, IdParams, notFound } from '../../staff/http';
import { staffOf } from '../../staff/scope';
import { formPost, refuse } from '../../staff/screens';
import { sendError } from '../../http/errors';
import { ADMIN_PRIVACY_PATH, QueuePage, RequestPage, SearchPage } from './admin.view';
import type { RequestsService } from './requests.service';

const QueueQuery = Type.Object({
  status: Type.Optional(Type.String({ maxLength: 20 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});
// Longer than any e-mail or phone: the search answers "invalid" by the field rather than a bare 400.
const SearchQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 2000 })) });
const DetailQuery = Type.Object({ ok: Type.Optional(Type.String({ maxLength: 40 })) });

export function privacyAdminRoutes(app: FastifyInstance, service: RequestsService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  async function detailPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: { notice?: string; errors?: Record<string, string> } = {},
    status = 200,
  ) {
    const d = await service.detail(id);
    if (!d) return notFound(request, reply, 'Pedido não encontrado');
    const page = () => h(RequestPage, { staff: request.staffPage, ...d, now: nowIso(), ...extra });
    if (status === 422) return refuse(request, reply, extra.errors ?? {}, page);
    return reply.page(page(), status);
  }

  const closed = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(request, reply, 409, 'Pedido já encerrado', 'Este pedido já foi concluído ou recusado por alguém.');

  r.get(ADMIN_PRIVACY_PATH, { schema: { querystring: QueueQuery } }, async (request, reply) => {
    const q = await service.queue(request.query.status ?? '', request.query.pagina);
    return reply.page(
      h(QueuePage, { staff: request.staffPage, rows: q.rows, info: q.info, status: q.status, now: nowIso() }),
    );
  });

  r.get(`${ADMIN_PRIVACY_PATH}/busca`, { schema: { querystring: SearchQuery } }, async (request, reply) => {
    const q = request.query.q ?? '';
    const result = await service.search(q);
    const base = { staff: request.staffPage, q, envioId: newEnvioId() };
    if (result.kind === 'invalid') return reply.page(h(SearchPage, { ...base, error: result.error }), 422);
    if (result.kind === 'empty') return reply.page(h(SearchPage, base));
    return reply.page(h(SearchPage, { ...base, subject: result.subject, overview: result.overview }));
  });

  formPost(app, ADMIN_PRIVACY_PATH, {
    params: 'none',
    save: async ({ actor, body, request }) => {
      const result = await service.open(body, actor.id);
      if (!result.ok) return result;
      request.log.info({ requestId: result.id }, 'privacy request opened by staff');
      return { ok: true, value: result.id };
    },
    refused: ({ request, body }, errors) =>
      h(SearchPage, {
        staff: request.staffPage,
        q: '',
        values: formValues(body),
        errors,
        envioId: typeof body.envio_id === 'string' ? body.envio_id : newEnvioId(),
      }),
    saved: (id) => ({ to: `${ADMIN_PRIVACY_PATH}/${id}?ok=aberto`, data: { id } }),
  });

  r.get(
    `${ADMIN_PRIVACY_PATH}/:id`,
    { schema: { params: IdParams, querystring: DetailQuery } },
    async (request, reply) => detailPage(request, reply, request.params.id, { notice: request.query.ok }),
  );

  r.get(`${ADMIN_PRIVACY_PATH}/:id/dados.zip`, { schema: { params: IdParams } }, async (request, reply) => {
    const zip = await service.exportZip(request.params.id);
    if (!zip) return notFound(request, reply, 'Pedido não encontrado');
    request.log.info({ requestId: request.params.id }, 'privacy export downloaded by staff');
    return reply
      .type('application/zip')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `attachment; filename="pedido-${request.params.id}.zip"`)
      .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
  });

  for (const status of ['concluida', 'recusada'] as const) {
    const path = status === 'concluida' ? 'concluir' : 'recusar';
    r.post(
      `${ADMIN_PRIVACY_PATH}/:id/${path}`,
      { schema: { params: IdParams, body: FormBody } },
      async (request, reply) => {
        const id = request.params.id;
        const result = await service.close(id, staffOf(request).id, status, request.body as Record<string, unknown>);
        if (!result.ok && 'notFound' in result) return notFound(request, reply, 'Pedido não encontrado');
        if (!result.ok && 'closed' in result) return closed(request, reply);
        if (!result.ok) return detailPage(request, reply, id, { errors: result.errors }, 422);
        request.log.info({ requestId: id, status }, 'privacy request closed');
        return done(request, reply, `${ADMIN_PRIVACY_PATH}/${id}?ok=${status}`);
      },
    );
  }

  r.post(
    `${ADMIN_PRIVACY_PATH}/:id/eliminar`,
    { schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      const result = await service.erase(id, staffOf(request).id, request.body as Record<string, unknown>);
      if (result.kind === 'not-found') return notFound(request, reply, 'Pedido não encontrado');
      if (result.kind === 'closed') return closed(request, reply);
      if (result.kind === 'invalid') return detailPage(request, reply, id, { errors: result.errors }, 422);
      request.log.info({ requestId: id, tables: result.counts, files: result.files }, 'privacy erasure carried out');
      return done(request, reply, `${ADMIN_PRIVACY_PATH}/${id}?ok=eliminado`, { tabelas: result.counts });
    },
  );
}

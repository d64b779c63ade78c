// The message inbox: list, CSV export, one message (read, reply, status) and its photos.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import type { FastifyRequest } from 'fastify';
import { invalidBody, sendError, wantsJson } from '../../../http/errors';
import { EXPORT_COMPRESSION } from '../../../http/compression';
import { canAccessUnit } from '../../../staff/access';
import { saoPauloDay } from '../../../lib/time';
import {
  OptionalId,
  privatePage,
  scopeOf,
  sendCsvExport,
  unitForbidden,
  visibleUnits as unitsOf,
} from '../../../staff/reports';
import { resolvePeriod } from '../survey/nps';
import type { SurveyReportService } from '../survey/report.service';
import { toStatus, type MessagesAdminService, type StaffRef } from './inbox.service';
import { INBOX_PATH, InboxPage, MessagePage } from './inbox.view';
import { staffOf } from '../../../staff/scope';
import { FormBody, IdParams } from '../../../staff/http';

const InboxQuery = Type.Object({
  unidade_id: OptionalId,
  // The four statuses, and the older three from bookmarks (mapped by toStatus).
  status: Type.Optional(
    Type.Union(
      ['', 'nova', 'lida', 'respondida', 'resolvida', 'novo', 'lido', 'resolvido'].map((s) => Type.Literal(s)),
    ),
  ),
  pagina: OptionalId,
});

export async function inboxRoutes(
  app: FastifyInstance,
  { messages, report }: { messages: MessagesAdminService; report: SurveyReportService },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const staffRef = (request: FastifyRequest): StaffRef => {
    const { id, nome } = staffOf(request);
    return { id, nome };
  };
  const visibleUnits = (request: FastifyRequest) => unitsOf(request, () => report.allUnits());

  r.get(INBOX_PATH, { schema: { querystring: InboxQuery } }, async (request, reply) => {
    const q = request.query;
    const scope = await scopeOf(request, reply, q.unidade_id);
    if (!scope) return reply;
    const status = toStatus(q.status) ?? undefined;
    const inbox = await messages.inbox({ unitIds: scope.unitIds, status }, q.pagina);
    // Time to first reply over the messages of the last 90 days (the same units).
    const replyTimes = await messages.replyTimes({
      unitIds: scope.unitIds,
      fromIso: resolvePeriod(undefined, undefined).fromIso,
    });
    privatePage(reply);
    return reply.page(
      h(InboxPage, {
        staff: request.staffPage,
        units: await visibleUnits(request),
        filters: { unidade_id: q.unidade_id ?? '', status: status ?? '' },
        inbox,
        replyTimes,
      }),
    );
  });

  r.get(
    `${INBOX_PATH}/exportar.csv`,
    { schema: { querystring: InboxQuery }, ...EXPORT_COMPRESSION },
    async (request, reply) => {
      const q = request.query;
      const scope = await scopeOf(request, reply, q.unidade_id);
      if (!scope) return reply;
      const csv = messages.exportRows({ unitIds: scope.unitIds, status: toStatus(q.status) ?? undefined });
      return sendCsvExport(request, reply, { name: 'mensagens', filters: q, file: `mensagens-${saoPauloDay()}` }, csv);
    },
  );

  r.get(
    `${INBOX_PATH}/:id`,
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({
          salvo: Type.Optional(Type.String({ maxLength: 1 })),
          respondida: Type.Optional(Type.String({ maxLength: 1 })),
        }),
      },
    },
    async (request, reply) => {
      const id = request.params.id;
      let detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(staffOf(request), detail.message.unidade_id)) return unitForbidden(request, reply);
      // Opening a new message marks it read (who, when): only after the scope check.
      if (detail.message.status === 'nova') detail = (await messages.markRead(id, staffRef(request)))!;
      privatePage(reply);
      const staff = request.staffPage;
      const notice =
        request.query.respondida === '1'
          ? 'Resposta registrada.'
          : request.query.salvo === '1'
            ? 'Situação atualizada.'
            : null;
      return reply.page(
        h(MessagePage, {
          staff,
          detail,
          csrfToken: staff.csrfToken,
          notice,
          me: staffRef(request),
          brandName: app.config.brandName,
          mailConfigured: Boolean(app.config.smtp),
        }),
      );
    },
  );

  r.post(
    `${INBOX_PATH}/:id/responder`,
    {
      schema: { params: IdParams, body: FormBody },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(staffOf(request), detail.message.unidade_id)) return unitForbidden(request, reply);
      const body = request.body as Record<string, unknown>;
      const result = await messages.reply(id, body.canal, body.texto, staffRef(request));
      if (result.ok) return reply.redirect(`${INBOX_PATH}/${id}?respondida=1`, 303);
      if (wantsJson(request)) return reply.code(422).send(invalidBody(result.errors));
      privatePage(reply);
      const staff = request.staffPage;
      return reply.page(
        h(MessagePage, {
          staff,
          detail,
          csrfToken: staff.csrfToken,
          notice: null,
          me: staffRef(request),
          brandName: app.config.brandName,
          mailConfigured: Boolean(app.config.smtp),
          replyForm: {
            canal: body.canal === 'whatsapp' ? 'whatsapp' : 'email',
            texto: typeof body.texto === 'string' ? body.texto : '',
            errors: result.errors,
          },
        }),
        422,
      );
    },
  );

  r.post(
    `${INBOX_PATH}/:id/status`,
    {
      schema: { params: IdParams, body: FormBody },
    },
    async (request, reply) => {
      const id = request.params.id;
      const detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(staffOf(request), detail.message.unidade_id)) return unitForbidden(request, reply);
      const status = toStatus((request.body as Record<string, unknown>).status);
      if (!status)
        return sendError(request, reply, 422, 'Situação inválida', 'Escolha Nova, Lida, Respondida ou Resolvida.');
      await messages.setStatus(id, status, staffRef(request));
      return reply.redirect(`${INBOX_PATH}/${id}?salvo=1`, 303);
    },
  );

  r.get(`${INBOX_PATH}/foto/:id`, { schema: { params: IdParams } }, async (request, reply) => {
    const photo = await messages.photo(request.params.id);
    if (!photo) return sendError(request, reply, 404, 'Foto não encontrada', 'Esta foto não existe.');
    if (!canAccessUnit(staffOf(request), photo.file.unidade_id)) return unitForbidden(request, reply);
    if (photo.missing)
      return sendError(request, reply, 404, 'Foto não encontrada', 'O arquivo desta foto não está mais disponível.');
    const ext = photo.file.caminho.split('.').pop();
    return reply
      .type(photo.contentType)
      .header('content-length', String(photo.size))
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', `inline; filename="foto-${photo.file.id}.${ext}"`)
      .send(photo.open());
  });
}

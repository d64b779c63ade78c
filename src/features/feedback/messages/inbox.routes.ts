// The message inbox: list, CSV export, one message (read, reply, status) and its photos.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import type { FastifyRequest } from 'fastify';
import { invalidBody, sendError, wantsJson } from '../../../http/errors';
import { saoPauloDay } from '../../../lib/time';
import { OptionalId, privatePage, sendCsvExport, visibleUnits as unitsOf } from '../../../staff/reports';
import { resolvePeriod } from '../survey/nps';
import type { SurveyReportService } from '../survey/report.service';
import { toStatus, type MessagesAdminService, type StaffRef } from './inbox.service';
import { INBOX_PATH, InboxPage, MessagePage, type MessagePageProps } from './inbox.view';
import { listWithExport, recordPage, unitRecord } from '../staff-pages';
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
  const messageOf = unitRecord(messages.message, (d) => d.message.unidade_id, [
    'Mensagem não encontrada',
    'Esta mensagem não existe.',
  ]);
  const photoOf = unitRecord(messages.photo, (p) => p.file.unidade_id, [
    'Foto não encontrada',
    'Esta foto não existe.',
  ]);

  /** One message's page, for the staff member who reads it. */
  const messagePage = (
    request: FastifyRequest,
    reply: FastifyReply,
    detail: MessagePageProps['detail'],
    extra: Pick<MessagePageProps, 'notice' | 'replyForm'>,
    status = 200,
  ) =>
    recordPage(
      request,
      reply,
      MessagePage,
      {
        detail,
        me: staffRef(request),
        brandName: app.config.brandName,
        mailConfigured: Boolean(app.config.smtp),
        ...extra,
      },
      status,
    );

  listWithExport(app, {
    path: INBOX_PATH,
    query: InboxQuery,
    async page(request, reply, q, scope) {
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
    },
    async csv(request, reply, q, scope) {
      const csv = messages.exportRows({ unitIds: scope.unitIds, status: toStatus(q.status) ?? undefined });
      return sendCsvExport(request, reply, { name: 'mensagens', filters: q, file: `mensagens-${saoPauloDay()}` }, csv);
    },
  });

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
      let detail = await messageOf(request, reply, id);
      if (!detail) return reply;
      // Opening a new message marks it read (who, when): only after the scope check.
      if (detail.message.status === 'nova') detail = (await messages.markRead(id, staffRef(request)))!;
      const notice =
        request.query.respondida === '1'
          ? 'Resposta registrada.'
          : request.query.salvo === '1'
            ? 'Situação atualizada.'
            : null;
      return messagePage(request, reply, detail, { notice });
    },
  );

  r.post(
    `${INBOX_PATH}/:id/responder`,
    {
      schema: { params: IdParams, body: FormBody },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const detail = await messageOf(request, reply, id);
      if (!detail) return reply;
      const body = request.body as Record<string, unknown>;
      const result = await messages.reply(id, body.canal, body.texto, staffRef(request));
      if (result.ok) return reply.redirect(`${INBOX_PATH}/${id}?respondida=1`, 303);
      if (wantsJson(request)) return reply.code(422).send(invalidBody(result.errors));
      return messagePage(
        request,
        reply,
        detail,
        {
          notice: null,
          replyForm: {
            canal: body.canal === 'whatsapp' ? 'whatsapp' : 'email',
            texto: typeof body.texto === 'string' ? body.texto : '',
            errors: result.errors,
          },
        },
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
      const detail = await messageOf(request, reply, id);
      if (!detail) return reply;
      const status = toStatus((request.body as Record<string, unknown>).status);
      if (!status)
        return sendError(request, reply, 422, 'Situação inválida', 'Escolha Nova, Lida, Respondida ou Resolvida.');
      await messages.setStatus(id, status, staffRef(request));
      return reply.redirect(`${INBOX_PATH}/${id}?salvo=1`, 303);
    },
  );

  r.get(`${INBOX_PATH}/foto/:id`, { schema: { params: IdParams } }, async (request, reply) => {
    const photo = await photoOf(request, reply, request.params.id);
    if (!photo) return reply;
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

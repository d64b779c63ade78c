// Staff views of the feedback (behind the staff login). A unit manager sees only their
// units: asking for another unit's data answers 403.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError } from '../../http/errors';
import { accessibleUnits, canAccessUnit, unitScope } from '../identity/access';
import { staffLayout } from '../identity/staff-layout';
import { csvStream } from '../../lib/csv';
import { isStatus } from './messages-admin.service';
import { INBOX_PATH, InboxPage, MessagePage } from './messages-admin.view';
import { resolvePeriod, saoPauloDay, type NpsCategory } from './nps';
import { REPORT_PATH, SurveyReportPage, SurveyResponsePage } from './survey-report.view';
import type { FeedbackServices } from './services';

const OptionalId = Type.Optional(Type.String({ pattern: '^(\\d{1,9})?$' }));
const OptionalDay = Type.Optional(Type.String({ pattern: '^(\\d{4}-\\d{2}-\\d{2})?$' }));
const IdParams = Type.Object({ id: Type.String({ pattern: '^\\d{1,9}$' }) });

const ReportQuery = Type.Object({
  unidade_id: OptionalId,
  de: OptionalDay,
  ate: OptionalDay,
  categoria: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('promotores'), Type.Literal('neutros'), Type.Literal('detratores')])),
  pagina: OptionalId,
});

const InboxQuery = Type.Object({
  unidade_id: OptionalId,
  status: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('novo'), Type.Literal('lido'), Type.Literal('resolvido')])),
  pagina: OptionalId,
});

const forbidden = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(request, reply, 403, 'Acesso negado', 'Esta unidade não está entre as unidades da sua conta.');

export async function staffRoutes(app: FastifyInstance, services: FeedbackServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { surveyReport: report, messages } = services;

  /** Units offered in the filters: all for admins, their own for managers. */
  async function visibleUnits(request: FastifyRequest) {
    return accessibleUnits(request.staff!, await report.allUnits());
  }

  const privatePage = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

  r.get(REPORT_PATH, { schema: { querystring: ReportQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = unitScope(request.staff!, q.unidade_id ? Number(q.unidade_id) : null);
    if (scope.forbidden) return forbidden(request, reply);
    const period = resolvePeriod(q.de, q.ate);
    const categoria = (q.categoria || undefined) as NpsCategory | undefined;
    const data = await report.report({ unitIds: scope.unitIds, period, categoria, page: Number(q.pagina || 1) });
    privatePage(reply);
    return reply.page(
      h(SurveyReportPage, {
        staff: staffLayout(request, reply),
        units: await visibleUnits(request),
        filters: { unidade_id: q.unidade_id ?? '', categoria: categoria ?? '', period },
        report: data,
      }),
    );
  });

  r.get(`${REPORT_PATH}/exportar.csv`, { schema: { querystring: ReportQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = unitScope(request.staff!, q.unidade_id ? Number(q.unidade_id) : null);
    if (scope.forbidden) return forbidden(request, reply);
    const period = resolvePeriod(q.de, q.ate);
    const { header, rows } = await report.exportRows({ unitIds: scope.unitIds, period, categoria: (q.categoria || undefined) as NpsCategory | undefined });
    // Who took which data out, without the data itself.
    request.log.info({ userId: request.staff!.id, export: 'pesquisa', filters: { ...q, de: period.de, ate: period.ate } }, 'csv export');
    privatePage(reply);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="pesquisa-${period.de}-a-${period.ate}.csv"`);
    return reply.send(csvStream(header, rows));
  });

  r.get(`${REPORT_PATH}/resposta/:id`, { schema: { params: IdParams }, preHandler: app.requireStaff }, async (request, reply) => {
    const detail = await report.response(Number(request.params.id));
    if (!detail) return sendError(request, reply, 404, 'Resposta não encontrada', 'Esta resposta não existe.');
    if (!canAccessUnit(request.staff!, detail.header.unidade_id)) return forbidden(request, reply);
    privatePage(reply);
    return reply.page(h(SurveyResponsePage, { staff: staffLayout(request, reply), detail }));
  });

  r.get(INBOX_PATH, { schema: { querystring: InboxQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = unitScope(request.staff!, q.unidade_id ? Number(q.unidade_id) : null);
    if (scope.forbidden) return forbidden(request, reply);
    const inbox = await messages.inbox({ unitIds: scope.unitIds, status: q.status || undefined }, Number(q.pagina || 1));
    privatePage(reply);
    return reply.page(
      h(InboxPage, {
        staff: staffLayout(request, reply),
        units: await visibleUnits(request),
        filters: { unidade_id: q.unidade_id ?? '', status: q.status ?? '' },
        inbox,
      }),
    );
  });

  r.get(`${INBOX_PATH}/exportar.csv`, { schema: { querystring: InboxQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = unitScope(request.staff!, q.unidade_id ? Number(q.unidade_id) : null);
    if (scope.forbidden) return forbidden(request, reply);
    const { header, rows } = messages.exportRows({ unitIds: scope.unitIds, status: q.status || undefined });
    request.log.info({ userId: request.staff!.id, export: 'mensagens', filters: q }, 'csv export');
    privatePage(reply);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="mensagens-${saoPauloDay()}.csv"`);
    return reply.send(csvStream(header, rows));
  });

  r.get(
    `${INBOX_PATH}/:id`,
    { schema: { params: IdParams, querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 1 })) }) }, preHandler: app.requireStaff },
    async (request, reply) => {
      const detail = await messages.message(Number(request.params.id));
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(request.staff!, detail.message.unidade_id)) return forbidden(request, reply);
      privatePage(reply);
      const staff = staffLayout(request, reply);
      return reply.page(h(MessagePage, { staff, detail, csrfToken: staff!.csrfToken, saved: request.query.salvo === '1' }));
    },
  );

  r.post(
    `${INBOX_PATH}/:id/status`,
    {
      schema: { params: IdParams, body: Type.Record(Type.String(), Type.Unknown()) },
      preHandler: [app.requireStaff, app.csrfProtection],
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(request.staff!, detail.message.unidade_id)) return forbidden(request, reply);
      const status = (request.body as Record<string, unknown>).status;
      if (!isStatus(status)) return sendError(request, reply, 422, 'Situação inválida', 'Escolha Novo, Lido ou Resolvido.');
      await messages.setStatus(id, status);
      return reply.redirect(`${INBOX_PATH}/${id}?salvo=1`, 303);
    },
  );

  r.get(
    `${INBOX_PATH}/foto/:id`,
    { schema: { params: IdParams }, preHandler: app.requireStaff },
    async (request, reply) => {
      const photo = await messages.photo(Number(request.params.id));
      if (!photo) return sendError(request, reply, 404, 'Foto não encontrada', 'Esta foto não existe.');
      if (!canAccessUnit(request.staff!, photo.file.unidade_id)) return forbidden(request, reply);
      if (photo.missing) return sendError(request, reply, 404, 'Foto não encontrada', 'O arquivo desta foto não está mais disponível.');
      const ext = photo.file.caminho.split('.').pop();
      return reply
        .type(photo.contentType)
        .header('content-length', String(photo.size))
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', `inline; filename="foto-${photo.file.id}.${ext}"`)
        .send(photo.open());
    },
  );
}

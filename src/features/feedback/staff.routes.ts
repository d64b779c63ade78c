// Staff views of the feedback (behind the staff login). A unit manager sees only their
// units: asking for another unit's data answers 403.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { invalidBody, sendError, wantsJson } from '../../http/errors';
import { accessibleUnits, canAccessUnit, unitScope } from '../identity/access';
import { staffLayout } from '../identity/staff-layout';
import { csvStream } from '../../lib/csv';
import { toId } from '../../lib/form/index';
import { saoPauloDay } from '../../lib/time';
import { IdParam, QueryValue } from '../../http/params';
import { toStatus, type StaffRef } from './messages-admin.service';
import { INBOX_PATH, InboxPage, MessagePage } from './messages-admin.view';
import { resolvePeriod, type ResponseListFilter } from './nps';
import { REPORT_PATH, SurveyReportPage, SurveyResponsePage } from './survey-report.view';
import { HOME_PATH, StaffHomePage } from './home.view';
import { homeQueue, toolUnits } from './home.service';
import { PREFERENCES_PATH, PreferencesPage } from './preferences.view';
import { nowIso } from '../../db/index';
import { qrSvg, surveyUrl } from './poster.service';
import { POSTER_PATH, PosterPage } from './poster.view';
import type { FeedbackServices } from './services';

// Query values are bounded strings here and parsed by the form kit in the handlers.
const OptionalId = QueryValue;
const OptionalDay = QueryValue;
const IdParams = Type.Object({ id: IdParam });
const forbidden = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(request, reply, 403, 'Acesso negado', 'Esta unidade não está entre as unidades da sua conta.');

/**
 * The units a request may see from its `unidade_id` filter ("" = all of the account's).
 * A malformed id is a 400, another unit's a 403; null when that answer was sent.
 */
async function scopeOf(request: FastifyRequest, reply: FastifyReply, raw: string | undefined): Promise<{ unitIds: number[] | null } | null> {
  const requested = raw ? toId(raw.trim()) : null;
  if (raw && requested === null) {
    await sendError(request, reply, 400, 'Filtro inválido', 'O código da unidade no filtro não é válido.');
    return null;
  }
  const scope = unitScope(request.staff!, requested);
  if (scope.forbidden) {
    await forbidden(request, reply);
    return null;
  }
  return scope;
}

const ReportQuery = Type.Object({
  unidade_id: OptionalId,
  de: OptionalDay,
  ate: OptionalDay,
  categoria: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('promotores'), Type.Literal('neutros'), Type.Literal('detratores'), Type.Literal('pendentes')])),
  pagina: OptionalId,
});

const HomeQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 100 })), pagina: QueryValue });

const InboxQuery = Type.Object({
  unidade_id: OptionalId,
  // The four statuses, and the older three from bookmarks (mapped by toStatus).
  status: Type.Optional(
    Type.Union(['', 'nova', 'lida', 'respondida', 'resolvida', 'novo', 'lido', 'resolvido'].map((s) => Type.Literal(s))),
  ),
  pagina: OptionalId,
});

export async function staffRoutes(app: FastifyInstance, services: FeedbackServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const { surveyReport: report, messages, digest: digestService, attention } = services;
  const staffRef = (request: FastifyRequest): StaffRef => ({ id: request.staff!.id, nome: request.staff!.nome });

  /** Units offered in the filters: all for admins, their own for managers. */
  async function visibleUnits(request: FastifyRequest) {
    return accessibleUnits(request.staff!, await report.allUnits());
  }

  const privatePage = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

  r.get(REPORT_PATH, { schema: { querystring: ReportQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = await scopeOf(request, reply, q.unidade_id);
    if (!scope) return reply;
    const period = resolvePeriod(q.de, q.ate);
    const categoria = (q.categoria || undefined) as ResponseListFilter | undefined;
    const data = await report.report({ unitIds: scope.unitIds, period, categoria, page: q.pagina });
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
    const scope = await scopeOf(request, reply, q.unidade_id);
    if (!scope) return reply;
    const period = resolvePeriod(q.de, q.ate);
    const { header, rows } = await report.exportRows({ unitIds: scope.unitIds, period, categoria: (q.categoria || undefined) as ResponseListFilter | undefined });
    // Who took which data out, without the data itself.
    request.log.info({ userId: request.staff!.id, export: 'pesquisa', filters: { ...q, de: period.de, ate: period.ate } }, 'csv export');
    privatePage(reply);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="pesquisa-${period.de}-a-${period.ate}.csv"`);
    return reply.send(csvStream(header, rows));
  });

  r.get(
    `${REPORT_PATH}/resposta/:id`,
    { schema: { params: IdParams, querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 1 })) }) }, preHandler: app.requireStaff },
    async (request, reply) => {
    const detail = await report.response(request.params.id);
    if (!detail) return sendError(request, reply, 404, 'Resposta não encontrada', 'Esta resposta não existe.');
    if (!canAccessUnit(request.staff!, detail.header.unidade_id)) return forbidden(request, reply);
    privatePage(reply);
    const staff = staffLayout(request, reply);
    return reply.page(h(SurveyResponsePage, { staff, detail, csrfToken: staff!.csrfToken, saved: (request.query as { salvo?: string }).salvo === '1' }));
  });

  r.post(
    `${REPORT_PATH}/resposta/:id/tratada`,
    { schema: { params: IdParams, body: Type.Record(Type.String(), Type.Unknown()) }, preHandler: [app.requireStaff, app.csrfProtection] },
    async (request, reply) => {
      const id = Number(request.params.id);
      const detail = await report.response(id);
      if (!detail) return sendError(request, reply, 404, 'Resposta não encontrada', 'Esta resposta não existe.');
      if (!canAccessUnit(request.staff!, detail.header.unidade_id)) return forbidden(request, reply);
      await report.markHandled(id, request.staff!.id);
      return reply.redirect(`${REPORT_PATH}/resposta/${id}?salvo=1`, 303);
    },
  );

  r.get(
    PREFERENCES_PATH,
    { schema: { querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 1 })) }) }, preHandler: app.requireStaff },
    async (request, reply) => {
      privatePage(reply);
      const staff = staffLayout(request, reply);
      const digest = await digestService.preference(request.staff!.id);
      return reply.page(h(PreferencesPage, { staff, csrfToken: staff!.csrfToken, digest, saved: request.query.salvo === '1' }));
    },
  );

  r.post(
    PREFERENCES_PATH,
    { schema: { body: Type.Record(Type.String(), Type.Unknown()) }, preHandler: [app.requireStaff, app.csrfProtection] },
    async (request, reply) => {
      await digestService.setPreference(request.staff!.id, (request.body as Record<string, unknown>).resumo_semanal === 'sim');
      return reply.redirect(`${PREFERENCES_PATH}?salvo=1`, 303);
    },
  );

  /** The unit of a poster/kiosk route, or an answer already sent (404/403). */
  async function unitFor(request: FastifyRequest, reply: FastifyReply, id: number) {
    const unit = await report.activeUnit(id);
    if (!unit) {
      await sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe ou não está ativa.');
      return null;
    }
    if (!canAccessUnit(request.staff!, unit.id)) {
      await forbidden(request, reply);
      return null;
    }
    return unit;
  }

  r.get(`${POSTER_PATH}/:id`, { schema: { params: IdParams }, preHandler: app.requireStaff }, async (request, reply) => {
    const unit = await unitFor(request, reply, Number(request.params.id));
    if (!unit) return reply;
    const url = surveyUrl(app.config.publicUrl, unit.id, 'cartaz');
    privatePage(reply);
    return reply.page(h(PosterPage, { brandName: app.config.brandName, unit, url, svg: await qrSvg(url) }));
  });

  r.get(`${POSTER_PATH}/:id/qr.svg`, { schema: { params: IdParams }, preHandler: app.requireStaff }, async (request, reply) => {
    const unit = await unitFor(request, reply, Number(request.params.id));
    if (!unit) return reply;
    privatePage(reply);
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="qr-pesquisa-unidade-${unit.id}.svg"`)
      .send(await qrSvg(surveyUrl(app.config.publicUrl, unit.id, 'cartaz')));
  });

  r.get(HOME_PATH, { schema: { querystring: HomeQuery }, attachValidation: true, preHandler: app.requireStaff }, async (request, reply) => {
    const scope = unitScope(request.staff!, null);
    if (scope.forbidden) return forbidden(request, reply);
    // The tools filter: a value the schema refuses (too long, repeated) is read as none.
    const q = request.validationError ? {} : request.query;
    const now = new Date();
    const queue = homeQueue(await attention.queue(scope.unitIds, now));
    privatePage(reply);
    const units = (await visibleUnits(request)).filter((u) => u.ativo === 1);
    const tools = toolUnits(units, (q.q ?? '').trim(), q.pagina);
    return reply.page(h(StaffHomePage, { staff: staffLayout(request, reply), queue, now, tools }));
  });

  r.get(INBOX_PATH, { schema: { querystring: InboxQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = await scopeOf(request, reply, q.unidade_id);
    if (!scope) return reply;
    const status = toStatus(q.status) ?? undefined;
    const inbox = await messages.inbox({ unitIds: scope.unitIds, status }, q.pagina);
    // Time to first reply over the messages of the last 90 days (the same units).
    const replyTimes = await messages.replyTimes({ unitIds: scope.unitIds, fromIso: resolvePeriod(undefined, undefined).fromIso });
    privatePage(reply);
    return reply.page(
      h(InboxPage, {
        staff: staffLayout(request, reply),
        units: await visibleUnits(request),
        filters: { unidade_id: q.unidade_id ?? '', status: status ?? '' },
        inbox,
        replyTimes,
      }),
    );
  });

  r.get(`${INBOX_PATH}/exportar.csv`, { schema: { querystring: InboxQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = await scopeOf(request, reply, q.unidade_id);
    if (!scope) return reply;
    const { header, rows } = messages.exportRows({ unitIds: scope.unitIds, status: toStatus(q.status) ?? undefined });
    request.log.info({ userId: request.staff!.id, export: 'mensagens', filters: q }, 'csv export');
    privatePage(reply);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="mensagens-${saoPauloDay()}.csv"`);
    return reply.send(csvStream(header, rows));
  });

  r.get(
    `${INBOX_PATH}/:id`,
    {
      schema: {
        params: IdParams,
        querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 1 })), respondida: Type.Optional(Type.String({ maxLength: 1 })) }),
      },
      preHandler: app.requireStaff,
    },
    async (request, reply) => {
      const id = request.params.id;
      let detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(request.staff!, detail.message.unidade_id)) return forbidden(request, reply);
      // Opening a new message marks it read (who, when): only after the scope check.
      if (detail.message.status === 'nova') detail = (await messages.markRead(id, staffRef(request)))!;
      privatePage(reply);
      const staff = staffLayout(request, reply);
      const notice = request.query.respondida === '1' ? 'Resposta registrada.' : request.query.salvo === '1' ? 'Situação atualizada.' : null;
      return reply.page(
        h(MessagePage, { staff, detail, csrfToken: staff!.csrfToken, notice, me: staffRef(request), brandName: app.config.brandName, mailConfigured: Boolean(app.config.smtp) }),
      );
    },
  );

  r.post(
    `${INBOX_PATH}/:id/responder`,
    {
      schema: { params: IdParams, body: Type.Record(Type.String(), Type.Unknown()) },
      preHandler: [app.requireStaff, app.csrfProtection],
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      const detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(request.staff!, detail.message.unidade_id)) return forbidden(request, reply);
      const body = request.body as Record<string, unknown>;
      const result = await messages.reply(id, body.canal, body.texto, staffRef(request));
      if (result.ok) return reply.redirect(`${INBOX_PATH}/${id}?respondida=1`, 303);
      if (wantsJson(request)) return reply.code(422).send(invalidBody(result.errors));
      privatePage(reply);
      const staff = staffLayout(request, reply);
      return reply.page(
        h(MessagePage, {
          staff,
          detail,
          csrfToken: staff!.csrfToken,
          notice: null,
          me: staffRef(request),
          brandName: app.config.brandName,
          mailConfigured: Boolean(app.config.smtp),
          replyForm: { canal: body.canal === 'whatsapp' ? 'whatsapp' : 'email', texto: typeof body.texto === 'string' ? body.texto : '', errors: result.errors },
        }),
        422,
      );
    },
  );

  r.post(
    `${INBOX_PATH}/:id/status`,
    {
      schema: { params: IdParams, body: Type.Record(Type.String(), Type.Unknown()) },
      preHandler: [app.requireStaff, app.csrfProtection],
    },
    async (request, reply) => {
      const id = request.params.id;
      const detail = await messages.message(id);
      if (!detail) return sendError(request, reply, 404, 'Mensagem não encontrada', 'Esta mensagem não existe.');
      if (!canAccessUnit(request.staff!, detail.message.unidade_id)) return forbidden(request, reply);
      const status = toStatus((request.body as Record<string, unknown>).status);
      if (!status) return sendError(request, reply, 422, 'Situação inválida', 'Escolha Nova, Lida, Respondida ou Resolvida.');
      await messages.setStatus(id, status, staffRef(request));
      return reply.redirect(`${INBOX_PATH}/${id}?salvo=1`, 303);
    },
  );

  r.get(
    `${INBOX_PATH}/foto/:id`,
    { schema: { params: IdParams }, preHandler: app.requireStaff },
    async (request, reply) => {
      const photo = await messages.photo(request.params.id);
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

// Staff pages of trial classes (behind the staff login). A unit manager sees and changes
// only their units' bookings and capacity; another unit answers 403. Admins see all.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError } from '../../http/errors';
import { staffLayout } from '../identity/staff-layout';
import { csvStream } from '../../lib/csv';
import { accessibleUnits, unitScope } from '../identity/access';
import { echoValue, toId } from '../../lib/form/index';
import { spDay } from './slots';
import { isStatus, resolveWeeks, type StaffService } from './staff.service';
import { BookingListPage, CAPACITY_PATH, CapacityPage, FUNNEL_PATH, funnelCsv, FunnelPage, STAFF_PATH } from './staff.view';

// Ids and days are judged by the form kit (toId, isDay) in the handlers, not by schema patterns.
const OptionalId = Type.Optional(Type.String({ maxLength: 20 }));
const OptionalDay = Type.Optional(Type.String({ maxLength: 20 }));
const IdParams = Type.Object({ id: Type.String({ maxLength: 20 }) });
const Body = Type.Record(Type.String(), Type.Unknown());

/** An optional id filter: undefined/"" → null (no filter), a valid id, or 'invalid'. */
const optionalId = (raw: string | undefined): number | null | 'invalid' => (raw ? (toId(raw) ?? 'invalid') : null);
const badFilter = (request: FastifyRequest, reply: FastifyReply) => sendError(request, reply, 400, 'Filtro inválido', 'Escolha a unidade na lista.');

/** The units a list shows for its `unidade_id` filter, or why it is refused (400 / 403). */
function filterScope(request: FastifyRequest, raw: string | undefined): { refused: 'filtro' | 'acesso' } | { refused: false; unitIds: number[] | null } {
  const unitId = optionalId(raw);
  if (unitId === 'invalid') return { refused: 'filtro' };
  const scope = unitScope(request.staff!, unitId);
  return scope.forbidden ? { refused: 'acesso' } : { refused: false, unitIds: scope.unitIds };
}

const forbidden = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(request, reply, 403, 'Acesso negado', 'Esta unidade não está entre as unidades da sua conta.');

export function staffRoutes(app: FastifyInstance, { staff: service, now }: { staff: StaffService; now: () => Date }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const privatePage = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');
  const visibleUnits = async (request: FastifyRequest) => accessibleUnits(request.staff!, await service.units(null));

  r.get(STAFF_PATH, { schema: { querystring: Type.Object({ unidade_id: OptionalId, salvo: OptionalId }) }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = filterScope(request, q.unidade_id);
    if (scope.refused) return scope.refused === 'filtro' ? badFilter(request, reply) : forbidden(request, reply);
    privatePage(reply);
    return reply.page(
      h(BookingListPage, {
        staff: staffLayout(request, reply),
        units: await visibleUnits(request),
        unidadeId: q.unidade_id ?? '',
        days: await service.days(scope.unitIds, now()),
        recent: (await service.funnel(scope.unitIds, resolveWeeks(undefined, undefined, spDay(now())).weeks.slice(-4))).total,
        saved: toId(q.salvo),
        brandName: app.config.brandName,
      }),
    );
  });

  r.post(`${STAFF_PATH}/:id/status`, { schema: { params: IdParams, body: Body }, preHandler: [app.requireStaff, app.csrfProtection] }, async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    if (!isStatus(body.status)) return sendError(request, reply, 422, 'Situação inválida', 'Escolha Compareceu, Não compareceu ou Matriculou.');
    const id = toId(request.params.id);
    if (id === null) return sendError(request, reply, 404, 'Agendamento não encontrado', 'Este agendamento não existe.');
    const result = await service.setStatus(request.staff!, id, body.status, now());
    if (result === 'missing') return sendError(request, reply, 404, 'Agendamento não encontrado', 'Este agendamento não existe.');
    if (result === 'forbidden') return forbidden(request, reply);
    const back = typeof body.voltar === 'string' && /^\/admin\/aulas-experimentais(\?unidade_id=[1-9]\d{0,9})?$/.test(body.voltar) ? body.voltar : STAFF_PATH;
    return reply.redirect(`${back}${back.includes('?') ? '&' : '?'}salvo=${id}#agendamento-${id}`, 303);
  });

  const FunnelQuery = Type.Object({ unidade_id: OptionalId, de: OptionalDay, ate: OptionalDay });

  r.get(FUNNEL_PATH, { schema: { querystring: FunnelQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = filterScope(request, q.unidade_id);
    if (scope.refused) return scope.refused === 'filtro' ? badFilter(request, reply) : forbidden(request, reply);
    const period = resolveWeeks(q.de, q.ate, spDay(now()));
    const params = new URLSearchParams({ ...(q.unidade_id ? { unidade_id: q.unidade_id } : {}), de: period.de, ate: period.ate });
    privatePage(reply);
    return reply.page(
      h(FunnelPage, {
        staff: staffLayout(request, reply),
        units: await visibleUnits(request),
        unidadeId: q.unidade_id ?? '',
        period,
        funnel: await service.funnel(scope.unitIds, period.weeks),
        csvHref: `${FUNNEL_PATH}.csv?${params}`,
      }),
    );
  });

  r.get(`${FUNNEL_PATH}.csv`, { schema: { querystring: FunnelQuery }, preHandler: app.requireStaff }, async (request, reply) => {
    const q = request.query;
    const scope = filterScope(request, q.unidade_id);
    if (scope.refused) return scope.refused === 'filtro' ? badFilter(request, reply) : forbidden(request, reply);
    const period = resolveWeeks(q.de, q.ate, spDay(now()));
    const { header, rows } = funnelCsv((await service.funnel(scope.unitIds, period.weeks)).rows);
    request.log.info({ userId: request.staff!.id, export: 'funil', filters: { ...q, de: period.de, ate: period.ate } }, 'csv export');
    privatePage(reply);
    reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="funil-aulas-experimentais-${period.de}-a-${period.ate}.csv"`);
    return reply.send(csvStream(header, rows));
  });

  r.get(CAPACITY_PATH, { schema: { querystring: Type.Object({ salvo: OptionalId }) }, preHandler: app.requireStaff }, async (request, reply) => {
    privatePage(reply);
    return reply.page(
      h(CapacityPage, { staff: staffLayout(request, reply), units: await visibleUnits(request), errors: {}, values: {}, saved: toId(request.query.salvo) }),
    );
  });

  r.post(`${CAPACITY_PATH}/:id`, { schema: { params: IdParams, body: Body }, preHandler: [app.requireStaff, app.csrfProtection] }, async (request, reply) => {
    const id = toId(request.params.id);
    if (id === null) return sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe.');
    const raw = (request.body as Record<string, unknown>).vagas_experimentais;
    const units = await visibleUnits(request);
    if (!units.some((u) => u.id === id)) {
      return request.staff!.papel === 'admin'
        ? sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe.')
        : forbidden(request, reply);
    }
    const result = await service.setCapacity(request.staff!, id, raw, now());
    if (result === 'forbidden') return forbidden(request, reply);
    if (!result.ok) {
      privatePage(reply);
      return reply.page(
        h(CapacityPage, { staff: staffLayout(request, reply), units, errors: { [id]: result.error }, values: { [id]: echoValue(raw, { max: 10 }) } }),
        422,
      );
    }
    return reply.redirect(`${CAPACITY_PATH}?salvo=${id}`, 303);
  });
}

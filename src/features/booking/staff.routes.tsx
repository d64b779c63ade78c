// Staff pages of trial classes (behind the staff login). A unit manager sees and changes
// only their units' bookings and capacity; another unit answers 403. Admins see all.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError, sendInvalid } from '../../http/errors';
import { unitScope } from '../../staff/access';
import { echoValue, oneLine, parseInteger, toId } from '../../lib/form/index';
import { ListQuery } from '../../staff/list';
import { parsePage } from '../../lib/pagination';
import { spDay } from './slots';
import { capacityFields, isStatus, isValidDay, resolveWeeks, type StaffService } from './staff.service';
import { BookingListPage, bookingListHref, CAPACITY_PATH, FUNNEL_PATH, STAFF_PATH } from './staff.view';
import { CapacityPage } from './capacity.view';
import { funnelCsv, FunnelPage } from './funnel.view';
import { staffOf } from '../../staff/scope';
import { FormBody } from '../../staff/http';
import { privatePage, sendCsvExport, unitForbidden, visibleUnits } from '../../staff/reports';

// Ids and days are judged by the form kit (toId, isDay) in the handlers, not by schema patterns.
const OptionalId = Type.Optional(Type.String({ maxLength: 20 }));
const OptionalDay = Type.Optional(Type.String({ maxLength: 20 }));
const IdParams = Type.Object({ id: Type.String({ maxLength: 20 }) });

/**
 * A list's `q` or `pagina` carried by a form: one line through the form kit (no NUL or control character), or nothing.
 */
const listParam = (raw: unknown, max: number) => {
  const parsed = oneLine(raw, { max });
  return parsed.ok && parsed.value ? parsed.value : undefined;
};
/** `salvo`: how many units a capacity save changed (at most one page of them). */
const MAX_SAVED = 1000;

/** An optional id filter: undefined/"" → null (no filter), a valid id, or 'invalid'. */
const optionalId = (raw: string | undefined): number | null | 'invalid' => (raw ? (toId(raw) ?? 'invalid') : null);
const badFilter = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(request, reply, 400, 'Filtro inválido', 'Escolha a unidade na lista.');

/** The units a list shows for its `unidade_id` filter; null when its refusal (400 / 403) was sent. */
async function filterScope(
  request: FastifyRequest,
  reply: FastifyReply,
  raw: string | undefined,
): Promise<{ unitIds: number[] | null } | null> {
  const unitId = optionalId(raw);
  if (unitId === 'invalid') {
    await badFilter(request, reply);
    return null;
  }
  const scope = unitScope(staffOf(request), unitId);
  if (scope.forbidden) {
    await unitForbidden(request, reply);
    return null;
  }
  return { unitIds: scope.unitIds };
}

/**
 * Where a status change goes back to: the bookings list with the unit, day, text filter and
 * page the form carried, each checked and rebuilt (never an address taken as posted).
 */
function returnAddress(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length > 300) return STAFF_PATH;
  const at = raw.indexOf('?');
  if ((at < 0 ? raw : raw.slice(0, at)) !== STAFF_PATH) return STAFF_PATH;
  const params = new URLSearchParams(at < 0 ? '' : raw.slice(at + 1));
  const unitId = toId(params.get('unidade_id') ?? '');
  const dia = params.get('dia') ?? '';
  return bookingListHref({
    unidadeId: unitId === null ? undefined : String(unitId),
    dia: isValidDay(dia) ? dia : undefined,
    q: listParam(params.get('q')?.trim(), 100),
    page: parsePage(params.get('pagina') ?? ''),
  });
}

export function staffRoutes(app: FastifyInstance, { staff: service, now }: { staff: StaffService; now: () => Date }) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  /** What a page with the unit filter shows of it: the units the account may pick, the one picked. */
  const unitFilter = async (request: FastifyRequest, unidadeId: string | undefined) => ({
    staff: request.staffPage,
    units: await visibleUnits(request, () => service.units(null)),
    unidadeId: unidadeId ?? '',
  });

  // `q` and `pagina` as the other staff lists take them (staff/list.ts ListQuery).
  const ListFields = { q: ListQuery.properties.q, pagina: ListQuery.properties.pagina };
  const BookingsQuery = Type.Object({ unidade_id: OptionalId, dia: OptionalDay, salvo: OptionalId, ...ListFields });

  r.get(STAFF_PATH, { schema: { querystring: BookingsQuery } }, async (request, reply) => {
    const q = request.query;
    const scope = await filterScope(request, reply, q.unidade_id);
    if (!scope) return reply;
    const list = await service.dayList(scope.unitIds, q, now());
    privatePage(reply);
    return reply.page(
      h(BookingListPage, {
        ...(await unitFilter(request, q.unidade_id)),
        list,
        recent: (
          await service.funnel(scope.unitIds, resolveWeeks(undefined, undefined, list.today).weeks.slice(-4), list.q)
        ).total,
        saved: toId(q.salvo),
        brandName: app.config.brandName,
      }),
    );
  });

  r.post(`${STAFF_PATH}/:id/status`, { schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    if (!isStatus(body.status))
      return sendError(request, reply, 422, 'Situação inválida', 'Escolha Compareceu, Não compareceu ou Matriculou.');
    const id = toId(request.params.id);
    if (id === null)
      return sendError(request, reply, 404, 'Agendamento não encontrado', 'Este agendamento não existe.');
    const result = await service.setStatus(staffOf(request), id, body.status, now());
    if (result === 'missing')
      return sendError(request, reply, 404, 'Agendamento não encontrado', 'Este agendamento não existe.');
    if (result === 'forbidden') return unitForbidden(request, reply);
    const back = returnAddress(body.voltar);
    return reply.redirect(`${back}${back.includes('?') ? '&' : '?'}salvo=${id}#agendamento-${id}`, 303);
  });

  const FunnelQuery = Type.Object({ unidade_id: OptionalId, de: OptionalDay, ate: OptionalDay, q: ListFields.q });
  const FunnelPageQuery = Type.Object({ ...FunnelQuery.properties, pagina: ListFields.pagina });

  r.get(FUNNEL_PATH, { schema: { querystring: FunnelPageQuery } }, async (request, reply) => {
    const q = request.query;
    const scope = await filterScope(request, reply, q.unidade_id);
    if (!scope) return reply;
    const period = resolveWeeks(q.de, q.ate, spDay(now()));
    const funnel = await service.funnelPage(scope.unitIds, period.weeks, q);
    // What the page links and the export keep: the unit, the period and the text filter.
    const params = { ...(q.unidade_id ? { unidade_id: q.unidade_id } : {}), de: period.de, ate: period.ate };
    const csvParams = new URLSearchParams({ ...params, ...(funnel.page.q ? { q: funnel.page.q } : {}) });
    privatePage(reply);
    return reply.page(
      h(FunnelPage, {
        ...(await unitFilter(request, q.unidade_id)),
        period,
        funnel,
        list: { ...funnel.page, path: FUNNEL_PATH, params },
        csvHref: `${FUNNEL_PATH}.csv?${csvParams}`,
      }),
    );
  });

  // The export is every filtered unit and week, never one page.
  r.get(`${FUNNEL_PATH}.csv`, { schema: { querystring: FunnelQuery } }, async (request, reply) => {
    const q = request.query;
    const scope = await filterScope(request, reply, q.unidade_id);
    if (!scope) return reply;
    const period = resolveWeeks(q.de, q.ate, spDay(now()));
    const csv = funnelCsv((await service.funnel(scope.unitIds, period.weeks, q.q)).rows);
    const file = `funil-aulas-experimentais-${period.de}-a-${period.ate}`;
    return sendCsvExport(
      request,
      reply,
      { name: 'funil', filters: { ...q, de: period.de, ate: period.ate }, file },
      csv,
    );
  });

  const CapacityQuery = Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 10 })), ...ListFields });

  r.get(CAPACITY_PATH, { schema: { querystring: CapacityQuery } }, async (request, reply) => {
    const { items, list } = await service.capacityList(staffOf(request), request.query, CAPACITY_PATH);
    const saved = parseInteger(request.query.salvo ?? '', 0, MAX_SAVED, -1);
    privatePage(reply);
    return reply.page(
      h(CapacityPage, {
        staff: request.staffPage,
        list,
        units: items,
        errors: {},
        values: {},
        saved: saved.ok && saved.value >= 0 ? saved.value : null,
      }),
    );
  });

  // One form per page: the units shown on it, with the list's `q` and `pagina` to come back to.
  r.post(CAPACITY_PATH, { schema: { body: FormBody } }, async (request, reply) => {
    const body = request.body as Record<string, unknown>;
    const listQuery = { q: listParam(body.q, 100), pagina: listParam(body.pagina, 10) };
    const fields = capacityFields(body);
    const result = await service.setCapacities(staffOf(request), fields, now());
    if (result === 'missing')
      return sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe.');
    if (result === 'forbidden') return unitForbidden(request, reply);
    const { list } = await service.capacityList(staffOf(request), listQuery, CAPACITY_PATH);
    if (!result.ok) {
      const values = Object.fromEntries(fields.map((f) => [f.name, echoValue(f.raw, { max: 10 })]));
      return sendInvalid(request, reply, result.errors, () =>
        h(CapacityPage, {
          staff: request.staffPage,
          list,
          units: result.units,
          errors: result.errors,
          values,
        }),
      );
    }
    const back = new URLSearchParams({
      ...(list.q ? { q: list.q } : {}),
      ...(list.page > 1 ? { pagina: String(list.page) } : {}),
      salvo: String(result.changed),
    });
    return reply.redirect(`${CAPACITY_PATH}?${back}`, 303);
  });
}

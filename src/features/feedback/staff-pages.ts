// What the survey report and the message inbox share: a staff list filtered by unit with its
// CSV export beside it, and one record's pages, each kept to the units the account sees.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TObject } from 'typebox';
import { type ComponentType, h } from 'preact';
import type { StaffProps } from './filters.view';
import { EXPORT_COMPRESSION } from '../../http/compression';
import { sendError } from '../../http/errors';
import { canAccessUnit } from '../../staff/access';
import { privatePage, scopeOf, unitForbidden } from '../../staff/reports';
import { staffOf } from '../../staff/scope';

type UnitScope = NonNullable<Awaited<ReturnType<typeof scopeOf>>>;
type Request<S extends TObject> = FastifyRequest<{ Querystring: Static<S> }>;
type Handler<S extends TObject> = (
  request: Request<S>,
  reply: FastifyReply,
  q: Request<S>['query'],
  scope: UnitScope,
) => Promise<unknown>;

/**
 * Registers `path` (the page) and `path`/exportar.csv: each handler runs with the query and
 * the units the request may see, after scopeOf has answered a bad or another unit's filter.
 */
export function listWithExport<S extends TObject>(
  app: FastifyInstance,
  spec: { path: string; query: S; page: Handler<S>; csv: Handler<S> },
) {
  const scoped = (handler: Handler<S>) => async (request: Request<S>, reply: FastifyReply) => {
    const q = request.query;
    const scope = await scopeOf(request, reply, (q as { unidade_id?: string }).unidade_id);
    if (!scope) return reply;
    return handler(request, reply, q, scope);
  };
  app.get<{ Querystring: Static<S> }>(spec.path, { schema: { querystring: spec.query } }, scoped(spec.page));
  app.get<{ Querystring: Static<S> }>(
    `${spec.path}/exportar.csv`,
    { schema: { querystring: spec.query }, ...EXPORT_COMPRESSION },
    scoped(spec.csv),
  );
}

/**
 * Reads the record a path names with `find`: null once the answer is sent, 404 with `missing`
 * (title, text) when there is none, 403 when it belongs to a unit the account does not see.
 */
export function unitRecord<T>(
  find: (id: number) => Promise<T | null | undefined>,
  unitOf: (record: T) => number | null,
  missing: [title: string, text: string],
) {
  return async (request: FastifyRequest, reply: FastifyReply, id: number): Promise<T | null> => {
    const record = await find(id);
    if (!record) await sendError(request, reply, 404, ...missing);
    else if (!canAccessUnit(staffOf(request), unitOf(record))) await unitForbidden(request, reply);
    else return record;
    return null;
  };
}

/** A record's staff page: never stored, with the staff member's layout props and form token. */
export function recordPage<P extends { staff: StaffProps; csrfToken?: string }>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: ComponentType<P>,
  props: NoInfer<Omit<P, 'staff' | 'csrfToken'>>,
  status = 200,
) {
  privatePage(reply);
  const staff = request.staffPage;
  return reply.page(h(page, { ...props, staff, csrfToken: staff.csrfToken } as P), status);
}

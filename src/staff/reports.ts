// What staff reports and inboxes share (the survey results, the messages, the staff home,
// the posters): the unit scope of a filter (a manager sees only their units; another unit's
// data answers 403), the units offered in filters, and the private, never-stored answer of
// a staff page outside a `noStore` scope.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type CsvBatch, csvStream } from '../db/csv/index';
import { sendError } from '../http/errors';
import { QueryValue } from '../http/params';
import { toId } from '../lib/form/index';
import { accessibleUnits, unitScope } from './access';
import { staffOf } from './scope';

/** Query values are bounded strings here and parsed by the form kit in the handlers. */
export const OptionalId = QueryValue;
export const OptionalDay = QueryValue;

/** Another unit's record or filter: its own message, unlike the 403 of http.ts's per-unit check. */
export const unitForbidden = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(request, reply, 403, 'Acesso negado', 'Esta unidade não está entre as unidades da sua conta.');

export const privatePage = (reply: FastifyReply) => reply.header('cache-control', 'private, no-store');

/**
 * A staff CSV export: the log says who took which data out (the export's name and filters,
 * never the data), the answer is private and downloads as `file`.csv.
 */
export function sendCsvExport(
  request: FastifyRequest,
  reply: FastifyReply,
  what: { name: string; filters?: object; file: string },
  csv: { header: string[]; rows: AsyncIterable<CsvBatch> },
) {
  const filters = what.filters ? { filters: what.filters } : {};
  request.log.info({ userId: staffOf(request).id, export: what.name, ...filters }, 'csv export');
  privatePage(reply);
  reply.type('text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${what.file}.csv"`);
  return reply.send(csvStream(csv.header, csv.rows));
}

/**
 * The units a request may see from its `unidade_id` filter ("" = all of the account's).
 * A malformed id is a 400, another unit's a 403; null when that answer was sent.
 */
export async function scopeOf(
  request: FastifyRequest,
  reply: FastifyReply,
  raw: string | undefined,
): Promise<{ unitIds: number[] | null } | null> {
  const requested = raw ? toId(raw.trim()) : null;
  if (raw && requested === null) {
    await sendError(request, reply, 400, 'Filtro inválido', 'O código da unidade no filtro não é válido.');
    return null;
  }
  const scope = unitScope(staffOf(request), requested);
  if (scope.forbidden) {
    await unitForbidden(request, reply);
    return null;
  }
  return scope;
}

/** Units offered in the filters: all for admins, their own for managers. */
export async function visibleUnits<U extends { id: number }>(
  request: FastifyRequest,
  all: () => Promise<U[]>,
): Promise<U[]> {
  return accessibleUnits(staffOf(request), await all());
}

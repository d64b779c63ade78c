// HTTP helpers shared by the staff routes (the layout's props: request.staffPage, scope.ts):
// posted values shown again, the answers after a change or for a missing record, and the per-unit access check.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { canAccessUnit } from './access';
import Type from 'typebox';
import { IdParam } from '../http/params';
import { sendError, wantsJson } from '../http/errors';
import type { FormValues } from './validation';
import { echoValue, toId } from '../lib/form/index';

export const FormBody = Type.Record(Type.String(), Type.Unknown());
export const IdParams = Type.Object({ id: IdParam });
export const IdSubParams = Type.Object({ id: IdParam, sub: IdParam });
export const NoticeQuery = Type.Object({ ok: Type.Optional(Type.String({ maxLength: 40 })) });

/** The body as the form re-renders it: strings and string lists only. */
export function formValues(body: unknown): FormValues {
  const out: FormValues = {};
  if (!body || typeof body !== 'object') return out;
  for (const [k, v] of Object.entries(body as Record<string, unknown>)) {
    if (k === 'csrf_token' || k === 'senha' || k === 'nova_senha') continue;
    // Shown again as typed, minus controls (the rules read the raw body through the form kit).
    if (typeof v === 'string') out[k] = echoValue(v, { max: 20_000, multiLine: true });
    else if (Array.isArray(v))
      out[k] = v.filter((x): x is string => typeof x === 'string').map((x) => echoValue(x, { max: 200 }));
  }
  return out;
}

/** After a change: 303 back to a page (PRG), or 200 JSON for JSON clients. */
export function done(
  request: FastifyRequest,
  reply: FastifyReply,
  location: string,
  data: Record<string, unknown> = {},
) {
  if (wantsJson(request)) return reply.code(200).send({ ok: true, ...data });
  return reply.redirect(location, 303);
}

export function notFound(request: FastifyRequest, reply: FastifyReply, what = 'Cadastro não encontrado') {
  return sendError(
    request,
    reply,
    404,
    what,
    'O endereço não corresponde a nenhum cadastro. Volte para a lista e tente de novo.',
  );
}

export function forbidden(request: FastifyRequest, reply: FastifyReply) {
  return sendError(request, reply, 403, 'Acesso negado', 'Sua conta não tem permissão para esta unidade.');
}

/**
 * preHandler after requireStaff: admins may touch any unit; a manager only the units
 * assigned to them. Another unit's id is 403 whether it exists or not.
 */
export async function requireUnitAccess(request: FastifyRequest, reply: FastifyReply) {
  const staff = request.staff;
  if (!staff) return;
  if (!canAccessUnit(staff, toId((request.params as { id?: unknown }).id) ?? 0)) await forbidden(request, reply);
}

// Route schemas for the values every route shares, built from the form kit's rules so a
// path id or a page number means the same everywhere (docs/decisions/080). Query
// strings stay permissive strings and are parsed by the kit in the route; a path id is
// checked here: only the kit's canonical id reaches the route, anything else is a 404
// (docs/decisions/155).
import type { onRouteHookHandler, preValidationHookHandler } from 'fastify';
import Type from 'typebox';
import { ID_MAX, toId } from '../lib/form/index';

/** A path id: a positive 32-bit integer, written the kit's one way ("12"; not "012", "1.0", "+1", "1e1"). */
export const IdParam = Type.Integer({ minimum: 1, maximum: ID_MAX });

/** An optional query value read by the kit (bounded so a huge value is refused early). */
export const QueryValue = Type.Optional(Type.String({ maxLength: 200 }));

/**
 * onRoute hook: a route whose params schema uses IdParam gets a preValidation check of the
 * raw text with the kit's `toId`, before Fastify's number coercion (which would turn "1.0",
 * "01", "+1" or "1e0" into 1). A path that is not a canonical id names no page: 404.
 */
export const canonicalIdParams: onRouteHookHandler = (route) => {
  const properties = (route.schema?.params as { properties?: Record<string, unknown> } | undefined)?.properties;
  const names = properties ? Object.keys(properties).filter((k) => properties[k] === IdParam) : [];
  if (!names.length) return;
  const check: preValidationHookHandler = (request, reply, done) => {
    const params = request.params as Record<string, unknown>;
    if (names.some((n) => toId(params[n]) === null)) return reply.callNotFound();
    done();
  };
  const existing = route.preValidation;
  route.preValidation = existing ? [check, ...(Array.isArray(existing) ? existing : [existing])] : check;
};

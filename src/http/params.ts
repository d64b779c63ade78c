// Route schemas for the values every route shares, built from the form kit's rules so a
// path id or a page number means the same everywhere (docs/decisions/080). Query
// strings stay permissive strings and are parsed by the kit in the route; a path id is
// checked here (a malformed one is a 400 before the route runs).
import Type from 'typebox';
import { ID_MAX } from '../lib/form/index';

/** A path id: a positive 32-bit integer (Fastify coerces "12" → 12). */
export const IdParam = Type.Integer({ minimum: 1, maximum: ID_MAX });

/** An optional query value read by the kit (bounded so a huge value is refused early). */
export const QueryValue = Type.Optional(Type.String({ maxLength: 200 }));

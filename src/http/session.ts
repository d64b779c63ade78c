// Moved to features/identity/sessions.ts (a table of its own, no @fastify/session).
// Sessions are now read lazily by requireStaff, so staff routes need no wrapper: this
// identity function remains only so code written against the old path keeps working.
import type { FastifyPluginAsync } from 'fastify';
export { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../features/identity/sessions';

export function withStaffSession(routes: FastifyPluginAsync): FastifyPluginAsync {
  return routes;
}

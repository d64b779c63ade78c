// The staff area's scope. A feature registers its staff routes through staffScope() and the
// scope applies, ONCE for all of them:
//   - login and role (preHandler hook): 'staff' lets any active account in, 'admin' only
//     admins (a manager gets 403); anonymous visitors go to the login page (401 for JSON);
//   - `perUnit`: every route's `:id` is a unit, and a manager reaches only their units (403);
//   - CSRF on every unsafe method (POST…), checked after the route's own preHandlers, so a
//     multipart reader (uploadRoutes) has filled the body before the token is looked for;
//   - `noStore`: every answer is `Cache-Control: private, no-store`;
//   - a NotFoundError a service or route throws is a 404 page (its message as the title, or
//     `errors.notFound`), a ForbiddenError a 403 page with `errors.forbidden`.
// Inside, `staffOf(request)` is the staff member (never null) and `request.staffPage` the
// layout props (name, role, CSRF token), made once per request on first use.
import type { FastifyInstance, FastifyReply, FastifyRequest, onRouteHookHandler, preHandlerHookHandler } from 'fastify';
import { sendError } from '../http/errors';
import { ForbiddenError, NotFoundError } from './errors';
import type { StaffProps } from './form.view';
import { notFound, requireUnitAccess } from './http';

declare module 'fastify' {
  interface FastifyRequest {
    /** The staff layout's props (name, role, CSRF token): inside a staffScope only, made once per request. */
    readonly staffPage: StaffProps;
  }
}

/** The logged-in staff member, as requireStaff sets it. */
export type StaffMember = NonNullable<FastifyRequest['staff']>;

export interface StaffScopeOptions {
  /** 'staff': any logged-in account; 'admin': admins only (403 for a unit manager) */
  role: 'staff' | 'admin';
  /** every route's `:id` is a unit id: a manager may reach only the units assigned to them */
  perUnit?: boolean;
  /** answers are never stored (`private, no-store`): pages with unpublished content, secrets */
  noStore?: boolean;
  /** pages for what services throw: NotFoundError → 404, ForbiddenError → 403 (default: the 404 of http.ts) */
  errors?: { notFound: { title: string; message: string }; forbidden?: { title: string; message: string } };
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * The staff member of a request inside a staff scope. Outside one it throws, which the error
 * handler answers with a 500 page: a wrong wiring never shows or changes anything.
 */
export function staffOf(request: FastifyRequest): StaffMember {
  const staff = request.staff;
  if (!staff) throw new Error(`staffOf: ${request.method} ${request.routeOptions.url} is not in a staff scope`);
  return staff;
}

/** Who acts, for a service's audit rows. */
export const actorOf = (request: FastifyRequest) => ({ id: staffOf(request).id });

// The reply of each request in a staff scope (for its CSRF token) and its page props once made.
const pages = new WeakMap<FastifyRequest, { reply: FastifyReply; props?: StaffProps }>();

function staffPageGetter(this: FastifyRequest): StaffProps {
  const slot = pages.get(this);
  if (!slot) throw new Error(`staffPage: ${this.method} ${this.routeOptions.url} is not in a staff scope`);
  if (!slot.props) {
    const staff = staffOf(this);
    slot.props = { name: staff.nome, csrfToken: slot.reply.generateCsrf(), papel: staff.papel };
  }
  return slot.props;
}

/**
 * For the one staff page that cannot live in a staff scope (the lead panel shares its address
 * with the login form): after its own login check, `request.staffPage` works there too.
 */
export function openStaffPage(request: FastifyRequest, reply: FastifyReply) {
  staffOf(request);
  pages.set(request, { reply });
}

/** Appends the CSRF check to every route of unsafe method, after the route's own preHandlers. */
function csrfLast(app: FastifyInstance): onRouteHookHandler {
  return (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (methods.every((m) => SAFE_METHODS.has(m))) return;
    const check: preHandlerHookHandler = function (request, reply, done) {
      if (SAFE_METHODS.has(request.method)) return done();
      return app.csrfProtection.call(this, request, reply, done);
    };
    const own = route.preHandler;
    route.preHandler = own ? [...(Array.isArray(own) ? own : [own]), check] : check;
  };
}

/**
 * Registers `routes` in a new encapsulated scope of `app` guarded as `options` say (see the
 * top of this file). Each feature keeps its own paths; the scope adds no prefix.
 */
export function staffScope(
  app: FastifyInstance,
  options: StaffScopeOptions,
  routes: (scope: FastifyInstance) => void | Promise<void>,
) {
  if (!app.hasRequestDecorator('staffPage')) app.decorateRequest('staffPage', { getter: staffPageGetter });
  const role = options.role === 'admin' ? app.requireAdmin : app.requireStaff;
  return app.register(async (scope) => {
    if (options.noStore)
      scope.addHook('onRequest', async (_request, reply) => {
        reply.header('cache-control', 'private, no-store');
      });
    scope.addHook('preHandler', async (request, reply) => {
      await role(request, reply);
      if (reply.sent) return;
      openStaffPage(request, reply);
      if (options.perUnit) await requireUnitAccess(request, reply);
    });
    scope.addHook('onRoute', csrfLast(app));
    const errors = options.errors;
    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof NotFoundError)
        return errors
          ? sendError(request, reply, 404, errors.notFound.title, errors.notFound.message)
          : notFound(request, reply, error.message || undefined);
      if (error instanceof ForbiddenError && errors?.forbidden)
        return sendError(request, reply, 403, errors.forbidden.title, errors.forbidden.message);
      throw error;
    });
    await routes(scope);
  });
}

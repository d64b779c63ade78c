import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import csrf from '@fastify/csrf-protection';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseQueryString } from 'node:querystring';
import { httpError } from './errors';

/** Bodies: at most this many fields (pairs) and this many distinct names (docs/decisions/083). */
export const FORM_MAX_PAIRS = 5000;
export const FORM_MAX_NAMES = 300;
export const FORM_BODY_LIMIT = 256 * 1024;

/** urlencoded → fields; a body with too many fields is refused before any route sees it. */
export function parseFormBody(text: string): Record<string, string | string[]> {
  let pairs = 1;
  for (let i = text.indexOf('&'); i !== -1 && pairs <= FORM_MAX_PAIRS; i = text.indexOf('&', i + 1)) pairs++;
  if (pairs > FORM_MAX_PAIRS)
    throw httpError(
      413,
      'Campos demais',
      `O formulário enviado tem campos demais (o máximo é ${FORM_MAX_PAIRS}). Nada foi gravado.`,
    );
  const parsed = parseQueryString(text, '&', '=', { maxKeys: 0 }) as Record<string, string | string[]>;
  if (Object.keys(parsed).length > FORM_MAX_NAMES) {
    throw httpError(
      413,
      'Campos demais',
      `O formulário enviado tem campos demais (o máximo é ${FORM_MAX_NAMES} nomes diferentes). Nada foi gravado.`,
    );
  }
  return parsed;
}

const MULTIPART_LIMITS = { fileSize: 10 * 1024 * 1024, files: 2, fields: 30, parts: 40, fieldSize: 64 * 1024 };

/**
 * Routes that take files (free message, unit photos, timetable CSV) are registered through
 * this: @fastify/multipart, its parser and its two async hooks (temp-file cleanup) live in
 * their scope only, so no other request pays for them. Elsewhere a multipart body has no
 * parser and is refused with 415 (errors.ts says the form takes no files).
 */
export function uploadRoutes(routes: (scope: FastifyInstance) => void) {
  return async (scope: FastifyInstance) => {
    await scope.register(multipart, { limits: MULTIPART_LIMITS });
    routes(scope);
  };
}

/** The interface names the token `csrf_token` (franchise, staff) or `_token` (feedback forms). */
function tokenFrom(request: FastifyRequest): string | undefined {
  const body = request.body as Record<string, unknown> | undefined;
  const pick = (v: unknown): string | undefined => {
    if (typeof v === 'string') return v;
    // @fastify/multipart with attachFieldsToBody gives { value } objects.
    if (v && typeof v === 'object' && 'value' in v && typeof (v as { value: unknown }).value === 'string') {
      return (v as { value: string }).value;
    }
    return undefined;
  };
  return pick(body?.csrf_token) ?? pick(body?._token) ?? (request.headers['x-csrf-token'] as string | undefined);
}

/**
 * Form parsing and CSRF. The CSRF secret lives in a signed, HttpOnly cookie, so public
 * forms need no server-side session; staff forms use the same mechanism.
 */
export default fp<{ secret: string }>(
  async (app, { secret }) => {
    await app.register(cookie, { secret, hook: 'onRequest' });
    // Every form of the site is urlencoded (multipart where it takes files): a JSON or
    // text body gets 415 with a pt-BR message instead of reaching a form's rules.
    app.removeContentTypeParser(['application/json', 'text/plain']);
    await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT, parser: parseFormBody });
    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: '_csrf',
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, signed: true, secure: 'auto' },
      getToken: tokenFrom,
    });
  },
  { name: 'forms', fastify: '5.x' },
);

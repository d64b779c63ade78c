import fp from 'fastify-plugin';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import csrf from '@fastify/csrf-protection';
import type { FastifyRequest } from 'fastify';

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
  return (
    pick(body?.csrf_token) ??
    pick(body?._token) ??
    (request.headers['x-csrf-token'] as string | undefined)
  );
}

/**
 * Form parsing and CSRF. The CSRF secret lives in a signed, HttpOnly cookie, so public
 * forms need no server-side session; staff forms use the same mechanism.
 */
export default fp<{ secret: string }>(
  async (app, { secret }) => {
    await app.register(cookie, { secret, hook: 'onRequest' });
    await app.register(formbody, { bodyLimit: 256 * 1024 });
    await app.register(multipart, {
      limits: { fileSize: 10 * 1024 * 1024, files: 2, fields: 30, parts: 40, fieldSize: 64 * 1024 },
    });
    await app.register(csrf, {
      sessionPlugin: '@fastify/cookie',
      cookieKey: '_csrf',
      cookieOpts: { path: '/', sameSite: 'lax', httpOnly: true, signed: true, secure: 'auto' },
      getToken: tokenFrom,
    });
  },
  { name: 'forms', fastify: '5.x' },
);

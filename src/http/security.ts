import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { httpError } from './errors';

// Scripts, styles, images and fonts only from our own origin: no inline script, no
// unsafe-inline anywhere. JSON-LD data blocks are not scripts and need no exception.
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

// The same set helmet would send, computed once: these values never vary per request,
// and rebuilding them on every request (as @fastify/helmet does) halved throughput.
const HEADERS: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-permitted-cross-domain-policies': 'none',
  // Geolocation only for our own pages: "Unidades perto de mim" asks for it.
  'permissions-policy': 'camera=(), microphone=(), geolocation=(self), payment=()',
};
export const HSTS = 'max-age=31536000; includeSubDomains';

// Data (JSON, the sitemap's XML, robots.txt) is never one of our pages: a page's policy would
// be ~600 bytes of headers per answer for nothing. It gets a CSP that forbids everything (in
// case a browser is tricked into rendering it: XML can carry XHTML), nosniff, and CORP
// against cross-origin no-cors reads.
const DATA_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";
const DATA_HEADERS: Record<string, string> = {
  'content-security-policy': DATA_CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

declare module 'fastify' {
  interface FastifyContextConfig {
    /** 'data' for routes that only ever answer data, never a page (JSON, XML, text): the short header set */
    securityHeaders?: 'data';
  }
}

/**
 * What every request gets before any route sees it, in one callback hook (a hook phase costs
 * by existing, so one hook instead of three: docs/decisions/170): its request id and the
 * security headers on the answer, errors and 404s included; and an address with a NUL is
 * refused.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
      reply.header('x-request-id', request.id);
      reply.headers(request.routeOptions.config.securityHeaders === 'data' ? DATA_HEADERS : HEADERS);
      // HSTS only over HTTPS (behind a proxy only when TRUST_PROXY says so).
      if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
      // A NUL in the address (path or query) is never a value anyone typed; PostgreSQL cannot
      // even compare it. Refused before any route or query sees it.
      const url = request.url;
      if (url.includes('%00') || url.includes('\u0000')) {
        return done(
          httpError(400, 'Endereço inválido', 'O endereço contém um caractere inválido (NUL). Nada foi feito.'),
        );
      }
      done();
    });
  },
  { name: 'security-headers', fastify: '5.x' },
);

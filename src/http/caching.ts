// HTTP caching of public answers (docs/decisions/190): what a shared cache in front of the
// instances (nginx, a CDN) may keep and for how long, and conditional GETs by entity tag.
import type { FastifyReply } from 'fastify';

/**
 * Public answers: browsers revalidate every time (max-age=0, answered 304 by ETag); a shared
 * cache keeps them for the catalog snapshot's own 5 s, serves them stale for 30 s more while
 * it refreshes in the background, and for an hour when every instance fails.
 */
export const PUBLIC_CACHE_CONTROL = 'public, max-age=0, s-maxage=5, stale-while-revalidate=30, stale-if-error=3600';

/**
 * Whether an If-None-Match header matches `etag` (RFC 9110 13.1.2): `*`, or any listed tag
 * equal by the weak comparison (W/ ignored on both sides).
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  for (const part of header.split(',')) {
    const t = part.trim();
    if ((t.startsWith('W/') ? t.slice(2) : t) === opaque) return true;
  }
  return false;
}

/**
 * Sets the public caching headers and the ETag; for a GET or HEAD whose If-None-Match
 * matches, sends 304 (no body) and returns true.
 */
export function notModified(reply: FastifyReply, etag: string): boolean {
  reply.header('cache-control', PUBLIC_CACHE_CONTROL).header('etag', etag);
  const { method, headers } = reply.request;
  if ((method !== 'GET' && method !== 'HEAD') || !ifNoneMatchHits(headers['if-none-match'], etag)) return false;
  reply.code(304).removeHeader('content-type').send();
  return true;
}

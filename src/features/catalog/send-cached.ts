// The one way to send a kept catalog answer (docs/decisions/160): in the encoding the client
// asked for, from bytes compressed once per snapshot instead of by @fastify/compress on every
// request. Compress's onSend leaves an answer alone once it has a Content-Encoding.
import type { FastifyReply } from 'fastify';
import { negotiate } from '@fastify/accept-negotiator';
import { COMPRESS_ENCODINGS, COMPRESS_THRESHOLD, COMPRESSIBLE_TYPES, type CompressEncoding } from '../../http/compression';
import type { CachedAnswer, SnapshotCache } from './snapshot-cache';

/** Sends `answer` (the reply's type already set) as @fastify/compress would have encoded it. */
export function sendCached(reply: FastifyReply, cache: SnapshotCache, answer: CachedAnswer): FastifyReply {
  const { bytes } = answer;
  if (bytes.length < COMPRESS_THRESHOLD || !COMPRESSIBLE_TYPES.test(String(reply.getHeader('content-type') ?? ''))) return reply.send(bytes);
  // The answer depends on Accept-Encoding even when it goes out as is: a shared cache must know.
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  const { headers } = reply.request;
  const encoding = headers['x-no-compression'] === undefined ? negotiateEncoding(headers['accept-encoding']) : null;
  if (encoding === null) return reply.send(bytes);
  // Fastify sets the content-length of the compressed buffer (and keeps it for HEAD).
  return reply.header('content-encoding', encoding).send(cache.encoded(answer, encoding));
}

/**
 * The encoding @fastify/compress picks for an Accept-Encoding header, with the negotiator it
 * uses: the highest q wins, br before gzip at the same q; q=0 refuses; `*` and `x-gzip` count
 * as gzip (as compress rewrites them); null means identity.
 */
export function negotiateEncoding(header: string | undefined): CompressEncoding | null {
  if (!header) return null;
  const encoding = negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), [...COMPRESS_ENCODINGS]);
  return encoding === 'br' || encoding === 'gzip' ? encoding : null;
}

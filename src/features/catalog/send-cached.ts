// The one way the catalog sends its answers (docs/decisions/160, 170, 190): in the encoding
// the client asked for, negotiated as @fastify/compress would, from bytes compressed once per
// snapshot for kept answers (`sendCached`) or compressed now for the others (`sendFresh`).
// Routes that send through here opt out of compress's hooks (ENCODED_BY_ROUTE). Both mark
// the answer public for shared caches; a kept answer also carries an ETag and is answered
// 304 on a matching If-None-Match.
import type { FastifyReply } from 'fastify';
import { PUBLIC_CACHE_CONTROL, notModified } from '../../http/caching';
import {
  COMPRESS_THRESHOLD,
  COMPRESSIBLE_TYPES,
  compressorsAt,
  negotiateEncoding,
  type CompressEncoding,
} from '../../http/compression';
import type { CachedAnswer, SnapshotCache } from './snapshot-cache';

/** Sends `answer` (the reply's type already set) as @fastify/compress would have encoded it. */
export function sendCached(reply: FastifyReply, cache: SnapshotCache, answer: CachedAnswer): FastifyReply {
  const encoding = varyByEncoding(reply, answer.bytes.length) ? requestedEncoding(reply) : null;
  // One tag per representation: the compressed forms are other bytes (RFC 9110 8.8.3).
  if (notModified(reply, `"${answer.tag}${encoding === null ? '' : `-${encoding}`}"`)) return reply;
  return encoding === null
    ? reply.send(answer.bytes)
    : reply.header('content-encoding', encoding).send(cache.encoded(answer, encoding));
}

/** compress's own levels for an answer made for one request: brotli 4, gzip 6 */
const COMPRESS_NOW = compressorsAt({ br: 4, gzip: 6 });

/**
 * Sends `bytes` made for this request only (the reply's type and status set), compressed now
 * if asked. A 200 is public (the same for everyone who asks the same address); others are not kept.
 */
export function sendFresh(reply: FastifyReply, bytes: Buffer): FastifyReply {
  if (reply.statusCode === 200) reply.header('cache-control', PUBLIC_CACHE_CONTROL);
  const encoding = varyByEncoding(reply, bytes.length) ? requestedEncoding(reply) : null;
  return encoding === null
    ? reply.send(bytes)
    : reply.header('content-encoding', encoding).send(COMPRESS_NOW[encoding](bytes));
}

/** Whether an answer of `length` bytes depends on Accept-Encoding; if so, `vary` says it. */
function varyByEncoding(reply: FastifyReply, length: number): boolean {
  if (length < COMPRESS_THRESHOLD || !COMPRESSIBLE_TYPES.test(String(reply.getHeader('content-type') ?? '')))
    return false;
  // The answer depends on Accept-Encoding even when it goes out as is: a shared cache must know.
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  return true;
}

function requestedEncoding(reply: FastifyReply): CompressEncoding | null {
  const { headers } = reply.request;
  return headers['x-no-compression'] === undefined ? negotiateEncoding(headers['accept-encoding']) : null;
}

// The one way the catalog sends its answers (docs/decisions/160, 170): in the encoding the
// client asked for, negotiated as @fastify/compress would, from bytes compressed once per
// snapshot for kept answers (`sendCached`) or compressed now for the others (`sendFresh`).
// Routes that send through here opt out of compress's hooks (ENCODED_BY_ROUTE).
import type { FastifyReply } from 'fastify';
import { negotiate } from '@fastify/accept-negotiator';
import { COMPRESS_ENCODINGS, COMPRESS_THRESHOLD, COMPRESSIBLE_TYPES, compressorsAt, type CompressEncoding } from '../../http/compression';
import type { CachedAnswer, SnapshotCache } from './snapshot-cache';

/** Sends `answer` (the reply's type already set) as @fastify/compress would have encoded it. */
export function sendCached(reply: FastifyReply, cache: SnapshotCache, answer: CachedAnswer): FastifyReply {
  const encoding = chooseEncoding(reply, answer.bytes.length);
  return encoding === null ? reply.send(answer.bytes) : reply.header('content-encoding', encoding).send(cache.encoded(answer, encoding));
}

/** compress's own levels for an answer made for one request: brotli 4, gzip 6 */
const COMPRESS_NOW = compressorsAt({ br: 4, gzip: 6 });

/** Sends `bytes` made for this request only (the reply's type and status set), compressed now if asked. */
export function sendFresh(reply: FastifyReply, bytes: Buffer): FastifyReply {
  const encoding = chooseEncoding(reply, bytes.length);
  return encoding === null ? reply.send(bytes) : reply.header('content-encoding', encoding).send(COMPRESS_NOW[encoding](bytes));
}

/** The encoding for an answer of `length` bytes, with `vary` set when the answer depends on it. */
function chooseEncoding(reply: FastifyReply, length: number): CompressEncoding | null {
  if (length < COMPRESS_THRESHOLD || !COMPRESSIBLE_TYPES.test(String(reply.getHeader('content-type') ?? ''))) return null;
  // The answer depends on Accept-Encoding even when it goes out as is: a shared cache must know.
  const vary = reply.getHeader('vary');
  if (vary === undefined) reply.header('vary', 'accept-encoding');
  else if (!/accept-encoding/i.test(String(vary))) reply.header('vary', `${String(vary)}, accept-encoding`);
  const { headers } = reply.request;
  return headers['x-no-compression'] === undefined ? negotiateEncoding(headers['accept-encoding']) : null;
}

/** Browsers send a handful of distinct Accept-Encoding values: each is parsed once. */
const negotiated = new Map<string, CompressEncoding | null>();
const NEGOTIATED_MAX = 256;

/**
 * The encoding @fastify/compress picks for an Accept-Encoding header, with the negotiator it
 * uses: the highest q wins, br before gzip at the same q; q=0 refuses; `*` and `x-gzip` count
 * as gzip (as compress rewrites them); null means identity.
 */
export function negotiateEncoding(header: string | undefined): CompressEncoding | null {
  if (!header) return null;
  let encoding = negotiated.get(header);
  if (encoding !== undefined) return encoding;
  const picked = negotiate(header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip'), [...COMPRESS_ENCODINGS]);
  encoding = picked === 'br' || picked === 'gzip' ? picked : null;
  // Bounded: a client sending random headers empties the memo instead of growing it.
  if (negotiated.size >= NEGOTIATED_MAX) negotiated.clear();
  negotiated.set(header, encoding);
  return encoding;
}

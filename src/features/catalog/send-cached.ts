// The one way to send a kept catalog answer (docs/decisions/160): in the encoding the client
// asked for, from bytes compressed once per snapshot instead of by @fastify/compress on every
// request. Compress's onSend leaves an answer alone once it has a Content-Encoding.
import type { FastifyReply } from 'fastify';
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
 * The encoding @fastify/compress picks for an Accept-Encoding header (its negotiator,
 * @fastify/accept-negotiator, is not a dependency of ours): the highest q wins, br before
 * gzip at the same q; q=0 refuses; `*` and `x-gzip` count as gzip; null means identity.
 */
export function negotiateEncoding(header: string | undefined): CompressEncoding | null {
  if (!header) return null;
  const value = header.toLowerCase().replace(/\*|x-gzip/gu, 'gzip');
  let best: CompressEncoding | null = null;
  let bestQ = 0;
  let bestRank = Infinity;
  // The negotiator's tokeniser, kept as it is so odd headers get the same answer.
  const consider = (token: string, q: number): boolean => {
    const rank = COMPRESS_ENCODINGS.indexOf(token as CompressEncoding);
    if (q === 0 || bestQ > q || rank === -1) return false;
    if (rank === 0 && q === 1) {
      best = COMPRESS_ENCODINGS[0];
      return true; // the first choice at full quality: nothing can beat it
    }
    if (bestQ < q || bestRank > rank) [best, bestQ, bestRank] = [COMPRESS_ENCODINGS[rank]!, q, rank];
    return false;
  };
  let token = '';
  let quality = '';
  let state: 'begin' | 'token' | 'quality' = 'begin';
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === ' ' || char === '\t') continue;
    if (char === ';') {
      if (state === 'token') [state, quality] = ['quality', ''];
      continue;
    }
    if (char === ',') {
      if (state === 'token' || state === 'quality') {
        if (consider(token, state === 'token' ? 1 : parseFloat(quality) || 0)) return best;
        [state, token, quality] = ['begin', '', ''];
      }
      continue;
    }
    if (state === 'quality') {
      if (char === 'q' || char === '=') continue;
      if (char === '.' || (char >= '0' && char <= '9')) {
        quality += char;
        continue;
      }
    } else if (state === 'begin') {
      [state, token] = ['token', token + char];
      continue;
    }
    if (state === 'token') {
      const prev = value[i - 1];
      if (prev === ' ' || prev === '\t') token = '';
      token += char;
      continue;
    }
    // a stray character after a quality ends that item and starts the next
    if (consider(token, parseFloat(quality) || 0)) return best;
    [state, token, quality] = ['begin', char, ''];
  }
  if (state === 'token') consider(token, 1);
  else if (state === 'quality') consider(token, parseFloat(quality) || 0);
  return best;
}

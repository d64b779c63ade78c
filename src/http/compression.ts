// What the app compresses, in one place: @fastify/compress (static.ts) compresses answers as
// they are sent, and the catalog keeps its cached answers compressed per snapshot
// (docs/decisions/160); both must agree on when a body is worth compressing.
import zlib from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';

/** Bodies smaller than this are sent as they are: the headers would eat the gain. */
export const COMPRESS_THRESHOLD = 1024;

/** In order of preference when a client accepts several at the same quality. */
export const COMPRESS_ENCODINGS = ['br', 'gzip'] as const;
export type CompressEncoding = (typeof COMPRESS_ENCODINGS)[number];

/** One synchronous compressor per encoding, at the given brotli quality and gzip level. */
export function compressorsAt(levels: {
  br: number;
  gzip: number;
}): Record<CompressEncoding, (bytes: Buffer) => Buffer> {
  return {
    br: (bytes) =>
      zlib.brotliCompressSync(bytes, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: levels.br,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    gzip: (bytes) => zlib.gzipSync(bytes, { level: levels.gzip }),
  };
}

/** @fastify/compress's own default (text, JSON, XML): named here so the cached answers use the same. */
export const COMPRESSIBLE_TYPES =
  /^text\/(?!event-stream)|(?:\+|\/)json(?:;|$)|(?:\+|\/)text(?:;|$)|(?:\+|\/)xml(?:;|$)|octet-stream(?:;|$)/u;

/** The site's @fastify/compress options (static.ts). */
export const COMPRESS_OPTIONS = {
  threshold: COMPRESS_THRESHOLD,
  encodings: [...COMPRESS_ENCODINGS],
  customTypes: COMPRESSIBLE_TYPES,
};

/**
 * Route option for the CSV exports, streams of up to hundreds of megabytes: brotli quality 1
 * and gzip level 1 compress them about three times faster than the defaults (4 and 6), for a
 * file a few percent larger. At the defaults, compression took the core the database and the
 * public pages needed (figures in bench/README.md).
 */
export const EXPORT_COMPRESSION = {
  compress: {
    ...COMPRESS_OPTIONS,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 1 } },
    zlibOptions: { level: 1 },
  },
} as const;

/**
 * Route options for routes that encode their own answers (the catalog's `sendCached` and
 * `sendFresh`) or only send a few bytes: @fastify/compress adds no hook to them. Its
 * per-request hooks (a decompression check before parsing, the negotiation on send) were a
 * third of a small answer's cost (docs/decisions/170).
 */
export const ENCODED_BY_ROUTE = { compress: false, decompress: false } as const;

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

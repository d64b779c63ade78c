// The answer front (docs/decisions/182): a repeat GET of a public answer the catalog keeps as
// bytes (search, unit and Pass pages, the unit list and its JSON, the sitemap) is answered
// from the node:http server's own request handler, before Fastify routes it. Fastify's
// pipeline with the hooks every route needs (cookies and CSRF, the request logger, the
// security headers, query validation) costs more than the rest of such an answer; here it
// costs a map lookup and one write.
//
// What the front sends is what Fastify sent the first time, header for header: it keeps the
// headers the answer went out with (read once it is sent, every hook having run) and writes
// only what varies per request: the request id, the encoding, the length and HSTS. Every
// answer is checked on every request against its source's freshness rule (the catalog
// snapshot's), and anything the front cannot answer exactly as Fastify would goes to
// Fastify: HEAD and other methods, an address it has not seen answered, a snapshot past its
// freshness window, an answer dropped from its cache, request lines in the log (LOG_LEVEL
// info or lower), shutdown.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyReply } from 'fastify';
import { negotiateEncoding, type CompressEncoding } from './compression';
import type { FastifyTrustProxy } from './proxy';

/** A kept answer as the front sees it: where it lives, not the answer itself. */
export interface FrontSource {
  /** the cache and key it is kept under: offered again, the address is not kept twice */
  readonly owner: object;
  readonly key: string;
  /** whether the answer's bytes depend on Accept-Encoding (it then carries `vary`) */
  readonly negotiable: boolean;
  /** its bytes in `encoding` (null: as they are), or undefined once it is no longer current at `now` */
  bytes(encoding: CompressEncoding | null, now: number): Buffer | undefined;
}

interface Kept {
  source: FrontSource;
  /** the headers the answer went out with, flat name/value pairs, without the per-request ones */
  headers: string[];
}

/** Headers the front writes per request (node:http writes the date and the connection's). */
const PER_REQUEST = new Set([
  'x-request-id',
  'content-length',
  'content-encoding',
  'strict-transport-security',
  'connection',
  'date',
]);
const HSTS_HEADER = 'strict-transport-security';

export interface AnswerFrontOptions {
  /** the same generator Fastify uses, so ids stay unique per process */
  requestId: (req: IncomingMessage) => string;
  trustProxy: FastifyTrustProxy;
  /** HSTS value (security.ts): sent when the request came over HTTPS */
  hsts: string;
  /** true while request lines are logged: those requests go through Fastify, which logs them */
  logsRequests: () => boolean;
  /** distinct addresses kept (each holds its answer's cache and key, not the answer) */
  maxEntries?: number;
  /** told when answering from the front failed (the request then goes to Fastify) */
  onError?: (err: unknown) => void;
}

export class AnswerFront {
  private readonly kept = new Map<string, Kept>();
  /** one headers array per distinct set: thousands of search addresses share a few */
  private readonly headerSets = new Map<string, string[]>();
  private readonly trusted: (address: string, hop: number) => boolean;
  private readonly maxEntries: number;
  private closing = false;

  constructor(private readonly options: AnswerFrontOptions) {
    const tp = options.trustProxy;
    this.trusted =
      typeof tp === 'function' ? tp : tp === true ? () => true : tp === false ? () => false : proxyAddr.compile(tp);
    this.maxEntries = options.maxEntries ?? 4_000;
  }

  /** From now on every request goes through Fastify (which answers 503 and closes connections). */
  close(): void {
    this.closing = true;
    this.kept.clear();
  }

  /**
   * Called by a route as it sends a kept answer: once the answer has gone out, the next GET
   * of the same address may be answered by the front with the headers it went out with.
   */
  keep(reply: FastifyReply, source: FrontSource): void {
    const request = reply.request;
    const url = request.raw.url;
    if (this.closing || request.method !== 'GET' || url === undefined || url.length > 1024) return;
    const kept = this.kept.get(url);
    if (
      (kept &&
        kept.source.owner === source.owner &&
        kept.source.key === source.key &&
        kept.source.negotiable === source.negotiable) ||
      this.options.logsRequests()
    )
      return;
    // The headers are read once the answer is sent: onSend hooks (cookies among them) have run.
    reply.raw.once('finish', () => this.remember(url, reply, source));
  }

  private remember(url: string, reply: FastifyReply, source: FrontSource): void {
    if (this.closing || reply.statusCode !== 200) return;
    const headers: string[] = [];
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      // An answer that sets a cookie is someone's own, and a rate-limited route must count
      // every request: neither is ever answered by the front.
      if (name === 'set-cookie' || name.startsWith('x-ratelimit-')) return;
      if (PER_REQUEST.has(name) || value === undefined) continue;
      if (Array.isArray(value)) for (const v of value) headers.push(name, v);
      else headers.push(name, String(value));
    }
    const signature = headers.join('\n');
    let shared = this.headerSets.get(signature);
    if (!shared) {
      if (this.headerSets.size >= 64) this.headerSets.clear();
      this.headerSets.set(signature, (shared = headers));
    }
    if (this.kept.size >= this.maxEntries && !this.kept.has(url))
      this.kept.delete(this.kept.keys().next().value as string);
    this.kept.set(url, { source, headers: shared });
  }

  /** Answers `req` when it is a kept answer's repeat; false sends it on to Fastify. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' || this.closing) return false;
    const kept = this.kept.get(req.url as string);
    if (kept === undefined || this.options.logsRequests()) return false;
    try {
      const encoding =
        kept.source.negotiable && req.headers['x-no-compression'] === undefined
          ? negotiateEncoding(req.headers['accept-encoding'])
          : null;
      const body = kept.source.bytes(encoding, Date.now());
      if (body === undefined) {
        // Its snapshot went (or is due a freshness check): Fastify answers, and keeps it again.
        this.kept.delete(req.url as string);
        return false;
      }
      const headers = ['x-request-id', this.options.requestId(req), ...kept.headers];
      if (this.protocol(req) === 'https') headers.push(HSTS_HEADER, this.options.hsts);
      if (encoding !== null) headers.push('content-encoding', encoding);
      headers.push('content-length', String(body.length));
      res.writeHead(200, headers);
      res.end(body);
      return true;
    } catch (err) {
      // Never the process's end: forget the address; Fastify answers (and logs) unless bytes already left.
      this.kept.delete(req.url as string);
      this.options.onError?.(err);
      if (!res.headersSent) return false;
      res.destroy();
      return true;
    }
  }

  /** addresses kept (tests, diagnostics) */
  get size(): number {
    return this.kept.size;
  }

  /** As Fastify's `request.protocol`: X-Forwarded-Proto only from a trusted proxy. */
  private protocol(req: IncomingMessage): 'http' | 'https' | string {
    const forwarded = req.headers['x-forwarded-proto'];
    const socket = req.socket;
    if (forwarded && this.trusted(socket.remoteAddress ?? '', 0)) {
      const value = Array.isArray(forwarded) ? forwarded[forwarded.length - 1]! : forwarded;
      const comma = value.lastIndexOf(',');
      return (comma === -1 ? value : value.slice(comma + 1)).trim();
    }
    return (socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
  }
}

/**
 * Puts the front before Fastify's request handler on Fastify's own server (same timeouts and
 * listening addresses as without it).
 */
export function putInFront(server: Server, front: AnswerFront): void {
  const handlers = server.listeners('request') as RequestListener[];
  if (handlers.length !== 1)
    throw new Error(`answer front: expected Fastify's one request handler, found ${handlers.length}`);
  const fastify = handlers[0]!;
  server.removeListener('request', fastify);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!front.serve(req, res)) fastify.call(server, req, res);
  });
}

// Prometheus metrics on /metrics (docs/decisions/225): off (404) unless METRICS_TOKEN is set,
// then only with `Authorization: Bearer <token>`. The counters recorded as things happen are
// the process's (metrics.ts); the pool, the outboxes and the features' counts are read from
// this app at scrape time.
import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { enableMetrics, observeRequest } from './metrics';

/** What an outbox tells the scrape: rows still to deliver, and when the oldest of them was queued. */
export interface OutboxStats {
  depth: number;
  oldestPendingAt: string | Date | null;
}
export type OutboxSource = () => Promise<OutboxStats>;

/**
 * A gauge a feature fills from the database at each scrape, one series per value of `label`
 * (e.g. enrolments by status): the same on every instance, unlike a counter in one process.
 */
export interface CountGauge {
  name: string;
  help: string;
  label: string;
  /** the count of each label value; a value left out is not reported */
  read(): Promise<Record<string, number>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: {
      /** an outbox whose depth and oldest pending row are reported under `canal` ("email", "webhook") */
      addOutboxSource(canal: string, source: OutboxSource): void;
      /** a gauge read at scrape time (nothing happens while metrics are off) */
      addCountGauge(gauge: CountGauge): void;
    };
  }
}

/** The text format Prometheus reads (0.0.4). */
export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * Compares the header's credentials with the token in constant time (hashes have equal
 * length). The scheme is case-insensitive (RFC 9110): "bearer" from a scraper counts.
 */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^bearer +(\S+) *$/i.exec(header ?? '')?.[1] ?? '';
  return timingSafeEqual(digest(`t:${given}`), digest(`t:${token}`)) && given.length > 0;
}

export default fp(
  async (app) => {
    const sources = new Map<string, OutboxSource>();
    const counts: CountGauge[] = [];
    // Set once the registry exists; a feature registered later adds its gauge at once.
    let registerCount: ((gauge: CountGauge) => void) | null = null;
    app.decorate('metrics', {
      addOutboxSource(canal: string, source: OutboxSource) {
        sources.set(canal, source);
      },
      addCountGauge(gauge: CountGauge) {
        counts.push(gauge);
        registerCount?.(gauge);
      },
    });
    const token = app.config.metricsToken;
    if (!token) return;

    const { prom, registry: processRegistry } = await enableMetrics();
    const { Gauge, Registry } = prom;
    // One hook, after the answer: Fastify's own clock (from the start of onRequest) and the
    // route's pattern, so /Detalhes.php?id=1 and ?id=2 are one series. No route: "404".
    app.addHook('onResponse', (request, reply, done) => {
      observeRequest(request.routeOptions.url ?? '404', request.method, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });

    const registry = new Registry();
    new Gauge({
      name: 'db_pool_connections',
      help: 'Conexões do pool do banco por estado (in_use, idle). SQLite: uma conexão, sempre idle.',
      labelNames: ['state'] as const,
      registers: [registry],
      collect() {
        const s = app.dbPoolStats();
        this.labels('in_use').set(s.total - s.idle);
        this.labels('idle').set(s.idle);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Pedidos esperando uma conexão livre do pool (SQLite: sempre 0).',
      registers: [registry],
      collect() {
        this.set(app.dbPoolStats().waiting);
      },
    });

    // Both outbox gauges are filled from one read of each source per scrape: the registry
    // collects its metrics concurrently, so the first asks and the second gets the same answer.
    let reading: Promise<Map<string, OutboxStats>> | null = null;
    const readOutboxes = () => {
      reading ??= (async () => {
        const out = new Map<string, OutboxStats>();
        for (const [canal, source] of sources) out.set(canal, await source());
        return out;
      })().finally(() => {
        reading = null;
      });
      return reading;
    };
    new Gauge({
      name: 'outbox_depth',
      help: 'Itens esperando entrega na fila de saída (pendentes ou em envio), por canal.',
      labelNames: ['canal'] as const,
      registers: [registry],
      async collect() {
        for (const [canal, s] of await readOutboxes()) this.labels(canal).set(s.depth);
      },
    });
    new Gauge({
      name: 'outbox_oldest_pending_age_seconds',
      help: 'Idade do item mais antigo ainda não entregue, por canal (0 com a fila vazia).',
      labelNames: ['canal'] as const,
      registers: [registry],
      async collect() {
        const stats = await readOutboxes();
        const now = Date.now();
        for (const [canal, s] of stats) {
          const at = s.oldestPendingAt ? new Date(s.oldestPendingAt).getTime() : now;
          this.labels(canal).set(Math.max(0, (now - at) / 1000));
        }
      },
    });

    registerCount = (gauge) =>
      new Gauge({
        name: gauge.name,
        help: gauge.help,
        labelNames: [gauge.label],
        registers: [registry],
        async collect() {
          const read = await gauge.read();
          // a label value gone from the database must not keep its last count
          this.reset();
          for (const [value, n] of Object.entries(read)) this.labels(value).set(n);
        },
      });
    for (const gauge of counts) registerCount(gauge);

    app.get('/metrics', { config: { securityHeaders: 'data' } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (!bearerMatches(request.headers.authorization, token)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .type('text/plain; charset=utf-8')
          .send('Token de acesso ausente ou inválido.\n');
      }
      const [own, process] = await Promise.all([registry.metrics(), processRegistry.metrics()]);
      return reply.type(METRICS_CONTENT_TYPE).send(process + own);
    });
  },
  { name: 'metrics', fastify: '5.x', dependencies: ['db'] },
);

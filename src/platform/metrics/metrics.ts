// The process's counters (docs/decisions/225): what the code records as it happens —
// request durations, deliveries, job runs, failed logins — lives in one registry per
// process, so any module records with a plain function call and nothing has to be wired
// through. What is read at scrape time (pool, outboxes) belongs to each app instance
// (index.ts). With metrics off, prom-client is not loaded and recording does nothing.
import type * as PromClient from 'prom-client';

type Prom = typeof PromClient;

/** The process's metrics, made once prom-client is loaded (only when /metrics is on). */
function createProcessMetrics(prom: Prom) {
  const registry = new prom.Registry();
  const registers = [registry];
  const counter = <Label extends string>(name: string, help: string, labelNames: readonly Label[] = []) =>
    new prom.Counter<Label>({ name, help, labelNames, registers });
  return {
    prom,
    registry,
    requestDuration: new prom.Histogram({
      name: 'http_request_duration_seconds',
      help: 'Duração das requisições tratadas pelo Fastify, por rota (padrão), método e classe de status.',
      labelNames: ['route', 'method', 'status_class'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers,
    }),
    deliveries: counter(
      'outbox_deliveries_total',
      'Entregas das filas de saída por canal (email, webhook) e resultado (sent, retried, failed).',
      ['canal', 'result'],
    ),
    jobRuns: counter('job_runs_total', 'Execuções das tarefas periódicas deste processo.', ['job']),
    jobFailures: counter('job_failures_total', 'Execuções das tarefas periódicas que terminaram em erro.', ['job']),
    paymentEvents: counter(
      'payment_events_total',
      'Eventos de webhook do provedor de pagamentos: received (guardado), duplicated (id já guardado), ' +
        'failed (tentativa de processar falhou).',
      ['result'],
    ),
    payments: counter(
      'payments_total',
      'Pagamentos do provedor que mudaram de situação neste processo, pela situação nova ' +
        '(pago, atrasado, estornado, cancelado, contestado).',
      ['status'],
    ),
    loginFailures: counter('login_failures_total', 'Tentativas de login da equipe com e-mail ou senha errados.'),
    loginLockouts: counter(
      'login_lockouts_total',
      'Tentativas de login recusadas porque a conta ou o endereço está bloqueado.',
    ),
  };
}
type ProcessMetrics = ReturnType<typeof createProcessMetrics>;

// Null while metrics are off: every record call is then a no-op and prom-client is never loaded.
let metrics: ProcessMetrics | null = null;
let loading: Promise<ProcessMetrics> | null = null;

/**
 * Loads prom-client and starts counting (the metrics plugin calls it when METRICS_TOKEN is
 * set, before any route runs); with the process defaults (CPU, memory, event-loop lag).
 */
export function enableMetrics(): Promise<ProcessMetrics> {
  loading ??= import('prom-client').then((prom) => {
    const m = createProcessMetrics(prom);
    prom.collectDefaultMetrics({ register: m.registry });
    // Every label starts at 0, so a rate() over a job that never failed is 0 rather than absent.
    for (const job of JOBS) {
      m.jobRuns.labels(job).inc(0);
      m.jobFailures.labels(job).inc(0);
    }
    for (const result of ['received', 'duplicated', 'failed'] satisfies PaymentEventResult[])
      m.paymentEvents.labels(result).inc(0);
    for (const canal of ['email', 'webhook'] satisfies DeliveryChannel[])
      for (const result of DELIVERY_OUTCOMES) m.deliveries.labels(canal, result).inc(0);
    metrics = m;
    return m;
  });
  return loading;
}

export type DeliveryChannel = 'email' | 'webhook';
const DELIVERY_OUTCOMES = ['sent', 'retried', 'failed'] as const;
type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];
const JOBS = [
  'digest',
  'reminders',
  'retention',
  'sweep',
  'envio_prune',
  'identity_purge',
  'backup',
  'enrolments',
  'payments_reconcile',
] as const;
export type JobName = (typeof JOBS)[number];

/** Records a batch's outbox deliveries: the mail worker calls it, and so does the webhook worker (canal "webhook"). */
export function recordDeliveries(canal: DeliveryChannel, counts: Record<DeliveryOutcome, number>): void {
  for (const outcome of DELIVERY_OUTCOMES)
    if (counts[outcome] > 0) metrics?.deliveries.labels(canal, outcome).inc(counts[outcome]);
}

/** Runs one pass of a periodic job, counting the run and, when it throws, the failure (the error goes on). */
export async function countJob<T>(job: JobName, run: () => Promise<T>): Promise<T> {
  metrics?.jobRuns.labels(job).inc();
  try {
    return await run();
  } catch (err) {
    metrics?.jobFailures.labels(job).inc();
    throw err;
  }
}

export type PaymentEventResult = 'received' | 'duplicated' | 'failed';

/** Counts a webhook event of the payment provider: stored, a repeat of one stored, or an attempt that failed. */
export function recordPaymentEvent(result: PaymentEventResult): void {
  metrics?.paymentEvents.labels(result).inc();
}

/** Counts a provider's payment that reached `status` in this process. */
export function recordPayment(status: string): void {
  metrics?.payments.labels(status).inc();
}

export function recordLoginFailure(): void {
  metrics?.loginFailures.inc();
}

export function recordLoginLockout(): void {
  metrics?.loginLockouts.inc();
}

/** "2xx" … "5xx" (a status outside 100–599 counts as "5xx": something went wrong). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : '5xx';
}

export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  metrics?.requestDuration.labels(route, method, statusClass(status)).observe(seconds);
}

// The process's counters (docs/decisions/225): what the code records as it happens —
// request durations, deliveries, job runs, failed logins — lives in one registry per
// process, so any module records with a plain function call and nothing has to be wired
// through. What is read at scrape time (pool, outboxes) belongs to each app instance
// (index.ts).
import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';

export const processRegistry = new Registry();

const requestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Duração das requisições tratadas pelo Fastify, por rota (padrão), método e classe de status.',
  labelNames: ['route', 'method', 'status_class'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [processRegistry],
});

const deliveries = new Counter({
  name: 'outbox_deliveries_total',
  help: 'Entregas das filas de saída por canal (email, webhook) e resultado (sent, retried, failed).',
  labelNames: ['canal', 'result'] as const,
  registers: [processRegistry],
});

const jobRuns = new Counter({
  name: 'job_runs_total',
  help: 'Execuções das tarefas periódicas deste processo.',
  labelNames: ['job'] as const,
  registers: [processRegistry],
});

const jobFailures = new Counter({
  name: 'job_failures_total',
  help: 'Execuções das tarefas periódicas que terminaram em erro.',
  labelNames: ['job'] as const,
  registers: [processRegistry],
});

const loginFailures = new Counter({
  name: 'login_failures_total',
  help: 'Tentativas de login da equipe com e-mail ou senha errados.',
  registers: [processRegistry],
});

const loginLockouts = new Counter({
  name: 'login_lockouts_total',
  help: 'Tentativas de login recusadas porque a conta ou o endereço está bloqueado.',
  registers: [processRegistry],
});

export type DeliveryChannel = 'email' | 'webhook';
export type DeliveryOutcome = 'sent' | 'retried' | 'failed';
export type JobName = 'digest' | 'reminders' | 'anonymize' | 'sweep' | 'envio_prune' | 'identity_purge' | 'backup';

/** Every job label starts at 0, so a rate() over a job that never failed is 0 rather than absent. */
for (const job of [
  'digest',
  'reminders',
  'anonymize',
  'sweep',
  'envio_prune',
  'identity_purge',
  'backup',
] satisfies JobName[]) {
  jobRuns.labels(job).inc(0);
  jobFailures.labels(job).inc(0);
}
for (const canal of ['email', 'webhook'] satisfies DeliveryChannel[])
  for (const result of ['sent', 'retried', 'failed'] satisfies DeliveryOutcome[])
    deliveries.labels(canal, result).inc(0);

/** Records outbox deliveries: the mail worker calls it, and so does the webhook worker (canal "webhook"). */
export function recordDeliveries(canal: DeliveryChannel, outcome: DeliveryOutcome, count = 1): void {
  if (count > 0) deliveries.labels(canal, outcome).inc(count);
}

/** Runs one pass of a periodic job, counting the run and, when it throws, the failure (the error goes on). */
export async function countJob<T>(job: JobName, run: () => Promise<T>): Promise<T> {
  jobRuns.labels(job).inc();
  try {
    return await run();
  } catch (err) {
    jobFailures.labels(job).inc();
    throw err;
  }
}

export function recordLoginFailure(): void {
  loginFailures.inc();
}

export function recordLoginLockout(): void {
  loginLockouts.inc();
}

/** "2xx" … "5xx" (a status outside 100–599 counts as "5xx": something went wrong). */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : '5xx';
}

export function observeRequest(route: string, method: string, status: number, seconds: number): void {
  requestDuration.labels(route, method, statusClass(status)).observe(seconds);
}

let defaultsOn = false;
/** The process's defaults (CPU, memory, event loop lag, handles), collected once per process. */
export function enableProcessDefaults(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: processRegistry });
}

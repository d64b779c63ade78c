// One soak: the stack up, the load on, the faults at their minutes, then the checks. The
// bench (bench/soak.ts) and the CI test (test/operations/soak.test.ts) run this same code at
// different sizes and read the same result.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { closeLoadAgent, formLoad, publicLoad, Recorder, rng, staffLoad, type LoadRates, type Sample } from './load';
import { startStack, type Stack, type StackOptions } from './stack';

export interface FaultPlan {
  /** seconds from the start of the load */
  postgresRestartAt?: number;
  /** how long PostgreSQL stays down */
  postgresDownMs?: number;
  killAt?: number;
  /** seconds between the kill and the supervisor's restart */
  restartAfterMs?: number;
  smtpDown?: [number, number];
  webhookDown?: [number, number];
}

export interface SoakPlan {
  seconds: number;
  seed: number;
  stack: Omit<StackOptions, 'seed' | 'log'>;
  rates: LoadRates;
  faults: FaultPlan;
  /** the RSS window starts this many seconds into the load */
  rssFrom: number;
  /** longest wait after the load for the outboxes to empty */
  drainSeconds: number;
  log?: (line: string) => void;
}

export interface FaultWindow {
  label: string;
  /** ms since the start of the load */
  from: number;
  to: number;
  /** the spans excluded from the targets (15 s around each edge of the fault) */
  excluded: [number, number][];
}

export interface Point {
  t: number;
  value: number | null;
}

export interface Delivery {
  label: string;
  queued: number;
  delivered: number;
  /** ids received more than once, with the moments they arrived (ms since the start) */
  duplicates: [string, number[]][];
  undelivered: number;
  /** the longest wait past its due moment (queued, or the service's return), ms */
  worstLateMs: number;
}

export interface FormCheck {
  form: string;
  submitted: number;
  acknowledged: number;
  /** acknowledged and stored exactly once */
  storedOnce: number;
  /** acknowledged but not stored */
  lost: number;
  /** stored more than once */
  doubled: number;
  /** never acknowledged, yet stored (a crash after the commit); each once at most */
  storedUnacknowledged: number;
  /** answers other than 303, 5xx or no answer (a refused form: the load's own bug or the app's) */
  refused: number;
  statuses: Record<string, number>;
}

/** Staff pages as each instance timed them (its request log): unit pages and chain-wide ones. */
export interface ServerStaffTimes {
  instance: string;
  env: Record<string, string>;
  unit: number[];
  chain: number[];
}

export interface SoakResult {
  plan: SoakPlan;
  volume: string;
  engine: string;
  instances: string[];
  startedAt: string;
  seconds: number;
  samples: Map<string, Sample[]>;
  groups: Map<string, string>;
  faults: FaultWindow[];
  rss: Map<string, Point[]>;
  /** each instance's JS heap in use (MB), from its /metrics, to tell the heap's growth from native memory's */
  heap: Map<string, Point[]>;
  restarts: Map<string, number[]>;
  queues: { mail: Point[]; webhook: Point[] };
  forms: FormCheck[];
  mail: Delivery;
  webhooks: Delivery;
  serverStaff: ServerStaffTimes[];
  /**
   * The load generator's own delays (its event loop, ms: every latency above includes them)
   * and the machine's 1-minute load average over the run: what else wanted the cores.
   */
  machine: { loopP99: number; loopMax: number; loadAverage: Point[] };
}

/** Reads an instance's request log for the staff pages (exports and logins left out). */
function staffTimesOf(logFile: string): { unit: number[]; chain: number[] } {
  const unit: number[] = [];
  const chain: number[] = [];
  let text = '';
  try {
    text = readFileSync(logFile, 'utf8');
  } catch {
    return { unit, chain };
  }
  for (const line of text.split('\n')) {
    if (!line.includes('"request completed"') || !line.includes('/admin/')) continue;
    try {
      const entry = JSON.parse(line) as { req?: { url?: string }; responseTime?: number };
      const url = entry.req?.url ?? '';
      if (!url.startsWith('/admin/') || url.includes('exportar') || entry.responseTime === undefined) continue;
      (url.includes('unidade_id=') ? unit : chain).push(entry.responseTime);
    } catch {
      // a line cut by a kill
    }
  }
  return { unit, chain };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function count(db: Stack['db'], table: 'fila_emails' | 'webhook_entregas', after: number) {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('id', '>', after)
    .where('status', 'in', ['pendente', 'enviando'])
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** The rows stored under each submission's marker, by form. */
async function storedCounts(db: Stack['db'], seed: number): Promise<Map<string, number>> {
  const prefix = `soak${seed}x`;
  const tally = new Map<string, number>();
  const add = (k: string | null) => k && tally.set(k, (tally.get(k) ?? 0) + 1);
  for (const r of await db
    .selectFrom('respostas_nps')
    .select('envio_id')
    .where('envio_id', 'like', `${prefix}%`)
    .execute())
    add(r.envio_id);
  for (const r of await db
    .selectFrom('aulas_experimentais')
    .select('envio_id')
    .where('envio_id', 'like', `${prefix}%`)
    .execute())
    add(r.envio_id);
  for (const r of await db
    .selectFrom('matriculas')
    .select('envio_id')
    .where('envio_id', 'like', `${prefix}%`)
    .execute())
    add(r.envio_id);
  for (const r of await db
    .selectFrom('franquia_leads')
    .select('email')
    .where('email', 'like', `lead-${prefix}%`)
    .execute())
    add(r.email);
  for (const r of await db
    .selectFrom('fale_aqui')
    .select('mensagem')
    .where('mensagem', 'like', `%Protocolo ${prefix}%`)
    .execute())
    add(/Protocolo (\S+)\./.exec(r.mensagem ?? '')?.[1] ?? null);
  return tally;
}

export async function runSoak(plan: SoakPlan): Promise<SoakResult> {
  const log = plan.log ?? (() => {});
  const stack = await startStack({ ...plan.stack, seed: plan.seed, log });
  try {
    return await drive(stack, plan, log);
  } finally {
    closeLoadAgent();
    await stack.close();
  }
}

async function drive(stack: Stack, plan: SoakPlan, log: (line: string) => void): Promise<SoakResult> {
  const rec = new Recorder();
  const startedAt = new Date();
  const epoch = Date.now() - rec.now();
  let running = true;
  const ctx = {
    url: stack.url,
    catalog: stack.catalog,
    rec,
    seed: plan.seed,
    rates: plan.rates,
    running: () => running,
  };
  const root = rng(plan.seed);
  const loops = [
    publicLoad(ctx, rng(root.int(2 ** 31))),
    formLoad(ctx, rng(root.int(2 ** 31))),
    ...stack.staff.map((who) => staffLoad(ctx, who, rng(root.int(2 ** 31)))),
  ];

  // Samplers: RSS, outbox depths, and when each mail and webhook first arrived.
  const rss = new Map(stack.instances.map((i) => [i.name, [] as Point[]]));
  const heap = new Map(stack.instances.map((i) => [i.name, [] as Point[]]));
  const queues = { mail: [] as Point[], webhook: [] as Point[] };
  // id → the moments it arrived (a mail accepted, a webhook acknowledged)
  const mailSeen = new Map<string, number[]>();
  const hookSeen = new Map<string, number[]>();
  let seenMessages = 0;
  const arrivals = setInterval(() => {
    const now = rec.now();
    for (; seenMessages < stack.smtp.messages.length; seenMessages++) {
      const id = stack.smtp.messages[seenMessages]!.headers['x-outbox-id'] ?? `?${seenMessages}`;
      mailSeen.set(id, [...(mailSeen.get(id) ?? []), now]);
    }
    for (const [id, n] of stack.receiver.acks) {
      const times = hookSeen.get(id) ?? [];
      while (times.length < n) times.push(now);
      hookSeen.set(id, times);
    }
  }, 250);
  let sampling = true;
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const loadAverage: Point[] = [];
  const sampler = (async () => {
    while (sampling) {
      const t = rec.now();
      loadAverage.push({ t, value: os.loadavg()[0]! });
      for (const i of stack.instances) rss.get(i.name)!.push({ t, value: i.server.rssMb() });
      const heaps = await Promise.all(stack.instances.map((i) => stack.heapUsedMb(i)));
      stack.instances.forEach((i, n) => heap.get(i.name)!.push({ t, value: heaps[n]! }));
      const [m, w] = await Promise.all([
        count(stack.db, 'fila_emails', stack.before.mail).catch(() => null),
        count(stack.db, 'webhook_entregas', stack.before.webhook).catch(() => null),
      ]);
      queues.mail.push({ t, value: m });
      queues.webhook.push({ t, value: w });
      await sleep(Math.max(0, 5_000 - (rec.now() - t)));
    }
  })();

  // Faults at their minutes, one after another.
  const faults: FaultWindow[] = [];
  const f = plan.faults;
  const at = async (seconds: number) => sleep(Math.max(0, seconds * 1000 - rec.now()));
  const around = (a: number, b: number): [number, number][] => [[a - 15_000, b + 15_000]];
  const edges = (a: number, b: number): [number, number][] => [
    [a - 15_000, a + 15_000],
    [b - 15_000, b + 15_000],
  ];
  const events: { at: number; run: () => Promise<void> }[] = [];
  if (f.postgresRestartAt !== undefined)
    events.push({
      at: f.postgresRestartAt,
      run: async () => {
        const from = rec.now();
        log(`falha: PostgreSQL reiniciado (${((f.postgresDownMs ?? 5000) / 1000).toFixed(0)} s fora)`);
        await stack.restartPostgres(f.postgresDownMs ?? 5_000);
        const to = rec.now();
        faults.push({ label: 'PostgreSQL reiniciado', from, to, excluded: around(from, to) });
      },
    });
  if (f.killAt !== undefined)
    events.push({
      at: f.killAt,
      run: async () => {
        const index = Math.min(1, stack.instances.length - 1);
        const from = rec.now();
        log(`falha: kill -9 na instância ${stack.instances[index]!.name}`);
        await stack.kill9(index);
        await sleep(f.restartAfterMs ?? 2_000);
        await stack.restart(index);
        const to = rec.now();
        faults.push({ label: `kill -9 (${stack.instances[index]!.name})`, from, to, excluded: around(from, to) });
      },
    });
  const outage = (label: string, window: [number, number], down: () => Promise<void>, up: () => Promise<void>) =>
    events.push({
      at: window[0],
      run: async () => {
        const from = rec.now();
        log(`falha: ${label} fora do ar`);
        await down();
        await at(window[1]);
        await up();
        const to = rec.now();
        log(`falha: ${label} de volta`);
        faults.push({ label: `${label} fora`, from, to, excluded: edges(from, to) });
      },
    });
  if (f.smtpDown)
    outage(
      'SMTP',
      f.smtpDown,
      () => stack.smtp.stopListening(),
      () => stack.smtp.resume(),
    );
  if (f.webhookDown)
    outage(
      'webhook',
      f.webhookDown,
      () => stack.receiver.down(),
      () => stack.receiver.resume(),
    );
  events.sort((a, b) => a.at - b.at);
  const faultsDone = Promise.all(
    events.map(async (e) => {
      await at(e.at);
      await e.run();
    }),
  );

  const progress = setInterval(() => {
    const n = [...rec.samples.values()].reduce((a, s) => a + s.length, 0);
    log(
      `${(rec.now() / 60_000).toFixed(1)} min: ${n.toLocaleString('pt-BR')} pedidos, ${rec.submissions.length} envios`,
    );
  }, 60_000);
  await at(plan.seconds);
  running = false;
  await faultsDone;
  await Promise.all(loops);
  clearInterval(progress);
  loop.disable();
  const seconds = rec.now() / 1000;
  log(`carga encerrada em ${seconds.toFixed(0)} s; esperando as filas…`);

  // Every acknowledged thing must arrive: wait for the outboxes to empty (bounded).
  const drainUntil = Date.now() + plan.drainSeconds * 1000;
  while (Date.now() < drainUntil) {
    const [m, w] = await Promise.all([
      count(stack.db, 'fila_emails', stack.before.mail).catch(() => 1),
      count(stack.db, 'webhook_entregas', stack.before.webhook).catch(() => 1),
    ]);
    if (m === 0 && w === 0) break;
    await sleep(1_000);
  }
  await sleep(1_500);
  clearInterval(arrivals);
  sampling = false;
  await sampler;

  // Stored exactly once, by envio_id (or the marker the form keeps).
  const stored = await storedCounts(stack.db, plan.seed);
  const forms = new Map<string, FormCheck>();
  for (const s of rec.submissions) {
    const c =
      forms.get(s.form) ??
      forms
        .set(s.form, {
          form: s.form,
          submitted: 0,
          acknowledged: 0,
          storedOnce: 0,
          lost: 0,
          doubled: 0,
          storedUnacknowledged: 0,
          refused: 0,
          statuses: {},
        })
        .get(s.form)!;
    c.submitted++;
    const n = stored.get(s.marker) ?? 0;
    const acked = s.attempts.includes(303);
    for (const st of s.attempts) c.statuses[st] = (c.statuses[st] ?? 0) + 1;
    if (s.attempts.some((st) => st !== 303 && st !== 0 && st < 500)) c.refused++;
    if (n > 1) c.doubled++;
    if (acked) {
      c.acknowledged++;
      if (n === 1) c.storedOnce++;
      if (n === 0) c.lost++;
    } else if (n === 1) c.storedUnacknowledged++;
  }

  const mail = await deliveries(stack, 'e-mails', 'fila_emails', mailSeen, epoch, faults, 'SMTP fora');
  const webhooks = await deliveries(stack, 'webhooks', 'webhook_entregas', hookSeen, epoch, faults, 'webhook fora');
  const serverStaff = stack.instances.map((i) => ({
    instance: i.name,
    env: i.env,
    ...staffTimesOf(i.server.logFile),
  }));
  const restarts = new Map(
    stack.instances.map((i) => [i.name, faults.filter((x) => x.label.includes(`(${i.name})`)).map((x) => x.to)]),
  );
  return {
    plan,
    volume: stack.volume,
    engine: stack.engine,
    instances: stack.instances.map((i) => i.name),
    startedAt: startedAt.toISOString(),
    seconds,
    samples: rec.samples,
    groups: rec.groups,
    faults: faults.sort((a, b) => a.from - b.from),
    rss,
    heap,
    restarts,
    queues,
    forms: [...forms.values()],
    mail,
    webhooks,
    serverStaff,
    machine: { loopP99: loop.percentile(99) / 1e6, loopMax: loop.max / 1e6, loadAverage },
  };
}

/** What arrived of what was queued after the start: once each, and how late past its due moment. */
async function deliveries(
  stack: Stack,
  label: string,
  table: 'fila_emails' | 'webhook_entregas',
  seen: Map<string, number[]>,
  epoch: number,
  faults: FaultWindow[],
  outageLabel: string,
): Promise<Delivery> {
  const after = table === 'fila_emails' ? stack.before.mail : stack.before.webhook;
  const rows =
    table === 'fila_emails'
      ? (
          await stack.db
            .selectFrom('fila_emails')
            .select(['id', 'status', 'criado_em'])
            .where('id', '>', after)
            .execute()
        ).map((r) => ({ key: String(r.id), status: r.status, queued: Date.parse(r.criado_em) - epoch }))
      : (
          await stack.db
            .selectFrom('webhook_entregas')
            .select(['mensagem_id', 'status', 'criado_em'])
            .where('id', '>', after)
            .execute()
        ).map((r) => ({ key: r.mensagem_id, status: r.status, queued: Date.parse(r.criado_em) - epoch }));
  const outage = faults.find((f) => f.label === outageLabel);
  let worst = 0;
  let delivered = 0;
  for (const r of rows) {
    const first = seen.get(r.key)?.[0];
    if (first === undefined) continue;
    delivered++;
    // Queued while the service was down (or in the minute before, still retrying): due when it came back.
    const due =
      outage && r.queued < outage.to && r.queued >= outage.from - 60_000 ? Math.max(r.queued, outage.to) : r.queued;
    worst = Math.max(worst, first - due);
  }
  const keys = new Set(rows.map((r) => r.key));
  return {
    label,
    queued: rows.length,
    delivered,
    duplicates: [...seen].filter(([k, times]) => times.length > 1 && keys.has(k)),
    undelivered: rows.length - delivered,
    worstLateMs: worst,
  };
}

/**
 * The samples whose whole request, from sending to its answer, stayed clear of every excluded
 * span: an export sent a minute before a `kill -9` and cut by it was hit by the fault.
 */
export function outsideFaults(samples: Sample[], faults: FaultWindow[]): Sample[] {
  const spans = faults.flatMap((f) => f.excluded);
  return samples.filter((s) => !spans.some(([a, b]) => s.t <= b && s.t + s.ms >= a));
}

export function quantile(values: number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

export const failed = (s: Sample) => s.status === 0 || s.status >= 500;

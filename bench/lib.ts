// Reusable benchmark pieces: a database prepared in a temp dir, the real built server in a
// child process (so it has its own CPU and its RSS can be read), autocannon runs, target
// checks and the printed table.
// Other features add their own bench/<name>.ts on top of these.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';
import { createDb, migrateToLatest, type Db } from '../src/db/index';

const require = createRequire(import.meta.url);

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;
const autocannon = require('autocannon') as Autocannon;

// autocannon 9 decodes every response body into a string (`body += chunk`) that nothing here
// reads: the bodies are checked once, by captureResponse, never during a load run. For the
// 7.6 KB of brotli of the home page that decoding cost the load generator ~70 µs per answer,
// more than either server spends, so on the big pages req/s and p99 measured autocannon
// (its process at 95 % of a core, the app's idle 80 % of the time). Counting bytes stays.
// The patch is the same for both servers of a comparison and for every bench script
// (they all load this module).
const queue = require('autocannon/lib/pipelinedRequestsQueue') as { prototype: { addBody(data: unknown): void } };
queue.prototype.addBody = () => {};

export const DEFAULT_CONNECTIONS = 50;

/** seconds per measured run: BENCH_DURATION (default 10) */
export function benchDuration(): number {
  const v = Number(process.env.BENCH_DURATION ?? 10);
  return Number.isFinite(v) && v > 0 ? v : 10;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface BenchDatabase<T> {
  dir: string;
  databaseUrl: string;
  seeded: T;
  cleanup(): void;
}

/** A fresh SQLite file in a temp dir, migrated and filled by `seed`, then closed. */
export async function prepareDatabase<T>(seed: (db: Db) => Promise<T>): Promise<BenchDatabase<T>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-bench-'));
  const filename = path.join(dir, 'bench.sqlite');
  const handle = createDb({ engine: 'sqlite', filename });
  try {
    await migrateToLatest(handle.db);
    const seeded = await seed(handle.db);
    return {
      dir,
      databaseUrl: `sqlite:${filename}`,
      seeded,
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    };
  } finally {
    await handle.destroy();
  }
}

export interface ChildServer {
  name: string;
  url: string;
  pid: number;
  /** resident set size in MB, read from /proc (Linux); null elsewhere */
  rssMb(): number | null;
  stop(): Promise<void>;
}

/** user and system CPU time of a process so far, µs (Linux: /proc, 100 ticks a second); null elsewhere */
function readCpuUs(pid: number): number | null {
  try {
    // Fields after the command name: state is the 1st, utime the 12th, stime the 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return null;
  }
}

function readRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

export async function waitForHttp(url: string, child: ChildProcess, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early with code ${child.exitCode}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not answer ${url} within ${timeoutMs} ms`);
}

export function wrap(name: string, child: ChildProcess, url: string): ChildServer {
  return {
    name,
    url,
    pid: child.pid!,
    rssMb: () => readRssMb(child.pid!),
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/**
 * The real production build (dist/server.js, as `npm start` runs it) on the given database,
 * as deployed: the default LOG_LEVEL (info: a line per request), its log written to a file
 * (`logFile` of the result), and the Node flags of `npm start` (read from package.json, so
 * they cannot drift). BENCH_NODE_FLAGS (e.g. "--max-semi-space-size=4") adds flags to try
 * settings, BENCH_SERVER another build to compare (e.g. a copy of an older dist/) and
 * BENCH_START_FLAGS the flags it was started with.
 */
export async function startAppServer(
  databaseUrl: string,
  env: Record<string, string> = {},
): Promise<ChildServer & { logFile: string }> {
  const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const entry = path.resolve(process.env.BENCH_SERVER ?? 'dist/server.js');
  if (!existsSync(entry))
    throw new Error('dist/server.js não existe: rode `npm run build` antes (o `npm run bench` já faz isso).');
  // env.PORT: a restarted instance keeps its place behind the proxy (bench/soak).
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const uploads = mkdtempSync(path.join(os.tmpdir(), 'gym-bench-uploads-'));
  const logFile = path.join(uploads, 'server.log');
  const log = openSync(logFile, 'w');
  const child = spawn(process.execPath, [...startFlags(), ...nodeFlags, entry], {
    env: {
      PATH: process.env.PATH ?? '',
      // as `npm start` sets it (package.json): glibc's arenas otherwise keep freed memory
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      NODE_ENV: 'production',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      DATABASE_URL: databaseUrl,
      HOST: '127.0.0.1',
      PORT: String(port),
      DEMO_SEED: 'false',
      MAIL_WORKER: 'false',
      UPLOADS_DIR: uploads,
      ...env,
    },
    stdio: ['ignore', log, 'inherit'],
  });
  closeSync(log);
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/healthz`, child);
  const server: ChildServer & { logFile: string } = { ...wrap('app', child, url), logFile };
  const stop = server.stop;
  server.stop = async () => {
    await stop();
    rmSync(uploads, { recursive: true, force: true });
  };
  return server;
}

/** The flags `npm start` gives node before dist/server.js. */
export function startFlags(): string[] {
  // BENCH_START_FLAGS replaces them, e.g. to measure an older build as it was started then.
  if (process.env.BENCH_START_FLAGS !== undefined) return process.env.BENCH_START_FLAGS.split(/\s+/).filter(Boolean);
  const start = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: { start: string } }).scripts.start;
  const m = /\bnode((?:\s+--\S+)*)\s+dist\/server\.js/.exec(start);
  return m ? m[1]!.trim().split(/\s+/).filter(Boolean) : [];
}

/** One route's full answer as the app sent it: status, headers in order, body bytes. */
export interface CapturedResponse {
  path: string;
  status: number;
  /** flat [name, value, name, value, …] as received (rawHeaders) */
  rawHeaders: string[];
  body: Buffer;
}

/**
 * The request headers a phone's Chromium sends that change the answer: every browser asks
 * for compression, so the public routes are measured as browsers get them (docs/decisions/160).
 * No cookie: a first visit.
 */
export const BROWSER_HEADERS: Readonly<Record<string, string>> = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/**
 * GETs a path with the headers the load run will send (a browser's, by default), so the
 * answer is exactly what the load run will get.
 */
export function captureResponse(
  baseUrl: string,
  urlPath: string,
  headers: Record<string, string> = BROWSER_HEADERS,
): Promise<CapturedResponse> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${urlPath}`, { method: 'GET', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          path: urlPath,
          status: res.statusCode ?? 0,
          rawHeaders: res.rawHeaders,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The answer's Content-Encoding, if any. */
export function contentEncoding(c: CapturedResponse): string | undefined {
  for (let i = 0; i < c.rawHeaders.length; i += 2)
    if (c.rawHeaders[i]!.toLowerCase() === 'content-encoding') return c.rawHeaders[i + 1];
  return undefined;
}

/** The body as the browser reads it, decompressed: for checking what a route answered. */
export function decodedBody(c: CapturedResponse): Buffer {
  switch (contentEncoding(c)) {
    case 'br':
      return zlib.brotliDecompressSync(c.body);
    case 'gzip':
      return zlib.gunzipSync(c.body);
    default: // the app sends br, gzip or nothing (src/http/compression.ts)
      return c.body;
  }
}

export interface LoadResult {
  label: string;
  path: string;
  reqPerSec: number;
  p50: number;
  p99: number;
  total: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  /** highest RSS of the server seen during the run, MB */
  rssMb: number | null;
  /**
   * the server's CPU time (user + system) per answered request, µs: steadier than req/s on
   * a shared machine, since the load generator's share of the cores does not enter it
   */
  cpuUsPerReq: number | null;
}

/**
 * A short warm-up (JIT, caches), then the measured autocannon run with RSS sampled every 200 ms;
 * a browser's headers unless told.
 */
export async function runLoad(
  server: ChildServer,
  label: string,
  urlPath: string,
  options: { connections?: number; duration?: number; warmup?: number; headers?: Record<string, string> } = {},
): Promise<LoadResult> {
  const url = `${server.url}${urlPath}`;
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  const duration = options.duration ?? benchDuration();
  const warmup = options.warmup ?? Math.min(2, Math.max(1, Math.round(duration / 5)));
  const headers = options.headers ?? BROWSER_HEADERS;
  await autocannon({ url, connections, duration: warmup, headers });
  let rss: number | null = server.rssMb();
  const timer = setInterval(() => {
    const now = server.rssMb();
    if (now !== null) rss = Math.max(rss ?? 0, now);
  }, 200);
  const cpuBefore = readCpuUs(server.pid);
  try {
    const r = await autocannon({ url, connections, duration, headers });
    const cpuAfter = readCpuUs(server.pid);
    return {
      label,
      path: urlPath,
      reqPerSec: r.requests.average,
      p50: r.latency.p50,
      p99: r.latency.p99,
      total: r.requests.total,
      errors: r.errors,
      timeouts: r.timeouts,
      non2xx: r.non2xx,
      rssMb: rss,
      cpuUsPerReq:
        cpuBefore !== null && cpuAfter !== null && r.requests.total > 0
          ? (cpuAfter - cpuBefore) / r.requests.total
          : null,
    };
  } finally {
    clearInterval(timer);
  }
}

export interface Target {
  /** e.g. "≥ 50% do servidor puro" */
  label: string;
  pass: boolean;
  /** how far off when missed, e.g. "faltam 12 p.p." */
  shortfall?: string;
}

export function atLeast(value: number, min: number, unit: string, digits = 0): Target {
  const pass = value >= min;
  return {
    label: `≥ ${min.toFixed(digits)}${unit}`,
    pass,
    shortfall: pass ? undefined : `faltam ${(min - value).toFixed(digits === 0 ? 1 : digits)}${unit}`,
  };
}

export function atMost(value: number, max: number, unit: string, digits = 0): Target {
  const pass = value <= max;
  return {
    label: `≤ ${max.toFixed(digits)}${unit}`,
    pass,
    shortfall: pass ? undefined : `excede em ${(value - max).toFixed(digits === 0 ? 1 : digits)}${unit}`,
  };
}

export function formatTarget(t: Target | undefined): string {
  if (!t) return '';
  return t.pass ? `PASS (${t.label})` : `MISS (${t.label}; ${t.shortfall})`;
}

/** A plain-text table: every column padded to its widest cell. */
export function printTable(headers: string[], rows: string[][]): void {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const r of rows) console.log(line(r));
}

/** Any transport error, timeout or non-2xx answer makes the benchmark fail (exit code 1). */
export function hasFailures(results: LoadResult[]): boolean {
  return results.some((r) => r.errors > 0 || r.timeouts > 0 || r.non2xx > 0);
}

export const fmt = {
  rps: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`,
  pct: (n: number) => `${(n * 100).toFixed(1)}%`,
  mb: (n: number | null) => (n === null ? 'n/d' : `${n.toFixed(1)} MB`),
  bytes: (n: number) => n.toLocaleString('en-US'),
};

// ---- Submission benchmarks (bench/leads.ts, bench/survey.ts) ----

/** What a submission benchmark reports: acknowledged (303) vs stored, errors, latency. */
export interface SubmissionBenchResult {
  storedPerSec: number;
  acknowledged: number;
  stored: number;
  errors: number;
  unexpected: number;
  /** at saturation (50 connections): queueing, 50 / throughput */
  p50: number;
  p99: number;
  /** at the fixed offered rate (formRate()): one POST's own latency */
  rated: RatedLatency;
  pass: boolean;
}

/** A form POST's p99 at the fixed offered rate (docs/decisions/140). */
export const FORM_POST_P99_TARGET_MS = 10;

/**
 * The offered rate of the latency measure, POSTs per second (BENCH_FORM_RATE, default
 * 300): far above what one instance gets from real people, well below saturation.
 */
export function formRate(): number {
  const v = Number(process.env.BENCH_FORM_RATE ?? 300);
  return Number.isFinite(v) && v > 0 ? v : 300;
}

export interface RatedLatency {
  /** offered, and achieved (answers per second) */
  rate: number;
  achieved: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  unexpected: number;
  acknowledged: number;
}

/**
 * An open-loop load at a fixed offered rate: POST i is due at start + i / rate and sent
 * then on a free keep-alive connection; its latency counts from when it was due, so a slow
 * answer cannot hide the requests queued behind it (no coordinated omission). autocannon's
 * `overallRate` is not used: it sends each connection's share of a second in one burst at
 * the start of the second, which measures a burst of 20–50 at once, not a rate.
 * Halfway between two POSTs a GET of `referenceUrl` (/healthz: no database, no form) goes
 * out the same way: its latency is what the machine and the HTTP stack alone add, measured
 * in the same seconds as the POSTs. `ok` is the status that acknowledges a POST (303).
 */
export async function runAtRate(options: {
  url: string;
  referenceUrl: string;
  rate: number;
  duration: number;
  ok?: number;
  next: () => { body: string; headers: Record<string, string> };
}): Promise<{ posts: RatedLatency; reference: RatedLatency }> {
  const total = Math.round(options.rate * options.duration);
  const interval = 1000 / options.rate;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  const tally = () => ({ latencies: [] as number[], errors: 0, unexpected: 0, acknowledged: 0 });
  const posts = tally();
  const reference = tally();
  let sent = 0;
  let done = 0;
  const start = performance.now() + 20;
  await new Promise<void>((resolve) => {
    const finish = () => {
      if (++done === 2 * total) resolve();
    };
    const send = (
      t: ReturnType<typeof tally>,
      url: string,
      ok: number,
      due: number,
      post?: { body: string; headers: Record<string, string> },
    ) => {
      const headers = post ? { ...post.headers, 'content-length': String(Buffer.byteLength(post.body)) } : {};
      const req = http.request(url, { method: post ? 'POST' : 'GET', agent, headers }, (res) => {
        res.resume();
        res.on('end', () => {
          t.latencies.push(performance.now() - due);
          if (res.statusCode === ok) t.acknowledged++;
          else t.unexpected++;
          finish();
        });
      });
      req.on('error', () => {
        t.errors++;
        finish();
      });
      req.end(post?.body);
    };
    // Slot k: even = a POST, odd = the reference GET half an interval later.
    const tick = () => {
      const now = performance.now();
      while (sent < 2 * total && start + (sent * interval) / 2 <= now) {
        const due = start + (sent * interval) / 2;
        if (sent % 2 === 0) send(posts, options.url, options.ok ?? 303, due, options.next());
        else send(reference, options.referenceUrl, 200, due);
        sent++;
      }
      if (sent < 2 * total) setTimeout(tick, Math.max(0, start + (sent * interval) / 2 - performance.now()));
    };
    setTimeout(tick, 20);
  });
  const elapsed = (performance.now() - start) / 1000;
  agent.destroy();
  const summary = (t: ReturnType<typeof tally>): RatedLatency => {
    const l = t.latencies.sort((a, b) => a - b);
    const at = (q: number) => l[Math.min(l.length - 1, Math.ceil(q * l.length) - 1)] ?? 0;
    return {
      rate: options.rate,
      achieved: (total - t.errors) / elapsed,
      p50: at(0.5),
      p99: at(0.99),
      max: l.at(-1) ?? 0,
      errors: t.errors,
      unexpected: t.unexpected,
      acknowledged: t.acknowledged,
    };
  };
  return { posts: summary(posts), reference: summary(reference) };
}

/** Opens a form page once: its CSRF token (hidden field `field`) and the cookie it belongs to. */
export async function fetchFormToken(url: string, field: string): Promise<{ token: string; cookie: string }> {
  const page = await fetch(url);
  const html = await page.text();
  const token = new RegExp(`name="${field}" value="([^"]+)"`).exec(html)?.[1];
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  if (page.status !== 200 || !token || !cookie) throw new Error(`formulário inesperado em ${url} (${page.status})`);
  return { token, cookie };
}

/** Splits autocannon's status counts into the acknowledged ones and everything else. */
export function acknowledgedSplit(statusCodeStats: Record<string, { count: number }>, ok = '303') {
  const acknowledged = statusCodeStats[ok]?.count ?? 0;
  const unexpected = Object.entries(statusCodeStats)
    .filter(([code]) => code !== ok)
    .reduce((n, [, s]) => n + s.count, 0);
  return { acknowledged, unexpected };
}

/** Runs a submission benchmark when its file is the entry point; exit 1 on errors or lost rows. */
export function runAsMain(metaUrl: string, label: string, run: () => Promise<SubmissionBenchResult>): void {
  if (metaUrl !== pathToFileURL(process.argv[1] ?? '').href) return;
  run()
    .then((r) => {
      console.log(`${label}: ${r.pass ? 'PASS' : 'MISS'}`);
      process.exitCode = r.errors || r.unexpected || r.stored < r.acknowledged ? 1 : 0;
    })
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
}

/**
 * Prints a submission benchmark's table (the fixed-rate latency, then the saturation
 * throughput) and returns its result. `labels` name the thing
 * counted (plural, e.g. "leads"); `integrity` is the feature's own check of what was stored
 * (a row label, the "found / expected" text and whether it holds).
 */
export function reportSubmissionBench(input: {
  labels: { acknowledged: string; stored: string; perSecond: string; complete: string };
  duration: number;
  targetPerSec: number;
  unit: string;
  /** acknowledged in both runs (fixed rate and saturation) */
  acknowledged: number;
  /** acknowledged during the saturation run: the throughput */
  saturated: number;
  stored: number;
  unexpected: number;
  load: { errors: number; timeouts: number; latency: { p50: number; p99: number } };
  rated: RatedLatency;
  /** GET /healthz interleaved with the fixed-rate POSTs: what the machine alone adds */
  reference?: RatedLatency;
  integrity: { label: string; value: string; ok: boolean };
}): SubmissionBenchResult {
  const { acknowledged, stored, unexpected, load, rated } = input;
  const storedPerSec = input.saturated / input.duration;
  const target = atLeast(storedPerSec, input.targetPerSec, input.unit);
  const latencyTarget = atMost(rated.p99, FORM_POST_P99_TARGET_MS, ' ms');
  const complete = stored >= acknowledged && input.integrity.ok;
  const errors = load.errors + load.timeouts + rated.errors;
  const allUnexpected = unexpected + rated.unexpected;
  const rate = fmt.rps(rated.rate);
  printTable(
    ['medida', 'valor'],
    [
      [`a ${rate}/s oferecidos: atendidos por segundo`, fmt.rps(rated.achieved)],
      [`a ${rate}/s: latência p50 / p99 / máx.`, `${fmt.ms(rated.p50)} / ${fmt.ms(rated.p99)} / ${fmt.ms(rated.max)}`],
      [`meta de latência (p99 a ${rate}/s)`, formatTarget(latencyTarget)],
      ...(input.reference
        ? [
            [
              `referência: GET /healthz entre os POSTs, p50 / p99 / máx.`,
              `${fmt.ms(input.reference.p50)} / ${fmt.ms(input.reference.p99)} / ${fmt.ms(input.reference.max)}`,
            ],
          ]
        : []),
      [
        `saturação (${DEFAULT_CONNECTIONS} conexões, ${input.duration} s): ${input.labels.perSecond}`,
        fmt.rps(storedPerSec),
      ],
      ['saturação: latência p50 / p99 (fila)', `${fmt.ms(load.latency.p50)} / ${fmt.ms(load.latency.p99)}`],
      ['meta de vazão', formatTarget(target)],
      [`${input.labels.acknowledged}, nas duas medidas`, String(acknowledged)],
      [input.labels.stored, String(stored)],
      [input.integrity.label, input.integrity.value],
      ['erros / timeouts / outros status', `${errors - load.timeouts} / ${load.timeouts} / ${allUnexpected}`],
      [input.labels.complete, complete ? 'PASS' : 'MISS'],
    ],
  );
  return {
    storedPerSec,
    acknowledged,
    stored,
    errors,
    unexpected: allUnexpected,
    p50: load.latency.p50,
    p99: load.latency.p99,
    rated,
    pass: target.pass && latencyTarget.pass && complete && errors === 0 && allUnexpected === 0,
  };
}

// Production as an operator runs it, for tests: a PostgreSQL server of the test's own
// (initdb/pg_ctl on a free port, so it can be stopped and restarted without touching the
// shared one), N instances of the BUILT server (`node dist/server.js`) and a small
// node:http reverse proxy in front that adds X-Forwarded-For/-Proto and round-robins.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `check` until it returns a truthy value or `timeoutMs` passes. */
export async function waitFor<T>(
  check: () => Promise<T> | T,
  timeoutMs: number,
  what: string,
  everyMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline)
      throw new Error(`timeout (${timeoutMs} ms) waiting for ${what}${lastError ? `: ${String(lastError)}` : ''}`);
    await sleep(everyMs);
  }
}

// ---------------------------------------------------------------- PostgreSQL

function pgBinDir(): string {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  try {
    const dir = execFileSync('pg_config', ['--bindir'], { encoding: 'utf8' }).trim();
    if (existsSync(path.join(dir, 'initdb'))) return dir;
  } catch {
    // Debian keeps the server binaries out of PATH: look in the versioned folders.
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  for (const v of versions) if (existsSync(path.join(root, v, 'bin', 'initdb'))) return path.join(root, v, 'bin');
  throw new Error('initdb not found: install PostgreSQL server binaries or set PG_BIN');
}

export interface TestPostgres {
  port: number;
  /** postgres://postgres@127.0.0.1:port/<database> */
  url(database?: string): string;
  createDatabase(name: string): Promise<void>;
  /** fast shutdown: sessions are terminated, new connections refused */
  stop(): Promise<void>;
  start(): Promise<void>;
  /** stops the server and deletes its files */
  destroy(): Promise<void>;
}

/**
 * A throw-away PostgreSQL server. PostgreSQL refuses to run as root: as root, initdb and
 * pg_ctl run as the `postgres` system user.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const bin = pgBinDir();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-pg-'));
  const data = path.join(dir, 'data');
  const port = await freePort();
  let ids: { uid: number; gid: number } | undefined;
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim());
    ids = { uid, gid };
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(path.join(bin, tool), args, { ...(ids ?? {}), stdio: ['ignore', 'pipe', 'pipe'], cwd: dir });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (out += c.toString()));
      child.on('error', reject);
      child.on('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`${tool} ${args.join(' ')} exited ${code}:\n${out}`)),
      );
    });
  await run('initdb', [
    '-D',
    data,
    '-A',
    'trust',
    '-U',
    'postgres',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
    '--no-instructions',
  ]);
  // Speed over durability: a test database. Unix socket in our folder, TCP on loopback.
  const options =
    `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c ` +
    `full_page_writes=off -c max_connections=200 -c shared_buffers=32MB`;
  const start = () =>
    run('pg_ctl', ['-D', data, '-l', path.join(dir, 'log'), '-o', options, '-w', '-t', '30', 'start']);
  const stop = () => run('pg_ctl', ['-D', data, '-m', 'fast', '-w', '-t', '30', 'stop']);
  await start();
  let running = true;
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    url,
    async createDatabase(name) {
      const c = new pg.Client({ connectionString: url() });
      await c.connect();
      try {
        await c.query(`create database "${name}"`);
      } finally {
        await c.end();
      }
    },
    async stop() {
      await stop();
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    async destroy() {
      if (running) await stop().catch(() => {});
      running = false;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------- instances

export interface Instance {
  name: string;
  port: number;
  child: ChildProcess;
  /** everything it wrote (pino JSON lines) */
  output(): string;
  /** parsed log lines */
  logs(): Record<string, unknown>[];
  exited: Promise<number | null>;
  alive(): boolean;
}

/** Starts `node dist/server.js` with `env` (PORT chosen here); resolves once it listens. */
export async function startInstance(name: string, env: Record<string, string>, timeoutMs = 30_000): Promise<Instance> {
  if (!existsSync('dist/server.js')) throw new Error('run `npm run build` first (npm test does)');
  const port = await freePort();
  const child = spawn(process.execPath, ['dist/server.js'], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let exitCode: number | null | undefined;
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code, signal) => {
      exitCode = code ?? (signal ? -1 : null);
      resolve(code);
    }),
  );
  const instance: Instance = {
    name,
    port,
    child,
    output: () => out,
    logs: () =>
      out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .flatMap((l) => {
          try {
            return [JSON.parse(l) as Record<string, unknown>];
          } catch {
            return [];
          }
        }),
    exited,
    alive: () => exitCode === undefined,
  };
  await waitFor(
    () => {
      if (exitCode !== undefined) throw new Error(`${name} exited (${exitCode}) while starting:\n${out}`);
      return out.includes(`Server listening at http://127.0.0.1:${port}`);
    },
    timeoutMs,
    `${name} to listen`,
    50,
  ).catch((err: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${err.message}\n${out}`);
  });
  return instance;
}

/** SIGTERM (drain), SIGKILL after `graceMs`. */
export async function stopInstance(instance: Instance, graceMs = 10_000): Promise<void> {
  if (!instance.alive()) return;
  instance.child.kill('SIGTERM');
  const timer = setTimeout(() => instance.child.kill('SIGKILL'), graceMs);
  await instance.exited;
  clearTimeout(timer);
}

// ---------------------------------------------------------------- proxy

export interface TestProxy {
  url: string;
  /** the instances behind it (dead ones are skipped, as nginx's proxy_next_upstream does) */
  upstreams: Instance[];
  close(): Promise<void>;
}

/**
 * A reverse proxy in front of the instances, like nginx with `proxy_set_header
 * X-Forwarded-For $proxy_add_x_forwarded_for; X-Forwarded-Proto https`. Test-only request
 * headers: `x-test-client` makes the proxy see that client address (many customers from
 * one test), `x-test-instance: <index>` sends the request to one instance.
 */
export async function startProxy(
  upstreams: Instance[],
  options: { proto?: 'https' | 'http' } = {},
): Promise<TestProxy> {
  let next = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const client = (req.headers['x-test-client'] as string | undefined) ?? req.socket.remoteAddress ?? '';
      const pinned = req.headers['x-test-instance'];
      const headers = { ...req.headers };
      delete headers['x-test-client'];
      delete headers['x-test-instance'];
      const prior = headers['x-forwarded-for'];
      headers['x-forwarded-for'] = prior ? `${prior}, ${client}` : client;
      headers['x-forwarded-proto'] = options.proto ?? 'https';
      const order =
        pinned !== undefined
          ? [upstreams[Number(pinned)]!]
          : upstreams.map((_, i) => upstreams[(next + i) % upstreams.length]!).filter((u) => u.alive());
      if (pinned === undefined) next = (next + 1) % upstreams.length;
      const attempt = (i: number) => {
        const target = order[i];
        if (!target) {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end('no upstream');
          return;
        }
        const up = http.request(
          {
            host: '127.0.0.1',
            port: target.port,
            method: req.method,
            path: req.url,
            headers: { ...headers, 'content-length': String(body.length) },
          },
          (upRes) => {
            res.writeHead(upRes.statusCode ?? 502, { ...upRes.headers, 'x-test-upstream': target.name });
            upRes.pipe(res);
          },
        );
        // A refused connection (instance dead) goes to the next one, as nginx does.
        up.on('error', () => (res.headersSent ? res.destroy() : attempt(i + 1)));
        up.end(body);
      };
      attempt(0);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    upstreams,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The cookies a fetch response sets, after `previous`, as a Cookie header value. */
export function responseCookies(res: Response, previous = ''): string {
  return [previous, ...res.headers.getSetCookie().map((c) => c.split(';')[0])].filter(Boolean).join('; ');
}

// ---------------------------------------------------------------- the whole set-up

export interface TestCluster {
  server: TestPostgres;
  /** in the proxy's order; replaced in place by restart() */
  instances: Instance[];
  proxy: TestProxy;
  /** a small pool of the test's own on the instances' database (`academia`) */
  db: pg.Pool;
  /** The first row `query` gives on `db`. */
  one<T = Record<string, unknown>>(query: string, params?: unknown[]): Promise<T>;
  /** Starts the instance at `index` again, with the settings it first had (after it was killed). */
  restart(index: number): Promise<Instance>;
  /** A new pool for `db` once the server is back (end the old one before stopping the server). */
  reconnect(): pg.Pool;
  close(): Promise<void>;
}

export interface ClusterOptions {
  /** the instances' names, one instance each */
  names: string[];
  /** settings on top of the production ones every instance has */
  env: Record<string, string>;
  /** the settings of one instance of its own */
  envOf?: (name: string) => Record<string, string>;
  /** one after the other (the first migrates and seeds) instead of all at the same moment */
  oneByOne?: boolean;
}

/**
 * Production as an operator runs it: a PostgreSQL server of the test's own with an empty
 * `academia` database, the built server started as each of `names` on it (production, one
 * session secret, one uploads folder, the proxy trusted from loopback) and the proxy in front.
 */
export async function startCluster(options: ClusterOptions): Promise<TestCluster> {
  const server = await startTestPostgres();
  const uploads = mkdtempSync(path.join(os.tmpdir(), 'gym-cluster-uploads-'));
  const instances: Instance[] = [];
  const env = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'segredo-de-teste-compartilhado-por-todas-as-instancias',
    DATABASE_URL: server.url('academia'),
    TRUST_PROXY: 'loopback',
    UPLOADS_DIR: uploads,
    DB_CONNECT_TIMEOUT_MS: '1000',
    ...options.env,
  };
  const start = (name: string) => startInstance(name, { ...env, ...options.envOf?.(name) });
  const pool = () => {
    const db = new pg.Pool({ connectionString: server.url('academia'), max: 2 });
    db.on('error', () => {});
    return db;
  };
  const removeAll = async (proxy?: TestProxy, db?: pg.Pool) => {
    await proxy?.close();
    await Promise.all(instances.map((i) => stopInstance(i)));
    await db?.end().catch(() => {});
    await server.destroy();
    rmSync(uploads, { recursive: true, force: true });
  };
  let proxy: TestProxy;
  try {
    await server.createDatabase('academia');
    if (options.oneByOne) for (const name of options.names) instances.push(await start(name));
    else
      await Promise.all(
        options.names.map(async (name, i) => {
          instances[i] = await start(name);
        }),
      );
    proxy = await startProxy(instances);
  } catch (err) {
    // Whatever did start is stopped, so a failed start-up leaves no server behind.
    await removeAll();
    throw err;
  }
  const cluster: TestCluster = {
    server,
    instances,
    proxy,
    db: pool(),
    one: async <T>(query: string, params: unknown[] = []) => (await cluster.db.query(query, params)).rows[0] as T,
    async restart(index) {
      instances[index] = await start(instances[index]!.name);
      return instances[index]!;
    },
    reconnect() {
      cluster.db = pool();
      return cluster.db;
    },
    close: () => removeAll(proxy, cluster.db),
  };
  return cluster;
}

// The soak's production: the built server on a volume-seeded database (a PostgreSQL of its
// own, started with initdb/pg_ctl so it can be restarted, or a SQLite file), behind Debian's
// nginx with the micro-cache of docs/operations.md, a real SMTP server, a webhook receiver
// and the staff accounts. Shared by bench/soak.ts and test/operations/soak.test.ts.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDb, type Db, type DbHandle } from '../../src/db/index';
import { startTestPostgres, type TestPostgres } from '../../test/helpers/cluster';
import { startNginx, type TestNginx } from '../../test/helpers/nginx';
import { onlineOffers } from '../../test/helpers/offers';
import { startSmtp, type TestSmtp } from '../../test/helpers/smtp';
import { createStaffUser } from '../../test/helpers/staff';
import { startReceiver, type TestReceiver } from '../../test/helpers/webhook-receiver';
import { WEBHOOK_EVENTS } from '../../src/platform/webhooks/events';
import { freePort, startAppServer, type ChildServer } from '../lib';

export interface StackOptions {
  engine: 'postgres' | 'sqlite';
  instances: number;
  /** seed:volume's --escala (1 = the 300-unit chain after three years) */
  escala: number;
  /** seed:volume's --unidades */
  unidades: number;
  seed: number;
  managers: number;
  admins: number;
  /** extra server settings (a test shortens the retry schedules) */
  env?: Record<string, string>;
  /** settings of one instance (by index), to compare two values in the same run */
  instanceEnv?: Record<string, string>[];
  log: (line: string) => void;
}

export interface StaffLogin {
  email: string;
  password: string;
  papel: 'admin' | 'gerente';
  unitId: number | null;
  /** the customer address the proxy sees for this person */
  address: string;
}

export interface SoakInstance {
  name: string;
  port: number;
  server: ChildServer & { logFile: string };
  /** its own settings (instanceEnv) */
  env: Record<string, string>;
  /** restarts after a kill: the pids it had, oldest first */
  pids: number[];
}

export interface Catalog {
  units: { id: number; nome: string; cidade: string }[];
  questions: { id: number; tipo: string; options: number[] }[];
  offers: { unitId: number; planId: number }[];
}

export interface Stack {
  url: string;
  engine: StackOptions['engine'];
  instances: SoakInstance[];
  smtp: TestSmtp;
  receiver: TestReceiver;
  db: Db;
  catalog: Catalog;
  staff: StaffLogin[];
  /** what was seeded, for the report */
  volume: string;
  /** highest ids before the load: rows above them are the soak's */
  before: { mail: number; webhook: number };
  /** the instance's JS heap in use, MB, from its /metrics; null while it does not answer */
  heapUsedMb(inst: SoakInstance): Promise<number | null>;
  restartPostgres(pauseMs: number): Promise<void>;
  kill9(index: number): Promise<void>;
  restart(index: number): Promise<void>;
  close(): Promise<void>;
}

const STAFF_PASSWORD = 'senha-do-soak-123';

function runCli(script: string, databaseUrl: string, args: string[], log: StackOptions['log']) {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [script, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`${script} falhou (${r.status}):\n${r.stdout}\n${r.stderr}`);
  log(`${script} ${args.join(' ')}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** Units, survey questions and the plans sold online, read once before the load. */
async function readCatalog(db: Db): Promise<Catalog> {
  const units = await db
    .selectFrom('unidades')
    .select(['id', 'nome', 'cidade'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .execute();
  const questions = await db.selectFrom('perguntas').select(['id', 'tipo']).where('ativo', '=', 1).execute();
  const options = await db
    .selectFrom('perguntas_opcoes')
    .select(['id', 'pergunta_id'])
    .where('ativo', '=', 1)
    .execute();
  const offers = (await onlineOffers(db).execute()).map((o) => ({ unitId: o.unidade_id, planId: o.plano_id }));
  return {
    units: units.map((u) => ({ id: u.id, nome: u.nome, cidade: String(u.cidade ?? '') })),
    questions: questions.map((q) => ({
      id: q.id,
      tipo: q.tipo,
      options: options.filter((o) => o.pergunta_id === q.id).map((o) => o.id),
    })),
    offers,
  };
}

async function maxId(db: Db, table: 'fila_emails' | 'webhook_entregas'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

export async function startStack(o: StackOptions): Promise<Stack> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'gym-soak-'));
  const started: { close(): Promise<void> }[] = [];
  try {
    return await build(o, tmp, started);
  } catch (err) {
    // Nothing left running: the PostgreSQL server, nginx, the instances started so far.
    for (const s of started.reverse()) await s.close().catch(() => {});
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

async function build(o: StackOptions, tmp: string, started: { close(): Promise<void> }[]): Promise<Stack> {
  let pg: TestPostgres | undefined;
  let databaseUrl: string;
  if (o.engine === 'postgres') {
    pg = await startTestPostgres();
    started.push({ close: () => pg!.destroy() });
    await pg.createDatabase('academia');
    databaseUrl = pg.url('academia');
  } else {
    databaseUrl = `sqlite:${path.join(tmp, 'academia.sqlite')}`;
  }
  const t0 = performance.now();
  // The demo units first (with CNPJ, contract and plans sold online), then the chain's volume.
  runCli('dist/cli/seed.js', databaseUrl, [], o.log);
  runCli(
    'dist/cli/seed-volume.js',
    databaseUrl,
    ['--unidades', String(o.unidades), '--escala', String(o.escala), '--semente', String(o.seed)],
    o.log,
  );
  // The generator writes raw rows only; the build may have gained a migration since it ran.
  runCli('dist/cli/migrate.js', databaseUrl, [], o.log);
  runCli('dist/cli/aggregates-rebuild.js', databaseUrl, [], o.log);
  const seedSeconds = (performance.now() - t0) / 1000;

  const handle: DbHandle = createDb(
    o.engine === 'postgres'
      ? { engine: 'postgres', connectionString: databaseUrl }
      : { engine: 'sqlite', filename: databaseUrl.slice('sqlite:'.length) },
  );
  started.push({ close: () => handle.destroy() });
  const db = handle.db;
  const catalog = await readCatalog(db);
  const counts = await db
    .selectFrom('respostas_nps')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  const volume =
    `seed:volume --unidades ${o.unidades} --escala ${o.escala} --semente ${o.seed}: ` +
    `${catalog.units.length} unidades, ${Number(counts.n).toLocaleString('pt-BR')} respostas da pesquisa ` +
    `(semeado em ${seedSeconds.toFixed(0)} s)`;

  // Staff: each unit manager sees one unit (the busiest first), admins see the chain.
  const staff: StaffLogin[] = [];
  const busiest = await db
    .selectFrom('respostas_nps')
    .select(['unidade_id', (eb) => eb.fn.countAll().as('n')])
    .groupBy('unidade_id')
    .orderBy('n', 'desc')
    .limit(o.managers)
    .execute();
  const managerUnits = busiest.map((r) => Number(r.unidade_id));
  for (const u of catalog.units)
    if (managerUnits.length < o.managers && !managerUnits.includes(u.id)) managerUnits.push(u.id);
  for (let i = 0; i < o.managers + o.admins; i++) {
    const papel = i < o.managers ? 'gerente' : 'admin';
    const unitId = papel === 'gerente' ? managerUnits[i]! : null;
    const email = `soak.${papel}.${i}@academiamovimento.com.br`;
    await createStaffUser(db, {
      email,
      password: STAFF_PASSWORD,
      nome: `Soak ${papel} ${i}`,
      papel,
      unidadeIds: unitId ? [unitId] : undefined,
    });
    staff.push({ email, password: STAFF_PASSWORD, papel, unitId, address: `203.0.113.${i + 1}` });
  }

  const [smtp, receiver] = await Promise.all([startSmtp(), startReceiver()]);
  started.push(smtp, receiver);
  const now = new Date().toISOString();
  await db
    .insertInto('webhook_endpoints')
    .values({
      url: receiver.url,
      eventos: `,${WEBHOOK_EVENTS.map((e) => e.type).join(',')},`,
      segredo: `whsec_${randomBytes(24).toString('base64')}`,
      ativo: 1,
      criado_em: now,
      atualizado_em: now,
    })
    .execute();
  const before = { mail: await maxId(db, 'fila_emails'), webhook: await maxId(db, 'webhook_entregas') };

  const metricsToken = randomBytes(24).toString('hex');
  const env: Record<string, string> = {
    METRICS_TOKEN: metricsToken,
    SESSION_SECRET: randomBytes(32).toString('hex'),
    DATABASE_URL: databaseUrl,
    TRUST_PROXY: 'loopback',
    PUBLIC_URL: 'https://www.academiamovimento.com.br',
    MAIL_WORKER: 'true',
    ...smtp.env,
    NOTIFICATION_EMAIL: 'faleaqui@academiamovimento.com.br',
    FRANCHISE_NOTIFICATION_EMAIL: 'expansao@academiamovimento.com.br',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    PIX_KEY: 'financeiro@academiamovimento.com.br',
    UPLOADS_DIR: path.join(tmp, 'uploads'),
    ...o.env,
  };
  const names = ['a', 'b', 'c', 'd', 'e'];
  const ports = await Promise.all(Array.from({ length: o.instances }, () => freePort()));
  const launch = (i: number) => startAppServer(databaseUrl, { ...env, ...o.instanceEnv?.[i], PORT: String(ports[i]) });
  const instances: SoakInstance[] = [];
  for (let i = 0; i < o.instances; i++) {
    const server = await launch(i);
    started.push({ close: () => server.stop() });
    instances.push({ name: names[i]!, port: ports[i]!, server, env: o.instanceEnv?.[i] ?? {}, pids: [server.pid] });
  }
  const nginx: TestNginx = await startNginx(ports.map((p) => `127.0.0.1:${p}`));
  started.push({ close: () => nginx.stop() });
  o.log(`nginx em ${nginx.url}, ${o.instances} instância(s): ${ports.join(', ')}`);

  return {
    url: nginx.url,
    engine: o.engine,
    instances,
    smtp,
    receiver,
    db,
    catalog,
    staff,
    volume,
    before,
    async heapUsedMb(inst) {
      // What a Prometheus scrape reads: the default metrics' heap in use.
      try {
        const res = await fetch(`http://127.0.0.1:${inst.port}/metrics`, {
          headers: { authorization: `Bearer ${metricsToken}` },
          signal: AbortSignal.timeout(2_000),
        });
        const found = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(await res.text());
        return found ? Number(found[1]) / 2 ** 20 : null;
      } catch {
        return null;
      }
    },
    async restartPostgres(pauseMs) {
      if (!pg) throw new Error('só no PostgreSQL');
      await pg.stop();
      await new Promise((r) => setTimeout(r, pauseMs));
      await pg.start();
    },
    async kill9(index) {
      const inst = instances[index]!;
      process.kill(inst.server.pid, 'SIGKILL');
      await inst.server.stop();
    },
    async restart(index) {
      const inst = instances[index]!;
      inst.server = await launch(index);
      inst.pids.push(inst.server.pid);
    },
    async close() {
      await nginx.stop().catch(() => {});
      await Promise.all(instances.map((i) => i.server.stop()));
      await handle.destroy().catch(() => {});
      await smtp.close();
      await receiver.close();
      await pg?.destroy();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}

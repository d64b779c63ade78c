// npm run bench:staff: the staff pages, exports and public site on the volume of a 300-unit
// chain after 3 years (npm run seed:volume), on SQLite and on PostgreSQL. For each engine it
// takes a volume-seeded database (BENCH_STAFF_SQLITE, default /tmp/vol.sqlite;
// BENCH_STAFF_POSTGRES, default postgres://root@127.0.0.1:5432/volume; seeded when missing,
// at BENCH_STAFF_ESCALA, default 1), recounts the derived figures (aggregates:rebuild),
// starts the built server at default settings, logs in as an admin and prints each page's
// p50/p95, each export's rows/s and RSS growth, the public unit page's p99/max while an
// export and five 12-month reports run, and the survey POST's p99, with PASS/MISS.
// BENCH_STAFF_ENGINES=sqlite|postgres runs one; BENCH_STAFF_RUNS (default 20) requests per page.
// `--seed N` (printed at the start; random without it) picks the volume's shape (`--forma`
// padrao|desigual overrides it), the periods, units and filters asked for, so a run can be repeated.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { createDb, type Db } from '../src/db/index';
import type { DatabaseConfig } from '../src/config';
import { accountsService } from '../src/features/identity/services';
import { addDays, saoPauloDay } from '../src/lib/time';
import { type ChildServer, printTable, startAppServer } from './lib';

const RUNS = Number(process.env.BENCH_STAFF_RUNS ?? 20);
const { values: flags } = parseArgs({ options: { seed: { type: 'string' }, forma: { type: 'string' } } });
const SEED = flags.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(flags.seed);
if (!Number.isInteger(SEED) || SEED < 0 || SEED >= 2 ** 32) throw new Error(`--seed: um inteiro de 0 a 2^32 - 1`);
const SHAPE = flags.forma ?? (SEED % 2 ? 'desigual' : 'padrao');
if (SHAPE !== 'padrao' && SHAPE !== 'desigual') throw new Error('--forma: padrao ou desigual');

/** mulberry32: the run's choices from its seed. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)]!,
  };
}
const EMAIL = 'bench.staff@academiamovimento.com.br';
const PASSWORD = 'senha-do-benchmark-staff-123';
const TARGET = {
  pageP95: 300,
  exportRowsPerSec: 100_000,
  exportRssMb: 100,
  publicP99: 50,
  publicMax: 200,
  postP99: 50,
};

type Engine = 'sqlite' | 'postgres';
const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]! : Number.NaN;
};
const ms = (n: number) => `${n.toFixed(1)} ms`;

function configOf(engine: Engine): { url: string; config: DatabaseConfig } {
  const uneven = SHAPE === 'desigual';
  if (engine === 'sqlite') {
    const file = process.env.BENCH_STAFF_SQLITE ?? (uneven ? '/tmp/vol-desigual.sqlite' : '/tmp/vol.sqlite');
    return { url: `sqlite:${file}`, config: { engine: 'sqlite', filename: file } };
  }
  const url =
    process.env.BENCH_STAFF_POSTGRES ?? `postgres://root@127.0.0.1:5432/${uneven ? 'volume_desigual' : 'volume'}`;
  return { url, config: { engine: 'postgres', connectionString: url } as DatabaseConfig };
}

function run(script: string, databaseUrl: string, args: string[] = []): void {
  const r = spawnSync(process.execPath, [script, ...args], {
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'inherit',
  });
  if (r.status !== 0) throw new Error(`${script} falhou (${r.status})`);
}

async function hasVolume(engine: Engine, config: DatabaseConfig, url: string): Promise<boolean> {
  if (engine === 'sqlite' && !existsSync((config as { filename: string }).filename)) return false;
  if (engine === 'postgres') {
    const base = new URL(url);
    const name = base.pathname.slice(1);
    base.pathname = '/postgres';
    const admin = createDb({ engine: 'postgres', connectionString: base.toString() } as DatabaseConfig);
    try {
      const { sql } = await import('kysely');
      const found = await sql`select 1 from pg_database where datname = ${name}`.execute(admin.db);
      if (!found.rows.length) {
        await sql.raw(`create database "${name.replaceAll('"', '')}"`).execute(admin.db);
        return false;
      }
    } finally {
      await admin.destroy();
    }
  }
  const handle = createDb(config);
  try {
    const row = await handle.db
      .selectFrom('respostas_nps')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirst()
      .catch(() => undefined);
    return Number(row?.n ?? 0) > 0;
  } finally {
    await handle.destroy();
  }
}

async function prepare(db: Db) {
  const accounts = accountsService(db);
  const exists = await db.selectFrom('usuarios').select('id').where('email', '=', EMAIL).executeTakeFirst();
  if (exists) await accounts.resetPasswordFromCli(EMAIL, PASSWORD);
  else await accounts.createFromCli({ email: EMAIL, password: PASSWORD, nome: 'Benchmark', papel: 'admin' });
  const unit = await db
    .selectFrom('respostas_nps')
    .select('unidade_id')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow();
  const questions = await db.selectFrom('perguntas').select(['id', 'tipo']).where('ativo', '=', 1).execute();
  const options = await db
    .selectFrom('perguntas_opcoes')
    .select(['id', 'pergunta_id'])
    .where('ativo', '=', 1)
    .execute();
  const leads = Number(
    (
      await db
        .selectFrom('franquia_leads')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const lead = await db.selectFrom('franquia_leads').select('nome_completo').orderBy('id').limit(1).executeTakeFirst();
  // Units by their answers (the month figures), largest first: the run asks for the largest and a random one.
  const { sql } = await import('kysely');
  const sizes = await sql<{ unidade_id: number; n: number | string }>`select unidade_id, sum(respostas) as n
    from agregados_nps where length(periodo) = 7 group by unidade_id order by 2 desc, 1`.execute(db);
  const first = await db
    .selectFrom('respostas_nps')
    .select((eb) => eb.fn.min('criado_em').as('m'))
    .executeTakeFirstOrThrow();
  return {
    unitId: unit.unidade_id,
    units: sizes.rows.map((r) => ({ id: Number(r.unidade_id), answers: Number(r.n) })),
    firstDay: saoPauloDay(new Date(String(first.m))),
    questions,
    options,
    leads,
    leadWord: lead?.nome_completo.split(' ')[0] ?? 'Silva',
  };
}

async function login(url: string): Promise<string> {
  const page = await fetch(`${url}/pages/Franquia/admin.php`);
  const html = await page.text();
  const token = /name="csrf_token" value="([^"]+)"/.exec(html)?.[1];
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const res = await fetch(`${url}/pages/Franquia/admin.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf_token: token ?? '', acao: 'entrar', email: EMAIL, senha: PASSWORD }),
  });
  if (res.status !== 303) throw new Error(`login: ${res.status}`);
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return `${cookie}; ${session}`;
}

async function timed(url: string, cookie: string): Promise<{ ms: number; status: number; bytes: number }> {
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  const body = await res.arrayBuffer();
  return { ms: performance.now() - t0, status: res.status, bytes: body.byteLength };
}

async function streamExport(server: ChildServer, url: string, cookie: string) {
  const rss0 = server.rssMb() ?? 0;
  let peak = rss0;
  const sampler = setInterval(() => (peak = Math.max(peak, server.rssMb() ?? 0)), 50);
  const t0 = performance.now();
  const res = await fetch(url, { headers: { cookie } });
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) lines++;
  }
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  const rows = Math.max(0, lines - 1);
  return { status: res.status, rows, seconds, rowsPerSec: rows / seconds, rssGrowthMb: peak - rss0 };
}

async function benchEngine(engine: Engine) {
  const { url: databaseUrl, config } = configOf(engine);
  console.log(`\n== ${engine}: ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')}`);
  if (!(await hasVolume(engine, config, databaseUrl))) {
    console.log(`sem volume: rodando seed:volume --forma ${SHAPE} --semente ${SEED}…`);
    const t = performance.now();
    run('dist/cli/seed-volume.js', databaseUrl, [
      ...['--escala', process.env.BENCH_STAFF_ESCALA ?? '1', '--forma', SHAPE, '--semente', String(SEED)],
    ]);
    console.log(`seed:volume em ${((performance.now() - t) / 60_000).toFixed(1)} min`);
  } else console.log(`volume existente (forma ${SHAPE}: o banco de ${databaseUrl.replace(/\/\/[^@/]*@/, '//…@')})`);
  run('dist/cli/migrate.js', databaseUrl);
  const t0 = performance.now();
  run('dist/cli/aggregates-rebuild.js', databaseUrl);
  console.log(`aggregates:rebuild em ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  const handle = createDb(config);
  if (engine === 'postgres') {
    // The rebuild leaves about a gigabyte of dirty pages: flushed now, not during the measures.
    const { sql } = await import('kysely');
    await sql`checkpoint`.execute(handle.db).catch((err) => console.log(`checkpoint: ${err.message}`));
  }
  const info = await prepare(handle.db).finally(() => handle.destroy());

  console.log('iniciando o servidor…');
  const server = await startAppServer(databaseUrl);
  const rows: string[][] = [];
  try {
    const cookie = await login(server.url);
    const today = saoPauloDay();
    // "The last 12 months up to today": starts the day after the same day a year ago.
    const yearAgo = new Date(`${today}T12:00:00Z`);
    yearAgo.setUTCFullYear(yearAgo.getUTCFullYear() - 1);
    const year = `de=${addDays(yearAgo.toISOString().slice(0, 10), 1)}&ate=${today}`;
    const rand = prng(SEED ^ (engine === 'sqlite' ? 0 : 0x9e3779b9));
    const span = Math.max(1, Math.round((Date.parse(today) - Date.parse(info.firstDay)) / 86_400_000));
    const dayAt = (n: number) => addDays(info.firstDay, Math.min(span, Math.max(0, n)));
    const notFirst = (day: string) => (day.endsWith('-01') ? addDays(day, 1 + rand.int(5)) : day);
    // A period starting and ending inside months, 20 to 400 days.
    const oddFrom = notFirst(dayAt(rand.int(Math.max(1, span - 30))));
    const oddTo = notFirst(addDays(oddFrom, 19 + rand.int(381)));
    const odd = `de=${oddFrom}&ate=${oddTo < today ? oddTo : today}`;
    // A part of one month (from the 2nd to at most the 27th) and a single day.
    const month = dayAt(rand.int(span - 31)).slice(0, 7);
    const partFrom = 2 + rand.int(10);
    const dd = (n: number) => String(n).padStart(2, '0');
    const part = `de=${month}-${dd(partFrom)}&ate=${month}-${dd(partFrom + 3 + rand.int(13))}`;
    const day = dayAt(rand.int(span + 1));
    const largest = info.units[0]?.id ?? info.unitId;
    const u = info.units.length ? rand.pick(info.units).id : info.unitId;
    const category = rand.pick(['promotores', 'neutros', 'detratores', 'pendentes']);
    const status = rand.pick(['nova', 'lida', 'respondida', 'resolvida']);
    const weeks = 1 + rand.int(52);
    console.log(`semente ${SEED}: unidade ${u}, maior unidade ${largest}, ${odd}, ${part}, dia ${day}`);
    const farPage = Math.max(1, Math.floor(info.leads / 25 / 2));
    const pages: [string, string][] = [
      ['/admin (fila de atenção)', '/admin'],
      ['NPS: padrão (90 dias)', '/admin/pesquisa'],
      ['NPS: 12 meses até hoje, rede', `/admin/pesquisa?${year}`],
      [`NPS: 12 meses até hoje, ${category}`, `/admin/pesquisa?${year}&categoria=${category}`],
      ['NPS: período desalinhado, rede', `/admin/pesquisa?${odd}`],
      ['NPS: parte de um mês, rede', `/admin/pesquisa?${part}`],
      ['NPS: um dia, rede', `/admin/pesquisa?de=${day}&ate=${day}`],
      ['NPS: uma unidade (padrão)', `/admin/pesquisa?unidade_id=${u}`],
      ['NPS: maior unidade, 12 meses', `/admin/pesquisa?unidade_id=${largest}&${year}`],
      ['Mensagens: padrão', '/admin/mensagens'],
      ['Mensagens: uma unidade', `/admin/mensagens?unidade_id=${u}`],
      ['Mensagens: maior unidade', `/admin/mensagens?unidade_id=${largest}`],
      [`Mensagens: status ${status}`, `/admin/mensagens?status=${status}`],
      ['Leads: padrão', '/pages/Franquia/admin.php'],
      [`Leads: página ${farPage}`, `/pages/Franquia/admin.php?pagina=${farPage}`],
      ['Leads: filtro de texto', `/pages/Franquia/admin.php?q=${encodeURIComponent(info.leadWord)}`],
      ['Aulas experimentais', '/admin/aulas-experimentais'],
      ['Aulas experimentais: um dia, maior unidade', `/admin/aulas-experimentais?dia=${day}&unidade_id=${largest}`],
      ['Funil (padrão)', '/admin/aulas-experimentais/funil'],
      ['Funil: período desalinhado', `/admin/aulas-experimentais/funil?${odd}`],
      ['Funil: 12 meses até hoje', `/admin/aulas-experimentais/funil?${year}`],
      ['Cliques (padrão, 8 semanas)', '/admin/cliques'],
      [`Cliques: ${weeks} semanas`, `/admin/cliques?semanas=${weeks}`],
      [`Cliques: ${weeks} semanas, maior unidade`, `/admin/cliques?semanas=${weeks}&unidade_id=${largest}`],
    ];
    for (const [label, path] of pages) {
      console.log(`  ${label}: ${path}`);
      const first = await timed(server.url + path, cookie);
      if (first.status !== 200) throw new Error(`${path}: ${first.status}`);
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push((await timed(server.url + path, cookie)).ms);
      const p95 = quantile(times, 0.95);
      rows.push([label, ms(quantile(times, 0.5)), ms(p95), `≤ ${TARGET.pageP95} ms`, pass(p95 <= TARGET.pageP95)]);
    }

    const exports: [string, string][] = [
      ['Exportação pesquisa, tudo', '/admin/pesquisa/exportar.csv?de=2000-01-01'],
      ['Exportação pesquisa, 12 meses até hoje', `/admin/pesquisa/exportar.csv?${year}`],
      ['Exportação pesquisa, período desalinhado', `/admin/pesquisa/exportar.csv?${odd}`],
      ['Exportação pesquisa, maior unidade, 12 meses', `/admin/pesquisa/exportar.csv?unidade_id=${largest}&${year}`],
      ['Exportação mensagens', '/admin/mensagens/exportar.csv'],
      [`Exportação mensagens, ${status}`, `/admin/mensagens/exportar.csv?status=${status}`],
      ['Exportação leads', '/pages/Franquia/admin.php?export=csv'],
    ];
    for (const [label, path] of exports) {
      console.log(`  ${label}: ${path}`);
      const e = await streamExport(server, server.url + path, cookie);
      if (e.status !== 200) throw new Error(`${path}: ${e.status}`);
      rows.push([
        `${label} (${e.rows.toLocaleString('pt-BR')} linhas)`,
        `${Math.round(e.rowsPerSec).toLocaleString('pt-BR')} linhas/s`,
        `RSS +${e.rssGrowthMb.toFixed(0)} MB`,
        `≥ 100.000/s, ≤ ${TARGET.exportRssMb} MB`,
        pass(e.rowsPerSec >= TARGET.exportRowsPerSec && e.rssGrowthMb <= TARGET.exportRssMb),
      ]);
    }

    // The public unit page while one export and five reports (12 months and the run's own periods) run together.
    const publicUrl = `${server.url}/Detalhes.php?id=${u}`;
    await timed(publicUrl, '');
    let busy = true;
    const reports = [year, odd, part, year, `de=${day}&ate=${day}`];
    const background = Promise.all([
      streamExport(server, `${server.url}/admin/pesquisa/exportar.csv?de=2000-01-01`, cookie),
      ...reports.map(async (period) => {
        while (busy) await timed(`${server.url}/admin/pesquisa?${period}`, cookie);
      }),
    ]).finally(() => (busy = false));
    const publicTimes: number[] = [];
    const until = Date.now() + 60_000;
    while (busy && Date.now() < until) {
      publicTimes.push((await timed(publicUrl, '')).ms);
      await new Promise((r) => setTimeout(r, 5));
    }
    busy = false;
    await background;
    const p99 = quantile(publicTimes, 0.99);
    const max = Math.max(...publicTimes);
    rows.push([
      `Página pública durante exportação + 5 relatórios (${publicTimes.length} pedidos)`,
      `p99 ${ms(p99)}`,
      `máx ${ms(max)}`,
      `p99 ≤ ${TARGET.publicP99}, máx ≤ ${TARGET.publicMax} ms`,
      pass(p99 <= TARGET.publicP99 && max <= TARGET.publicMax),
    ]);

    // Survey POSTs, one after another, with the tables at this size.
    const form = await fetch(`${server.url}/NPS/nps_app_php/index.php?unidade_id=${u}`);
    const html = await form.text();
    const token = /name="_token" value="([^"]+)"/.exec(html)?.[1] ?? '';
    const formCookie = form.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const postTimes: number[] = [];
    const stamp = Date.now().toString(36);
    for (let i = 0; i < Math.max(50, RUNS * 5); i++) {
      const fields = new URLSearchParams({ _token: token, unidade_id: String(u), envio_id: `bench-${stamp}-${i}` });
      for (const q of info.questions) {
        if (q.tipo === 'texto') fields.append(`texto_ok[${q.id}]`, '1');
        else {
          const choices = info.options.filter((o) => o.pergunta_id === q.id);
          fields.append(`respostas[${q.id}]`, String(choices[i % choices.length]!.id));
        }
      }
      const t = performance.now();
      const res = await fetch(`${server.url}/NPS/nps_app_php/salvar_resposta.php`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: formCookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: fields,
      });
      await res.arrayBuffer();
      postTimes.push(performance.now() - t);
      if (res.status !== 303) throw new Error(`POST da pesquisa: ${res.status}`);
    }
    const postP99 = quantile(postTimes, 0.99);
    rows.push([
      'POST da pesquisa',
      `p50 ${ms(quantile(postTimes, 0.5))}`,
      `p99 ${ms(postP99)}`,
      `p99 ≤ ${TARGET.postP99} ms`,
      pass(postP99 <= TARGET.postP99),
    ]);
  } finally {
    await server.stop();
  }
  console.log(`\n${engine}, semente ${SEED}, forma ${SHAPE}`);
  printTable(['', 'p50 / taxa', 'p95 / memória', 'meta', ''], rows);
  return rows.some((r) => r[4] === 'MISS');
}

const engines = (process.env.BENCH_STAFF_ENGINES ?? 'sqlite,postgres').split(',').map((s) => s.trim()) as Engine[];
console.log(`semente ${SEED} (repita com --seed ${SEED}), forma ${SHAPE}`);
let missed = false;
for (const engine of engines) missed = (await benchEngine(engine)) || missed;
process.exitCode = missed ? 1 : 0;

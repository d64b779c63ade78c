// npm run bench:public (part of npm run bench; or `node --import tsx bench/run.ts` after `npm run build`).
// The public site on a chain-sized catalog (300 units, 3,000 plans) as deployed: the built
// server with the Node flags of `npm start`, the default LOG_LEVEL (a line per request,
// written to a file), no forced collections. In the same run, the PHP peer
// (bench/php-peer.ts: the old site's search and unit page on php-fpm behind nginx, reading
// the same SQLite file) answers the same paths. 50 connections each; prints req/s, p99,
// the app's CPU per answer, RSS, and PASS/MISS per target (bench/README.md). Exit code 1
// only on errors or unexpected answers: a missed target is reported, not failed.
//
// BENCH_ROUNDS (default 3) repeats every measure; medians are reported, so one burst of
// load from another process does not decide a figure. Every request carries a phone's
// Chromium `accept-encoding` (BROWSER_HEADERS): what visitors get.
import { createReadStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { seedLargeCatalog } from '../src/db/seeds/large';
import {
  atLeast,
  atMost,
  benchDuration,
  captureResponse,
  contentEncoding,
  decodedBody,
  DEFAULT_CONNECTIONS,
  fmt,
  formatTarget,
  hasFailures,
  prepareDatabase,
  printTable,
  runLoad,
  startAppServer,
  type CapturedResponse,
  type LoadResult,
  type Target,
} from './lib';
import { startPhpPeer, type PhpPeer } from './php-peer';

const UNITS = Number(process.env.BENCH_UNITS ?? 300);
const PLANS = Number(process.env.BENCH_PLANS ?? 3000);
const COMMON_WORD = 'movimento'; // in every unit's name: every unit matches, top 20 returned
const RARE_WORD = 'pituba'; // one neighbourhood of Salvador: a handful of matches
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)) || 1);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** search and unit page ≥ 15× the PHP peer's req/s; every public GET p99 ≤ 10 ms; RSS after load ≤ 160 MB */
export const CATALOG_TARGETS = { peerRatio: 15, p99Ms: 10, rssMb: 160 };

interface Route {
  label: string;
  path: string;
  /** false: a reference row, measured without a target */
  target: boolean;
  /** the PHP peer answers this path too: the throughput target compares with it */
  peer?: boolean;
  /** routes other branches add: a 404 skips them with a note */
  optional?: boolean;
  check: (body: string) => boolean;
  /** the PHP peer's answer, when it differs from the app's (no JSON-LD on the old site) */
  peerCheck?: (body: string) => boolean;
}

async function main() {
  // 5 s per measure by default here: three rounds keep the whole run to a few minutes.
  const duration = process.env.BENCH_DURATION ? benchDuration() : 5;
  console.log(`Preparando o banco: ${UNITS} unidades e ${PLANS} planos gerados (SQLite)…`);
  const db = await prepareDatabase((d) => seedLargeCatalog(d, { units: UNITS, plans: PLANS }));
  const { fullTimetableUnitId, unitIds } = db.seeded;
  const passUnitId = unitIds[1]!; // has a benefit link (most units do)
  const json = (b: string) => JSON.parse(b) as unknown[];
  const routes: Route[] = [
    // Not a target: the cheapest route shows what the framework and the global hooks cost alone.
    { label: 'piso: /healthz (referência)', path: '/healthz', target: false, check: (b) => b.includes('ok') },
    {
      label: 'busca (palavra comum)',
      path: `/search_ajax.php?q=${COMMON_WORD}`,
      target: true,
      peer: true,
      check: (b) => json(b).length === 20,
    },
    {
      label: 'busca (palavra rara)',
      path: `/search_ajax.php?q=${RARE_WORD}`,
      target: true,
      peer: true,
      check: (b) => {
        const n = json(b).length;
        return n > 0 && n < 20;
      },
    },
    { label: 'página inicial', path: '/', target: true, check: (b) => b.includes('<form') },
    {
      label: 'página da unidade',
      path: `/Detalhes.php?id=${fullTimetableUnitId}`,
      target: true,
      peer: true,
      check: (b) => b.includes('Grade de aulas') && b.includes('ExerciseGym'),
      peerCheck: (b) => b.includes('Grade de aulas'),
    },
    {
      label: 'página Pass',
      path: `/pages/Pass/index.php?id=${passUnitId}`,
      target: true,
      check: (b) => b.includes('noopener noreferrer'),
    },
    { label: 'lista de unidades', path: '/unidades', target: true, optional: true, check: (b) => b.includes('<html') },
    {
      label: 'unidades.json (perto de SP)',
      path: '/unidades.json?lat=-23.56&lng=-46.65',
      target: true,
      optional: true,
      check: (b) => {
        JSON.parse(b);
        return true;
      },
    },
    { label: 'sitemap.xml', path: '/sitemap.xml', target: true, optional: true, check: (b) => b.includes('<urlset') },
  ];

  const all: LoadResult[] = [];
  const measured: { route: Route; captured: CapturedResponse; app: LoadResult[]; peer: LoadResult[] }[] = [];
  const skipped: string[] = [];
  let app: Awaited<ReturnType<typeof startAppServer>> | null = null;
  let peer: PhpPeer | null = null;
  let peerUnavailable: string | null = null;
  let idleRss: number | null = null;
  let afterRss: number | null = null;
  let peerRss: number | null = null;
  let logLines = 0;
  try {
    app = await startAppServer(db.databaseUrl);
    idleRss = app.rssMb();
    const started = await startPhpPeer(db.databaseUrl.replace(/^sqlite:/, ''));
    if ('unavailable' in started) {
      peerUnavailable = started.unavailable;
      console.log(
        `PAR PHP INDISPONÍVEL: ${peerUnavailable}. O app é medido assim mesmo; a meta de 15× fica sem medida.`,
      );
    } else peer = started;
    // Each answer checked once, before any load.
    for (const route of routes) {
      const c = await captureResponse(app.url, route.path);
      if (route.optional && c.status === 404) {
        skipped.push(`${route.label} (${route.path}): 404 neste ramo, não medida`);
        continue;
      }
      if (c.status !== 200 || !route.check(decodedBody(c).toString('utf8'))) {
        throw new Error(`${route.label}: resposta inesperada (${c.status}) em ${route.path}`);
      }
      if (peer && route.peer) {
        const p = await captureResponse(peer.url, route.path);
        if (p.status !== 200 || !(route.peerCheck ?? route.check)(decodedBody(p).toString('utf8')))
          throw new Error(`${route.label}: resposta inesperada do par PHP (${p.status}) em ${route.path}`);
      }
      measured.push({ route, captured: c, app: [], peer: [] });
    }
    console.log(
      `Cada rota: o app${peer ? ' (e o par PHP nas rotas que ele tem)' : ''}; ` +
        `${DEFAULT_CONNECTIONS} conexões, ${duration} s cada, ${ROUNDS} rodada(s)…`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const m of measured) {
        if (peer && m.route.peer) {
          const p = await runLoad(peer, `${m.route.label} (PHP)`, m.route.path, { duration });
          all.push(p);
          m.peer.push(p);
          peerRss = Math.max(peerRss ?? 0, p.rssMb ?? 0);
        }
        const r = await runLoad(app, m.route.label, m.route.path, { duration });
        all.push(r);
        m.app.push(r);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    afterRss = app.rssMb();
    // Streamed: a quiet machine's run writes more than the longest string Node can hold.
    logLines = 0;
    for await (const line of createInterface({ input: createReadStream(app.logFile) }))
      if (line.includes('"request completed"')) logLines++;
  } finally {
    await app?.stop();
    await peer?.stop();
    db.cleanup();
  }

  const T = CATALOG_TARGETS;
  const rows: string[][] = [];
  const targets: Target[] = [];
  for (const { route, captured: c, app: runs, peer: peerRuns } of measured) {
    const rps = median(runs.map((x) => x.reqPerSec));
    const p99 = median(runs.map((x) => x.p99));
    const cpu = runs.every((x) => x.cpuUsPerReq !== null) ? median(runs.map((x) => x.cpuUsPerReq!)) : null;
    const peerRps = peerRuns.length ? median(peerRuns.map((x) => x.reqPerSec)) : null;
    const tRatio = route.peer && peerRps !== null ? atLeast(rps / peerRps, T.peerRatio, '×', 1) : undefined;
    const tP99 = route.target ? atMost(p99, T.p99Ms, ' ms', 0) : undefined;
    if (tRatio) targets.push(tRatio);
    if (tP99) targets.push(tP99);
    rows.push([
      route.label,
      route.path,
      `${contentEncoding(c) ?? ''} ${fmt.bytes(c.body.length)}`.trim(),
      fmt.rps(rps),
      fmt.ms(p99),
      cpu === null ? '—' : cpu.toFixed(0),
      peerRps === null
        ? route.peer
          ? 'indisponível'
          : '—'
        : `${fmt.rps(peerRps)} (p99 ${fmt.ms(median(peerRuns.map((x) => x.p99)))})`,
      peerRps === null ? '—' : `${(rps / peerRps).toFixed(1)}×`,
      tRatio ? formatTarget(tRatio) : route.peer ? 'sem medida' : '',
      tP99 ? formatTarget(tP99) : '(sem meta)',
    ]);
  }
  const total = all.filter((r) => !r.label.endsWith('(PHP)')).reduce((n, r) => n + r.total, 0);
  console.log('');
  console.log(
    `Resultados (${DEFAULT_CONNECTIONS} conexões, ${duration} s por medida, ` +
      `${UNITS} unidades, ${PLANS} planos, ${new Date().toISOString()}):`,
  );
  printTable(
    [
      'medida',
      'rota',
      'corpo (codificação, bytes)',
      'app req/s',
      'app p99',
      'app CPU µs/req',
      'par PHP req/s',
      'app ÷ PHP',
      'meta ≥ 15× PHP',
      'meta p99',
    ],
    rows,
  );
  if (ROUNDS > 1) console.log(`req/s, p99 e CPU: medianas de ${ROUNDS} rodadas.`);
  console.log(
    'CPU µs/req: tempo de CPU (usuário + sistema) do processo do app por resposta: ' +
      'não depende da parte dos núcleos que o gerador de carga toma.',
  );
  for (const s of skipped) console.log(`Pulada: ${s}`);
  if (peerUnavailable) console.log(`Par PHP indisponível: ${peerUnavailable}`);

  const peakRss = Math.max(...measured.flatMap((m) => m.app.map((r) => r.rssMb ?? 0)));
  const tRss = atMost(afterRss ?? peakRss, T.rssMb, ' MB', 0);
  targets.push(tRss);
  console.log('');
  console.log(
    `Memória do app (RSS, sem coletas forçadas): depois da carga ${fmt.mb(afterRss)} — ${formatTarget(tRss)}; ` +
      `pico sob carga ${fmt.mb(peakRss)}; em repouso ${fmt.mb(idleRss)}` +
      (peer ? `; par PHP (php-fpm e filhos) no pico ${fmt.mb(peerRss)}` : ''),
  );
  console.log(
    `Log do app (LOG_LEVEL padrão, num arquivo): ${fmt.rps(logLines)} linhas "request completed" ` +
      `para ${fmt.rps(total)} respostas medidas (mais aquecimentos e conferências).`,
  );
  const missed = targets.filter((t) => !t.pass).length;
  console.log(
    missed
      ? `${missed} de ${targets.length} metas não atingidas: veja MISS acima.`
      : `Todas as ${targets.length} metas atingidas.`,
  );

  for (const f of all.filter((r) => r.errors || r.timeouts || r.non2xx)) {
    console.error(`ERRO em ${f.label}: ${f.errors} erros, ${f.timeouts} timeouts, ${f.non2xx} respostas não-2xx`);
  }
  process.exitCode = hasFailures(all) ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

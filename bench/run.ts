// npm run bench (or `npx tsx bench/run.ts` after `npm run build`).
// The public site on the large generated catalog vs a plain node:http server, 50
// connections each, same run, same machine. Prints req/s, p99, ratio to plain, RSS under
// load, and PASS/MISS per target. Exit code 1 only on errors or non-2xx answers: a missed
// target is reported, not failed.
import { seedLargeCatalog } from '../src/db/seeds/large';
import {
  atLeast,
  atMost,
  benchDuration,
  DEFAULT_CONNECTIONS,
  fmt,
  formatTarget,
  hasFailures,
  prepareDatabase,
  printTable,
  runLoad,
  startAppServer,
  startPlainServer,
  type LoadResult,
  type Target,
} from './lib';

const UNITS = Number(process.env.BENCH_UNITS ?? 500);
const COMMON_WORD = 'movimento'; // in every unit's name: 500 matches, top 20 returned
const RARE_WORD = 'pituba'; // one neighbourhood of Salvador: a handful of matches

const TARGETS = { search: 0.5, unit: 0.4, pass: 0.4, p99Ms: 10, rssMb: 150 };

async function main() {
  const duration = benchDuration();
  console.log(`Preparando o banco: ${UNITS} unidades geradas (SQLite)…`);
  const db = await prepareDatabase((d) => seedLargeCatalog(d, { units: UNITS }));
  const { fullTimetableUnitId, unitIds } = db.seeded;
  const passUnitId = unitIds[1]!; // has a benefit link (most units do)
  const routes = [
    { label: 'busca (palavra comum)', path: `/search_ajax.php?q=${COMMON_WORD}`, ratio: TARGETS.search, check: (b: string) => JSON.parse(b).length === 20 },
    { label: 'busca (palavra rara)', path: `/search_ajax.php?q=${RARE_WORD}`, ratio: TARGETS.search, check: (b: string) => { const n = JSON.parse(b).length; return n > 0 && n < 20; } },
    { label: 'página da unidade', path: `/Detalhes.php?id=${fullTimetableUnitId}`, ratio: TARGETS.unit, check: (b: string) => b.includes('Grade de aulas') && b.includes('ExerciseGym') },
    { label: 'página Pass', path: `/pages/Pass/index.php?id=${passUnitId}`, ratio: TARGETS.pass, check: (b: string) => b.includes('rel="noopener noreferrer"') },
  ];

  const results: LoadResult[] = [];
  let plain: LoadResult;
  console.log(`Servidor puro (node:http): ${DEFAULT_CONNECTIONS} conexões, ${duration} s…`);
  const plainServer = await startPlainServer();
  try {
    plain = await runLoad(plainServer, 'node:http puro', '/');
    results.push(plain);
  } finally {
    await plainServer.stop();
  }

  const app = await startAppServer(db.databaseUrl);
  const appResults: (LoadResult & { ratioTarget: number })[] = [];
  let idleRss: number | null = null;
  let floor: LoadResult | undefined;
  try {
    idleRss = app.rssMb();
    // Not a target: the cheapest route of the app (GET /healthz) shows what the framework and
    // the global plugins (security headers, cookies, session, compression) cost on their own.
    console.log(`piso do framework (/healthz): ${DEFAULT_CONNECTIONS} conexões, ${duration} s…`);
    floor = await runLoad(app, 'piso: /healthz (referência)', '/healthz');
    results.push(floor);
    for (const route of routes) {
      const res = await fetch(`${app.url}${route.path}`);
      const body = await res.text();
      if (res.status !== 200 || !route.check(body)) {
        throw new Error(`${route.label}: resposta inesperada (${res.status}) em ${route.path}`);
      }
      console.log(`${route.label}: ${DEFAULT_CONNECTIONS} conexões, ${duration} s…`);
      const r = await runLoad(app, route.label, route.path);
      results.push(r);
      appResults.push({ ...r, ratioTarget: route.ratio });
    }
  } finally {
    await app.stop();
    db.cleanup();
  }

  const maxRss = Math.max(...appResults.map((r) => r.rssMb ?? 0), floor?.rssMb ?? 0);
  const rows: string[][] = [
    [plain.label, plain.path, fmt.rps(plain.reqPerSec), fmt.ms(plain.p99), '100%', fmt.mb(plain.rssMb), '', ''],
  ];
  if (floor) {
    rows.push([floor.label, floor.path, fmt.rps(floor.reqPerSec), fmt.ms(floor.p99), fmt.pct(floor.reqPerSec / plain.reqPerSec), fmt.mb(floor.rssMb), '(sem meta)', '']);
  }
  const targets: Target[] = [];
  for (const r of appResults) {
    const ratio = r.reqPerSec / plain.reqPerSec;
    const tRatio = atLeast(ratio * 100, r.ratioTarget * 100, '%', 0);
    const tP99 = atMost(r.p99, TARGETS.p99Ms, ' ms', 0);
    targets.push(tRatio, tP99);
    rows.push([r.label, r.path, fmt.rps(r.reqPerSec), fmt.ms(r.p99), fmt.pct(ratio), fmt.mb(r.rssMb), formatTarget(tRatio), formatTarget(tP99)]);
  }
  console.log('');
  console.log(`Resultados (${DEFAULT_CONNECTIONS} conexões, ${duration} s por rota, ${UNITS} unidades):`);
  printTable(['medida', 'rota', 'req/s', 'p99', 'razão ao puro', 'RSS (pico)', 'meta de vazão', 'meta p99'], rows);
  const tRss = atMost(maxRss, TARGETS.rssMb, ' MB', 0);
  targets.push(tRss);
  console.log('');
  console.log(`Memória do servidor sob carga (RSS, pico): ${fmt.mb(maxRss)} (em repouso: ${fmt.mb(idleRss)}) — ${formatTarget(tRss)}`);
  const missed = targets.filter((t) => !t.pass).length;
  console.log(missed ? `${missed} meta(s) não atingida(s): veja MISS acima.` : 'Todas as metas atingidas.');

  const failures = results.filter((r) => r.errors || r.timeouts || r.non2xx);
  for (const f of failures) console.error(`ERRO em ${f.label}: ${f.errors} erros, ${f.timeouts} timeouts, ${f.non2xx} respostas não-2xx`);
  process.exitCode = hasFailures(results) ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

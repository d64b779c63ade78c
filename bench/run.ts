// npm run bench (or `npx tsx bench/run.ts` after `npm run build`).
// The public site on the large generated catalog vs a plain node:http server, 50
// connections each, same run, same machine. Prints req/s, p99, ratio to plain, RSS under
// load, and PASS/MISS per target. Exit code 1 only on errors or non-2xx answers: a missed
// target is reported, not failed.
//
// Both servers stay up and each app route is measured right after a plain-server run: the
// ratio uses that neighbouring run, so background load on a shared machine skews both alike.
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
  type ChildServer,
  type LoadResult,
  type Target,
} from './lib';

const UNITS = Number(process.env.BENCH_UNITS ?? 500);
const COMMON_WORD = 'movimento'; // in every unit's name: 500 matches, top 20 returned
const RARE_WORD = 'pituba'; // one neighbourhood of Salvador: a handful of matches

export const CATALOG_TARGETS = { search: 0.5, unit: 0.4, pass: 0.4, p99Ms: 10, rssMb: 150 };

interface Route {
  label: string;
  path: string;
  /** minimum ratio to the plain server; null = reference row without a target */
  ratio: number | null;
  check: (body: string) => boolean;
}

async function main() {
  const duration = benchDuration();
  console.log(`Preparando o banco: ${UNITS} unidades geradas (SQLite)…`);
  const db = await prepareDatabase((d) => seedLargeCatalog(d, { units: UNITS }));
  const { fullTimetableUnitId, unitIds } = db.seeded;
  const passUnitId = unitIds[1]!; // has a benefit link (most units do)
  const T = CATALOG_TARGETS;
  const routes: Route[] = [
    // Not a target: the cheapest route of the app shows what the framework and the global
    // plugins (security headers, cookies, session, compression, request id) cost alone.
    { label: 'piso: /healthz (referência)', path: '/healthz', ratio: null, check: (b) => b.includes('ok') },
    { label: 'busca (palavra comum)', path: `/search_ajax.php?q=${COMMON_WORD}`, ratio: T.search, check: (b) => JSON.parse(b).length === 20 },
    { label: 'busca (palavra rara)', path: `/search_ajax.php?q=${RARE_WORD}`, ratio: T.search, check: (b) => { const n = JSON.parse(b).length; return n > 0 && n < 20; } },
    { label: 'página da unidade', path: `/Detalhes.php?id=${fullTimetableUnitId}`, ratio: T.unit, check: (b) => b.includes('Grade de aulas') && b.includes('ExerciseGym') },
    { label: 'página Pass', path: `/pages/Pass/index.php?id=${passUnitId}`, ratio: T.pass, check: (b) => b.includes('rel="noopener noreferrer"') },
  ];

  const all: LoadResult[] = [];
  const measured: { route: Route; app: LoadResult; plain: LoadResult }[] = [];
  let plainServer: ChildServer | null = null;
  let app: ChildServer | null = null;
  let idleRss: number | null = null;
  try {
    plainServer = await startPlainServer();
    app = await startAppServer(db.databaseUrl);
    idleRss = app.rssMb();
    for (const route of routes) {
      const res = await fetch(`${app.url}${route.path}`);
      const body = await res.text();
      if (res.status !== 200 || !route.check(body)) throw new Error(`${route.label}: resposta inesperada (${res.status}) em ${route.path}`);
      console.log(`node:http puro, depois ${route.label}: ${DEFAULT_CONNECTIONS} conexões, ${duration} s cada…`);
      const plain = await runLoad(plainServer, 'node:http puro', '/');
      const r = await runLoad(app, route.label, route.path);
      all.push(plain, r);
      measured.push({ route, app: r, plain });
    }
  } finally {
    await app?.stop();
    await plainServer?.stop();
    db.cleanup();
  }

  const rows: string[][] = [];
  const targets: Target[] = [];
  for (const { route, app: r, plain } of measured) {
    const ratio = r.reqPerSec / plain.reqPerSec;
    const tRatio = route.ratio === null ? undefined : atLeast(ratio * 100, route.ratio * 100, '%', 0);
    const tP99 = route.ratio === null ? undefined : atMost(r.p99, T.p99Ms, ' ms', 0);
    if (tRatio && tP99) targets.push(tRatio, tP99);
    rows.push([
      r.label,
      r.path,
      fmt.rps(r.reqPerSec),
      fmt.ms(r.p99),
      `${fmt.rps(plain.reqPerSec)} (p99 ${fmt.ms(plain.p99)})`,
      fmt.pct(ratio),
      fmt.mb(r.rssMb),
      tRatio ? formatTarget(tRatio) : '(sem meta)',
      tP99 ? formatTarget(tP99) : '',
    ]);
  }
  console.log('');
  console.log(`Resultados (${DEFAULT_CONNECTIONS} conexões, ${duration} s por medida, ${UNITS} unidades, ${new Date().toISOString()}):`);
  printTable(['medida', 'rota', 'req/s', 'p99', 'node:http puro (ao lado)', 'razão', 'RSS (pico)', 'meta de vazão', 'meta p99'], rows);

  const maxRss = Math.max(...measured.map((m) => m.app.rssMb ?? 0));
  const plainRss = Math.max(...measured.map((m) => m.plain.rssMb ?? 0));
  const tRss = atMost(maxRss, T.rssMb, ' MB', 0);
  targets.push(tRss);
  console.log('');
  console.log(`Memória do app sob carga (RSS, pico): ${fmt.mb(maxRss)} (em repouso: ${fmt.mb(idleRss)}; node:http puro: ${fmt.mb(plainRss)}) — ${formatTarget(tRss)}`);
  const missed = targets.filter((t) => !t.pass).length;
  console.log(missed ? `${missed} de ${targets.length} metas não atingidas: veja MISS acima.` : `Todas as ${targets.length} metas atingidas.`);

  for (const f of all.filter((r) => r.errors || r.timeouts || r.non2xx)) {
    console.error(`ERRO em ${f.label}: ${f.errors} erros, ${f.timeouts} timeouts, ${f.non2xx} respostas não-2xx`);
  }
  process.exitCode = hasFailures(all) ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});

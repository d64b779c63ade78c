// npm run bench (or `node --import tsx bench/run.ts` after `npm run build`).
// The public site on a chain-sized catalog (300 units, 3,000 plans) against a bare node:http
// server that replays the app's exact bytes for each route (status, headers, body, fetched
// once from the app), 50 connections each, same run, same machine. Prints req/s, p99, the
// ratio to the same-bytes server per route, RSS, and PASS/MISS per target. Exit code 1 only
// on errors or unexpected answers: a missed target is reported, not failed.
//
// Both servers stay up and each app route is measured right after the replay server on the
// same path: the ratio uses that neighbouring run, so background load skews both alike.
// BENCH_ROUNDS (default 3) repeats every pair; the median ratio and median p99 are reported,
// so one burst of load from another process does not decide a route's figure.
//
// Every request carries a phone's Chromium `accept-encoding` (BROWSER_HEADERS): that is what
// visitors get — the 160 KB home page goes out as ~7.5 KB of brotli — and the replay server
// then replays those compressed bytes. Measured without it, the big pages' p99 was a measure
// of the loopback carrying 160 KB per answer (the bare server missed 10 ms too), not of the
// app, and it hid the cost of compressing on every request (docs/decisions/160).
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
  startReplayServer,
  type CapturedResponse,
  type ChildServer,
  type LoadResult,
  type Target,
} from './lib';

const UNITS = Number(process.env.BENCH_UNITS ?? 300);
const PLANS = Number(process.env.BENCH_PLANS ?? 3000);
const COMMON_WORD = 'movimento'; // in every unit's name: every unit matches, top 20 returned
const RARE_WORD = 'pituba'; // one neighbourhood of Salvador: a handful of matches
const ROUNDS = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 3)) || 1);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** every public GET ≥ 75 % of the same-bytes server, p99 ≤ 10 ms, RSS after load ≤ 128 MB */
export const CATALOG_TARGETS = { ratio: 0.75, p99Ms: 10, rssMb: 128 };

interface Route {
  label: string;
  path: string;
  /** false: a reference row, measured without a target */
  target: boolean;
  /** routes other branches add: a 404 skips them with a note */
  optional?: boolean;
  check: (body: string) => boolean;
}

function headerBytes(c: CapturedResponse): number {
  let n = 0;
  for (let i = 0; i < c.rawHeaders.length; i += 2) n += c.rawHeaders[i]!.length + c.rawHeaders[i + 1]!.length + 4;
  return n;
}

async function main() {
  // 5 s per measure by default here: three rounds of every pair keep the whole run to a few minutes.
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
      check: (b) => json(b).length === 20,
    },
    {
      label: 'busca (palavra rara)',
      path: `/search_ajax.php?q=${RARE_WORD}`,
      target: true,
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
      check: (b) => b.includes('Grade de aulas') && b.includes('ExerciseGym'),
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
  const measured: { route: Route; captured: CapturedResponse; app: LoadResult[]; replay: LoadResult[] }[] = [];
  const skipped: string[] = [];
  let replay: ChildServer | null = null;
  let app: ChildServer | null = null;
  let idleRss: number | null = null;
  let afterRss: number | null = null;
  try {
    app = await startAppServer(db.databaseUrl, { MALLOC_ARENA_MAX: '2' }); // as npm start runs it
    idleRss = app.rssMb();
    // One capture per route, before any load: the replay server answers with these bytes.
    const captured: { route: Route; c: CapturedResponse }[] = [];
    for (const route of routes) {
      const c = await captureResponse(app.url, route.path);
      if (route.optional && c.status === 404) {
        skipped.push(`${route.label} (${route.path}): 404 neste ramo, não medida`);
        continue;
      }
      if (c.status !== 200 || !route.check(decodedBody(c).toString('utf8'))) {
        throw new Error(`${route.label}: resposta inesperada (${c.status}) em ${route.path}`);
      }
      captured.push({ route, c });
    }
    replay = await startReplayServer(captured.map((x) => x.c));
    console.log(
      `Cada rota: servidor node:http com os mesmos bytes, depois o app; ${DEFAULT_CONNECTIONS} conexões, ${duration} ` +
        `s cada, ${ROUNDS} rodada(s)…`,
    );
    for (const { route, c } of captured) measured.push({ route, captured: c, app: [], replay: [] });
    for (let round = 0; round < ROUNDS; round++) {
      for (const m of measured) {
        const same = await runLoad(replay, `${m.route.label} (mesmos bytes)`, m.route.path, { duration });
        const r = await runLoad(app, m.route.label, m.route.path, { duration });
        all.push(same, r);
        m.replay.push(same);
        m.app.push(r);
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    afterRss = app.rssMb();
  } finally {
    await app?.stop();
    await replay?.stop();
    db.cleanup();
  }

  const T = CATALOG_TARGETS;
  const rows: string[][] = [];
  const targets: Target[] = [];
  for (const { route, captured: c, app: runs, replay: sameRuns } of measured) {
    const ratios = runs.map((r, i) => r.reqPerSec / sameRuns[i]!.reqPerSec);
    const ratio = median(ratios);
    const r = {
      label: runs[0]!.label,
      path: runs[0]!.path,
      reqPerSec: median(runs.map((x) => x.reqPerSec)),
      p99: median(runs.map((x) => x.p99)),
    };
    const same = { reqPerSec: median(sameRuns.map((x) => x.reqPerSec)), p99: median(sameRuns.map((x) => x.p99)) };
    const cpu = (xs: LoadResult[]) =>
      xs.every((x) => x.cpuUsPerReq !== null) ? median(xs.map((x) => x.cpuUsPerReq!)) : null;
    const [appCpu, sameCpu] = [cpu(runs), cpu(sameRuns)];
    const tRatio = route.target ? atLeast(ratio * 100, T.ratio * 100, '%', 0) : undefined;
    const tP99 = route.target ? atMost(r.p99, T.p99Ms, ' ms', 0) : undefined;
    if (tRatio && tP99) targets.push(tRatio, tP99);
    rows.push([
      r.label,
      r.path,
      `${contentEncoding(c) ?? ''} ${fmt.bytes(headerBytes(c))} + ${fmt.bytes(c.body.length)}`.trim(),
      fmt.rps(r.reqPerSec),
      fmt.ms(r.p99),
      `${fmt.rps(same.reqPerSec)} (p99 ${fmt.ms(same.p99)})`,
      ROUNDS > 1 ? `${ratio.toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(' ')})` : ratio.toFixed(2),
      appCpu !== null && sameCpu !== null
        ? `${appCpu.toFixed(0)} / ${sameCpu.toFixed(0)} (${(sameCpu / appCpu).toFixed(2)})`
        : '—',
      tRatio ? formatTarget(tRatio) : '(sem meta)',
      tP99 ? formatTarget(tP99) : '',
    ]);
  }
  console.log('');
  console.log(
    `Resultados (${DEFAULT_CONNECTIONS} conexões, ${duration} s por medida, ${UNITS} unidades, ${PLANS} planos, ` +
      `${new Date().toISOString()}):`,
  );
  printTable(
    [
      'medida',
      'rota',
      'bytes (codificação, cab. + corpo)',
      'app req/s',
      'app p99',
      'mesmos bytes req/s',
      'razão (mediana; rodadas)',
      'CPU µs/req app / mesmos bytes (razão)',
      'meta de vazão',
      'meta p99',
    ],
    rows,
  );
  if (ROUNDS > 1)
    console.log(
      `req/s e p99: medianas de ${ROUNDS} rodadas; razão: mediana das razões de cada par de medidas vizinhas.`,
    );
  console.log(
    'CPU µs/req: tempo de CPU (usuário + sistema) do processo servidor por resposta, mediana das rodadas; a razão é ' +
      'mesmos bytes ÷ app (1,00 = o mesmo custo). Não depende da parte dos núcleos que o gerador de carga toma.',
  );
  for (const s of skipped) console.log(`Pulada: ${s}`);

  const peakRss = Math.max(...measured.flatMap((m) => m.app.map((r) => r.rssMb ?? 0)));
  const replayRss = Math.max(...measured.flatMap((m) => m.replay.map((r) => r.rssMb ?? 0)));
  const tRss = atMost(afterRss ?? peakRss, T.rssMb, ' MB', 0);
  targets.push(tRss);
  console.log('');
  console.log(
    `Memória do app (RSS): depois da carga ${fmt.mb(afterRss)} — ${formatTarget(tRss)}; pico sob carga ` +
      `${fmt.mb(peakRss)}; ` +
      `em repouso ${fmt.mb(idleRss)}; servidor de mesmos bytes ${fmt.mb(replayRss)}`,
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

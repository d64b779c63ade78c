// Login storm: `node --import tsx bench/login-storm.ts` after `npm run build` (also part
// of `npm run bench`). The real production build on SQLite. Waves of 200 concurrent
// logins (each from its own client address, each for an e-mail without an account, so
// neither the account nor the address lockout stops them before the password hash) hit
// the login form, while GET /healthz and a static file (/css/site.css) are timed from the
// side. Target: p95 of those GETs ≤ 200 ms during the storm (password hashing
// must never starve the server). Also printed: how many logins were checked (401) and
// how many were refused at once because the hash queue was full (429).
import { pathToFileURL } from 'node:url';
import {
  atMost,
  benchDuration,
  fetchFormToken,
  fmt,
  formatTarget,
  prepareDatabase,
  printTable,
  startAppServer,
} from './lib';

export const STORM_CONCURRENCY = 200;
export const STORM_P95_TARGET_MS = 200;

function percentile(values: number[], p: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** Times sequential GETs of `url` (two loops in parallel) until `until()` is false. */
async function probe(url: string, until: () => boolean): Promise<number[]> {
  const times: number[] = [];
  const loop = async () => {
    while (until()) {
      const start = performance.now();
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} respondeu ${res.status}`);
      times.push(performance.now() - start);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  await Promise.all([loop(), loop()]);
  return times;
}

export interface LoginStormResult {
  healthP95: number;
  staticP95: number;
  idleHealthP95: number;
  idleStaticP95: number;
  checked: number;
  busy: number;
  other: number;
  pass: boolean;
}

export async function runLoginStormBench(options: { duration?: number } = {}): Promise<LoginStormResult> {
  const duration = options.duration ?? benchDuration();
  console.log('Tempestade de logins: preparando o banco (SQLite)…');
  const db = await prepareDatabase(async () => null);
  const app = await startAppServer(db.databaseUrl, { TRUST_PROXY: 'true' });
  try {
    const login = `${app.url}/pages/Franquia/admin.php`;
    const { token, cookie } = await fetchFormToken(login, 'csrf_token');

    // Idle figures first, for comparison.
    let idleEnd = Date.now() + 2000;
    const [idleHealth, idleStatic] = await Promise.all([
      probe(`${app.url}/healthz`, () => Date.now() < idleEnd),
      probe(`${app.url}/css/site.css`, () => Date.now() < idleEnd),
    ]);
    idleEnd = 0;

    let n = 0;
    const counts = { checked: 0, busy: 0, other: 0 };
    const attempt = async () => {
      n++;
      const res = await fetch(login, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
          'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
        body: new URLSearchParams({
          csrf_token: token,
          acao: 'entrar',
          email: `tempestade${n}@example.com`,
          senha: 'senha-errada-de-teste',
        }).toString(),
      });
      await res.arrayBuffer();
      if (res.status === 401) counts.checked++;
      else if (res.status === 429) counts.busy++;
      else counts.other++;
    };

    console.log(
      `Tempestade de logins: ondas de ${STORM_CONCURRENCY} logins simultâneos por ${duration} s, medindo GET ` +
        `/healthz e /css/site.css…`,
    );
    const end = Date.now() + duration * 1000;
    let storming = true;
    const storm = (async () => {
      while (Date.now() < end) await Promise.all(Array.from({ length: STORM_CONCURRENCY }, attempt));
      storming = false;
    })();
    const [health, stat] = await Promise.all([
      probe(`${app.url}/healthz`, () => storming),
      probe(`${app.url}/css/site.css`, () => storming),
    ]);
    await storm;

    const result = {
      healthP95: percentile(health, 95),
      staticP95: percentile(stat, 95),
      idleHealthP95: percentile(idleHealth, 95),
      idleStaticP95: percentile(idleStatic, 95),
      ...counts,
    };
    const healthTarget = atMost(result.healthP95, STORM_P95_TARGET_MS, ' ms');
    const staticTarget = atMost(result.staticP95, STORM_P95_TARGET_MS, ' ms');
    printTable(
      ['medida', 'ocioso p95', 'na tempestade p95', 'meta'],
      [
        ['GET /healthz', fmt.ms(result.idleHealthP95), fmt.ms(result.healthP95), formatTarget(healthTarget)],
        ['GET /css/site.css', fmt.ms(result.idleStaticP95), fmt.ms(result.staticP95), formatTarget(staticTarget)],
      ],
    );
    printTable(
      ['logins', 'quantidade'],
      [
        ['verificados (hash calculado, 401)', String(result.checked)],
        ['recusados com fila cheia (429)', String(result.busy)],
        ['outros status', String(result.other)],
      ],
    );
    return { ...result, pass: healthTarget.pass && staticTarget.pass && result.other === 0 };
  } finally {
    await app.stop();
    db.cleanup();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  runLoginStormBench()
    .then((r) => {
      console.log(`Tempestade de logins: ${r.pass ? 'PASS' : 'MISS'}`);
      process.exitCode = r.other ? 1 : 0;
    })
    .catch((err) => {
      console.error(err);
      process.exitCode = 1;
    });
}

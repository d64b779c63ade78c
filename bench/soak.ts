// npm run bench:soak: a Monday morning at chain scale (bench/README.md). Set-up A: three
// instances of the built server on PostgreSQL behind nginx, the chain's volume, public pages,
// forms and fifty staff members for 30 minutes, with PostgreSQL restarted, an instance killed
// with -9, the SMTP server and the webhook receiver down for 5 minutes each. Set-up B: SQLite,
// one instance, 20 staff, 10 minutes, one kill -9. Prints the targets, writes
// bench/out/soak-<seed>.html; exit code 1 when a target is missed.
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { htmlReport, textReport, verdicts } from './soak/report';
import { runSoak, type SoakPlan, type SoakResult } from './soak/run';

const USAGE = `Uso: npm run bench:soak -- [opções]
  --setup a,b      a: PostgreSQL, 3 instâncias; b: SQLite, 1 instância (padrão a,b)
  --minutes N      duração da carga (padrão 30 para a, 10 para b)
  --seed N         semente da carga e do volume (padrão: sorteada e impressa)
  --escala X       escala do seed:volume (padrão 1: 300 unidades, 3 anos)
  --screenshot     grava bench/soak.png a partir do relatório (Chromium em /usr/bin/chromium)
  --note TEXTO     uma linha no topo do relatório (ex.: "máquina compartilhada")
  --instance-env I:NOME=VALOR  um ajuste de uma instância só (a: 0, b: 1, c: 2), para comparar
                   dois valores na mesma carga, ex.: --instance-env 2:DB_READ_POOL_MAX=3`;

const { values } = parseArgs({
  options: {
    setup: { type: 'string', default: 'a,b' },
    minutes: { type: 'string' },
    seed: { type: 'string' },
    escala: { type: 'string', default: '1' },
    screenshot: { type: 'boolean', default: false },
    note: { type: 'string', multiple: true, default: [] },
    'instance-env': { type: 'string', multiple: true, default: [] },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const seed = values.seed ? Number(values.seed) : Math.floor(Math.random() * 1_000_000);
const escala = Number(values.escala);
if (!Number.isInteger(seed) || seed < 0 || !(escala > 0 && escala <= 1)) {
  console.error(USAGE);
  process.exit(1);
}
console.log(`semente ${seed} (repita com --seed ${seed}), escala ${escala}`);

/** The faults at fixed fractions of the run; outages of 5 minutes (a sixth of shorter runs). */
const instanceEnv: Record<string, string>[] = [];
for (const spec of values['instance-env'] ?? []) {
  const m = /^(\d):([A-Z_]+)=(.*)$/.exec(spec);
  if (!m) throw new Error(`--instance-env: use I:NOME=VALOR (recebido ${spec})`);
  instanceEnv[Number(m[1])] = { ...instanceEnv[Number(m[1])], [m[2]!]: m[3]! };
}

function planFor(setup: 'a' | 'b', minutes: number): SoakPlan {
  const s = minutes * 60;
  const outage = Math.min(300, s / 6);
  const log = (line: string) => console.log(`[${setup}] ${line}`);
  const rates = {
    publicPerSec: 150,
    formsPerSec: 5,
    managerEverySec: 20,
    adminEverySec: 60,
    exportEverySec: 300,
    photoEvery: 10,
  };
  if (setup === 'a')
    return {
      seconds: s,
      seed,
      stack: { engine: 'postgres', instances: 3, escala, unidades: 300, managers: 45, admins: 5, instanceEnv },
      rates,
      faults: {
        postgresRestartAt: 0.1 * s,
        postgresDownMs: 5_000,
        killAt: 0.2 * s,
        smtpDown: [0.35 * s, 0.35 * s + outage],
        webhookDown: [0.55 * s, 0.55 * s + outage],
      },
      rssFrom: s / 3,
      drainSeconds: 420,
      log,
    };
  return {
    seconds: s,
    seed,
    stack: { engine: 'sqlite', instances: 1, escala, unidades: 300, managers: 18, admins: 2 },
    rates,
    faults: { killAt: 0.25 * s },
    rssFrom: s / 3,
    drainSeconds: 420,
    log,
  };
}

const results: SoakResult[] = [];
for (const setup of (values.setup ?? 'a,b').split(',').map((x) => x.trim())) {
  if (setup !== 'a' && setup !== 'b') throw new Error(`--setup: a ou b (recebido ${setup})`);
  const minutes = values.minutes ? Number(values.minutes) : setup === 'a' ? 30 : 10;
  const r = await runSoak(planFor(setup, minutes));
  console.log(`\n${textReport(r)}\n`);
  results.push(r);
}
const notes = [
  ...(values.note ?? []),
  ...(escala < 1 ? [`Volume reduzido: seed:volume --escala ${escala} (o volume completo é a escala 1).`] : []),
];
mkdirSync('bench/out', { recursive: true });
const file = path.join('bench/out', `soak-${seed}.html`);
writeFileSync(file, htmlReport(results, notes));
console.log(`relatório: ${file}`);

if (values.screenshot) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium' });
  try {
    const page = await browser.newPage({ viewport: { width: 960, height: 1300 } });
    await page.goto(`file://${path.resolve(file)}`);
    const png = await page.screenshot({ clip: { x: 0, y: 0, width: 960, height: 1300 } });
    // A palette keeps the charts sharp and the file small enough for the README.
    const sharp = (await import('sharp')).default;
    writeFileSync(
      'bench/soak.png',
      await sharp(png).png({ palette: true, colours: 64, compressionLevel: 9 }).toBuffer(),
    );
    console.log(`bench/soak.png: ${Math.round(statSync('bench/soak.png').size / 1024)} KB`);
  } finally {
    await browser.close();
  }
}
process.exitCode = results.some((r) => verdicts(r).some((v) => !v.pass)) ? 1 : 0;

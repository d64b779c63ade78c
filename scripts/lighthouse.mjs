// Lighthouse (mobile, default throttling) on the home page and a unit page with photos,
// against a running server: `node scripts/lighthouse.mjs [base URL]` (docs/decisions/150).
// Lighthouse is NOT a dependency of the project: the script runs the pinned version through
// npx (kept in npm's cache, outside the project), or the binary named by LIGHTHOUSE_BIN
// (e.g. after `npm install --prefix /tmp/lh lighthouse@12.8.2`). It never downloads a
// browser: it drives Debian's Chromium (CHROME_PATH, default /usr/bin/chromium).
// Prints the scores per page and category and the audits that cost points; exits 1 when a
// score is under 95. LIGHTHOUSE_RUNS=3 keeps the median performance score of three runs.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const VERSION = '12.8.2';
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const TARGET = 95;
// Without the background-networking flags Chromium waits on services a closed network never answers.
const CHROME_FLAGS =
  '--headless=new --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking ' +
  '--disable-component-update --disable-sync';

const base = (process.argv[2] ?? process.env.PUBLIC_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 1));
const chrome = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const command = process.env.LIGHTHOUSE_BIN ? [process.env.LIGHTHOUSE_BIN] : ['npx', '--yes', `lighthouse@${VERSION}`];

/** The first unit page linked from the home page that shows photos (the heavier page). */
async function unitPageWithPhotos() {
  const home = await (await fetch(`${base}/`)).text();
  const ids = [...new Set([...home.matchAll(/\/Detalhes\.php\?id=(\d+)/g)].map((m) => m[1]))];
  for (const id of ids) {
    const html = await (await fetch(`${base}/Detalhes.php?id=${id}`)).text();
    if (html.includes('/fotos/unidades/')) return `/Detalhes.php?id=${id}`;
  }
  throw new Error('nenhuma página de unidade com fotos encontrada (o seed de demonstração terminou?)');
}

function lighthouse(url, out) {
  const args = [
    ...command.slice(1),
    url,
    '--quiet',
    '--output=json',
    `--output-path=${out}`,
    `--only-categories=${CATEGORIES.join(',')}`,
    `--chrome-flags=${CHROME_FLAGS}`,
  ];
  const res = spawnSync(command[0], args, {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, CHROME_PATH: chrome },
  });
  if (res.status !== 0) throw new Error(`lighthouse terminou com ${res.status ?? res.signal} em ${url}`);
  return JSON.parse(readFileSync(out, 'utf8'));
}

const tmp = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-'));
let failed = false;
try {
  const pages = ['/', await unitPageWithPhotos()];
  console.log(`Lighthouse ${VERSION}, mobile, ${base}, ${new Date().toISOString().slice(0, 10)}`);
  for (const page of pages) {
    const reports = [];
    for (let i = 0; i < runs; i++) reports.push(lighthouse(`${base}${page}`, path.join(tmp, `r${i}.json`)));
    // median by performance (the only score that varies between runs)
    reports.sort((a, b) => a.categories.performance.score - b.categories.performance.score);
    const report = reports[Math.floor(reports.length / 2)];
    const scores = CATEGORIES.map((c) => Math.round(report.categories[c].score * 100));
    console.log(`${page.padEnd(22)} ${CATEGORIES.map((c, i) => `${c} ${scores[i]}`).join('  ')}`);
    const lcp = report.audits['largest-contentful-paint']?.displayValue;
    const tbt = report.audits['total-blocking-time']?.displayValue;
    const cls = report.audits['cumulative-layout-shift']?.displayValue;
    console.log(
      `${''.padEnd(22)} LCP ${lcp}, TBT ${tbt}, CLS ${cls}, transferred ` +
        `${Math.round((report.audits['total-byte-weight']?.numericValue ?? 0) / 1024)} KB`,
    );
    for (const [i, c] of CATEGORIES.entries()) {
      if (scores[i] >= 100) continue;
      if (scores[i] < TARGET) failed = true;
      for (const ref of report.categories[c].auditRefs) {
        const audit = report.audits[ref.id];
        if (ref.weight > 0 && audit.score !== null && audit.score < 0.9)
          console.log(`${''.padEnd(22)} - ${c}: ${audit.title}${audit.displayValue ? ` (${audit.displayValue})` : ''}`);
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
if (failed) {
  console.log(`Alguma nota ficou abaixo de ${TARGET}.`);
  process.exit(1);
}

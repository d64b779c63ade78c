// Franchise lead submission under load: `npx tsx bench/leads.ts` after `npm run build`
// (or through `npm run bench` when bench/run.ts calls runLeadsBench()).
// The real production build on SQLite; one CSRF token fetched once (valid for the cookie
// it came with), then valid POSTs to /pages/Franquia/index.php, each with its own
// envio_id as the rendered form has. Two measures (docs/decisions/140):
// - saturation: 50 connections as fast as the server answers. Target ≥ 1,000 stored leads
//   per second with zero errors. Its latency is queueing (50 / throughput), not a target.
// - a fixed offered rate (BENCH_FORM_RATE, default 300 POSTs per second, far above real
//   traffic on one instance): a POST's own latency, target p99 ≤ 10 ms.
// Afterwards every acknowledged lead (a 303 to obrigado.php) must be in the database.
//
// The form is rate limited per client address (10 per 10 minutes). A real burst comes
// from many prospects, so the server runs with TRUST_PROXY=true and each request carries
// its own X-Forwarded-For address: the limiter is exercised (one entry per address), not
// switched off.
import { createRequire } from 'node:module';
import { createDb } from '../src/db/index';
import {
  acknowledgedSplit,
  benchDuration,
  DEFAULT_CONNECTIONS,
  fetchFormToken,
  formRate,
  prepareDatabase,
  reportSubmissionBench,
  runAsMain,
  runAtRate,
  startAppServer,
  type SubmissionBenchResult,
} from './lib';

const require = createRequire(import.meta.url);
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; max: number };
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodeStats: Record<string, { count: number }>;
}
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export const LEADS_TARGET_PER_SEC = 1000;

export type LeadsBenchResult = SubmissionBenchResult;

const FIELDS = {
  nome_completo: 'Pessoa Interessada da Silva',
  whatsapp: '(11) 98765-4321',
  cidade_regiao: 'Campinas - SP',
  investimento_parceria: 'com_socios',
  faixa_investimento: '500mil_1milhao',
  prazo_proximo_passo: 'ate_3_meses',
  experiencia_negocio: 'empresario',
  motivo_interesse: 'oportunidade_regiao',
  aceita_contato: 'sim',
};

export async function runLeadsBench(
  options: { duration?: number; connections?: number } = {},
): Promise<LeadsBenchResult> {
  const duration = options.duration ?? benchDuration();
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  console.log('Leads de franquia: preparando o banco (vazio, SQLite)…');
  const db = await prepareDatabase(async () => null);
  const app = await startAppServer(db.databaseUrl, { TRUST_PROXY: 'true' });
  let result: LeadsBenchResult;
  try {
    const { token, cookie } = await fetchFormToken(`${app.url}/pages/Franquia/index.php`, 'csrf_token');

    let n = 0;
    const nextBody = () => {
      n++;
      // A distinct envio_id per POST, as each rendered form has (claimed in `envios`).
      return new URLSearchParams({
        csrf_token: token,
        ...FIELDS,
        email: `lead${n}@example.com`,
        envio_id: `carga-${String(n).padStart(10, '0')}`,
      }).toString();
    };
    // A distinct client address per request (10.0.0.1, 10.0.0.2, …).
    const nextAddress = () => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
    const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };

    const check = await fetch(`${app.url}/pages/Franquia/index.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...headers, 'x-forwarded-for': '192.0.2.1' },
      body: nextBody(),
    });
    if (check.status !== 303)
      throw new Error(`POST de verificação respondeu ${check.status}: ${(await check.text()).slice(0, 300)}`);

    const requests = [
      {
        method: 'POST',
        setupRequest: (req: Record<string, unknown>) => {
          const body = nextBody();
          return { ...req, method: 'POST', body, headers: { ...headers, 'x-forwarded-for': nextAddress() } };
        },
      },
    ];
    const url = `${app.url}/pages/Franquia/index.php`;
    // Saturation first: it is also the warm-up (JIT, statement cache) of the fixed-rate run.
    console.log(`Leads de franquia: POST index.php, saturação com ${connections} conexões, ${duration} s…`);
    const r = await autocannon({ url, connections, duration, requests });
    const rate = formRate();
    console.log(`Leads de franquia: POST index.php a ${rate} por segundo, ${duration} s…`);
    const fixed = await runAtRate({
      url,
      referenceUrl: `${app.url}/healthz`,
      rate,
      duration,
      next: () => ({ body: nextBody(), headers: { ...headers, 'x-forwarded-for': nextAddress() } }),
    });
    const { acknowledged, unexpected } = acknowledgedSplit(r.statusCodeStats);
    await app.stop();

    // Read the database after the server is gone: every acknowledged lead must be there.
    const handle = createDb({ engine: 'sqlite', filename: db.databaseUrl.slice('sqlite:'.length) });
    const count = async (table: 'franquia_leads' | 'franquia_leads_historico') =>
      Number(
        (
          await handle.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stored = (await count('franquia_leads')) - 1; // minus the check above
    const history = await count('franquia_leads_historico');
    await handle.destroy();

    result = reportSubmissionBench({
      labels: {
        acknowledged: 'leads confirmados (303)',
        stored: 'leads gravados no banco',
        perSecond: 'leads gravados por segundo',
        complete: 'todo lead confirmado está no banco',
      },
      duration,
      targetPerSec: LEADS_TARGET_PER_SEC,
      unit: ' leads/s',
      acknowledged: acknowledged + fixed.posts.acknowledged,
      saturated: acknowledged,
      stored,
      unexpected,
      load: r,
      rated: fixed.posts,
      reference: fixed.reference,
      integrity: {
        label: 'histórico inicial gravado / esperado',
        value: `${history} / ${stored + 1}`,
        ok: history === stored + 1,
      },
    });
  } finally {
    await app.stop();
    db.cleanup();
  }
  return result;
}

runAsMain(import.meta.url, 'Leads de franquia', () => runLeadsBench());

// Survey submission under load: `npx tsx bench/survey.ts` after `npm run build`
// (or through `npm run bench` when bench/run.ts calls runSurveyBench()).
// The real production build on SQLite; one CSRF token fetched once (it is valid for the
// cookie it came with), then valid survey POSTs, each with its own envio_id. Two measures
// (docs/decisions/140): saturation with 50 connections, target ≥ 1,000 stored responses
// per second with zero errors; and a fixed offered rate (BENCH_FORM_RATE, default 300 per
// second), target p99 ≤ 10 ms. Afterwards every acknowledged response (a 303 to
// obrigado.php) must be in the database.
import { createRequire } from 'node:module';
import { createDb } from '../src/db/index';
import { seedDemo } from '../src/db/seeds/demo';
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
  duration: number;
  statusCodeStats: Record<string, { count: number }>;
}
const autocannon = require('autocannon') as (opts: Record<string, unknown>) => Promise<AutocannonResult>;

export const SURVEY_TARGET_PER_SEC = 1000;

export type SurveyBenchResult = SubmissionBenchResult;

export async function runSurveyBench(
  options: { duration?: number; connections?: number } = {},
): Promise<SurveyBenchResult> {
  const duration = options.duration ?? benchDuration();
  const connections = options.connections ?? DEFAULT_CONNECTIONS;
  console.log('Pesquisa: preparando o banco (conteúdo de demonstração, SQLite)…');
  const db = await prepareDatabase(async (d) => {
    await seedDemo(d);
    const unit = await d
      .selectFrom('unidades')
      .select('id')
      .where('ativo', '=', 1)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    const questions = await d
      .selectFrom('perguntas')
      .select(['id', 'tipo', 'obrigatoria'])
      .where('ativo', '=', 1)
      .orderBy('ordem')
      .execute();
    const options = await d
      .selectFrom('perguntas_opcoes')
      .select(['id', 'pergunta_id'])
      .where('ativo', '=', 1)
      .orderBy('ordem')
      .execute();
    return { unitId: unit.id, questions, options };
  });
  const { unitId, questions, options: opts } = db.seeded;
  const app = await startAppServer(db.databaseUrl);
  let result: SurveyBenchResult;
  try {
    // One form render: its token and its CSRF cookie serve every request of the run.
    const { token, cookie } = await fetchFormToken(
      `${app.url}/NPS/nps_app_php/index.php?unidade_id=${unitId}`,
      '_token',
    );

    const fields = new URLSearchParams({ _token: token, unidade_id: String(unitId) });
    for (const q of questions) {
      if (q.tipo === 'texto') fields.append(`texto_ok[${q.id}]`, '1');
      else {
        const choices = opts.filter((o) => o.pergunta_id === q.id);
        fields.append(`respostas[${q.id}]`, String(choices[Math.min(9, choices.length - 1)]!.id));
      }
    }
    fields.append('comentario', 'Resposta do teste de carga');
    // autocannon swaps [<id>] for a unique, URL-safe, fixed-length id on every request.
    const body = `${fields.toString()}&envio_id=[<id>]`;

    const check = await fetch(`${app.url}/NPS/nps_app_php/salvar_resposta.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body: body.replace('[<id>]', 'verificacao-inicial-0001'),
    });
    if (check.status !== 303)
      throw new Error(`POST de verificação respondeu ${check.status}: ${(await check.text()).slice(0, 300)}`);

    const load = {
      url: `${app.url}/NPS/nps_app_php/salvar_resposta.php`,
      method: 'POST',
      duration,
      idReplacement: true,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      body,
    };
    // Saturation first: it is also the warm-up of the fixed-rate run.
    console.log(`Pesquisa: POST salvar_resposta.php, saturação com ${connections} conexões, ${duration} s…`);
    const r = await autocannon({ ...load, connections });
    const rate = formRate();
    console.log(`Pesquisa: POST salvar_resposta.php a ${rate} por segundo, ${duration} s…`);
    let n = 0;
    const fixed = await runAtRate({
      url: load.url,
      referenceUrl: `${app.url}/healthz`,
      rate,
      duration,
      next: () => ({
        body: body.replace('[<id>]', `ritmo-fixo-${String(++n).padStart(10, '0')}`),
        headers: load.headers,
      }),
    });
    const { acknowledged, unexpected } = acknowledgedSplit(r.statusCodeStats);
    await app.stop();

    // Read the database after the server is gone: every acknowledged response must be there.
    const handle = createDb({ engine: 'sqlite', filename: db.databaseUrl.slice('sqlite:'.length) });
    const count = async (table: 'respostas_nps' | 'respostas_itens') =>
      Number(
        (
          await handle.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const stored = (await count('respostas_nps')) - 1; // minus the check above
    const items = await count('respostas_itens');
    const orphanHeaders = Number(
      (
        await handle.db
          .selectFrom('respostas_nps as r')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where((eb) =>
            eb.not(
              eb.exists(eb.selectFrom('respostas_itens as i').select('i.id').whereRef('i.resposta_id', '=', 'r.id')),
            ),
          )
          .executeTakeFirstOrThrow()
      ).n,
    );
    await handle.destroy();

    const expectedItems = (stored + 1) * questions.length;
    result = reportSubmissionBench({
      labels: {
        acknowledged: 'respostas confirmadas (303)',
        stored: 'respostas gravadas no banco',
        perSecond: 'respostas gravadas por segundo',
        complete: 'toda resposta confirmada está no banco',
      },
      duration,
      targetPerSec: SURVEY_TARGET_PER_SEC,
      unit: ' respostas/s',
      acknowledged: acknowledged + fixed.posts.acknowledged,
      saturated: acknowledged,
      stored,
      unexpected,
      load: r,
      rated: fixed.posts,
      reference: fixed.reference,
      integrity: {
        label: 'itens gravados / esperados',
        value: `${items} / ${expectedItems}`,
        ok: orphanHeaders === 0 && items === expectedItems,
      },
    });
  } finally {
    await app.stop();
    db.cleanup();
  }
  return result;
}

runAsMain(import.meta.url, 'Pesquisa', () => runSurveyBench());

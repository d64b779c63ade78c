// The survey's derived figures always equal a recount from the answers: after random writes
// (the form over HTTP and the writer's repository with past dates), edits (marking handled)
// and deletions, for random periods and units; and aggregates:rebuild gives the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { periodParts } from '../../src/features/feedback/survey/aggregates.repository';
import { createSurveyReportService } from '../../src/features/feedback/survey/report.service';
import { createSurveyRepository, type NewSurveyResponse } from '../../src/features/feedback/survey/survey.repository';
import { addDays, saoPauloDay, saoPauloDayStartIso } from '../../src/lib/time';
import { createAggregatesRepository } from '../../src/features/feedback/survey/aggregates.repository';
import { resolvePeriod } from '../../src/features/feedback/survey/nps';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser } from '../helpers/staff';

let t: TestContext;
let units: number[];
let questions: { id: number; tipo: string; opcoes: number[] }[];

// A small deterministic PRNG, so a failure can be replayed.
let seed = 424242;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;

beforeAll(async () => {
  t = await createTestApp();
  units = (await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').execute()).map(
    (u) => u.id,
  );
  const qs = await t.db
    .selectFrom('perguntas')
    .select(['id', 'tipo'])
    .where('ativo', '=', 1)
    .orderBy('ordem')
    .execute();
  const opts = await t.db.selectFrom('perguntas_opcoes').select(['id', 'pergunta_id']).where('ativo', '=', 1).execute();
  questions = qs.map((q) => ({ ...q, opcoes: opts.filter((o) => o.pergunta_id === q.id).map((o) => o.id) }));
});
afterAll(async () => t?.close());

function randomResponse(): NewSurveyResponse {
  const today = saoPauloDay();
  const day = addDays(today, -Math.floor(rand() * 500));
  const at = new Date(new Date(saoPauloDayStartIso(day)).getTime() + Math.floor(rand() * 86_400_000));
  const nota = rand() < 0.1 ? null : Math.floor(rand() * 11);
  return {
    unidadeId: pick(units),
    nomeCliente: null,
    contatoCliente: null,
    comentario: rand() < 0.5 ? 'comentário' : null,
    notaNps: nota,
    envioId: null,
    origem: pick(['site', 'cartaz', 'quiosque']),
    criadoEm: at.toISOString(),
    itens: questions
      .filter(() => rand() < 0.9)
      .map((q) =>
        q.tipo === 'texto' || !q.opcoes.length
          ? { perguntaId: q.id, opcaoId: null, texto: 'ok', textoOk: true }
          : { perguntaId: q.id, opcaoId: pick(q.opcoes), texto: null, textoOk: false },
      ),
  };
}

async function postForm(unitId: number, score: number) {
  const { token, cookie, res } = await fetchForm(t.app, `/NPS/nps_app_php/index.php?unidade_id=${unitId}`, '_token');
  const envio = /name="envio_id" value="([^"]+)"/.exec(res.body)?.[1] ?? '';
  const fields: Record<string, string> = { _token: token, unidade_id: String(unitId), envio_id: envio };
  for (const q of questions) {
    if (q.tipo === 'texto') fields[`texto_ok[${q.id}]`] = '1';
    else if (q.tipo === 'escala') fields[`respostas[${q.id}]`] = String(q.opcoes[Math.min(score, q.opcoes.length - 1)]);
    else fields[`respostas[${q.id}]`] = String(pick(q.opcoes));
  }
  const r = await t.app.inject({
    method: 'POST',
    url: '/NPS/nps_app_php/salvar_resposta.php',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });
  expect(r.statusCode).toBe(303);
}

/** The report's figures against the raw recount, for a period and units. */
async function expectEqual(unitIds: number[] | null, de: string, ate: string) {
  const repo = createSurveyRepository(t.db);
  const period = resolvePeriod(de, ate);
  const f = { unitIds, fromIso: period.fromIso, toIso: period.toIso };
  const months = (await import('../../src/features/feedback/survey/nps')).monthsOf(period);
  const sortBy = <T>(xs: T[], k: (x: T) => string | number) => [...xs].sort((a, b) => (k(a) < k(b) ? -1 : 1));
  expect(sortBy(await repo.npsByUnit(f), (r) => r.unidadeId)).toEqual(
    sortBy(
      (await repo.recountNpsByUnit(f)).filter((r) => r.respostas > 0),
      (r) => r.unidadeId,
    ),
  );
  const monthly = (await repo.npsByMonth(f)).map(({ respostas: _r, ...m }) => m).filter((m) => m.total > 0);
  const recounted = (await repo.recountNpsByMonth(f, months)).filter((m) => m.total > 0);
  expect(sortBy(monthly, (m) => m.mes)).toEqual(sortBy(recounted, (m) => m.mes));
  const origins = (await repo.npsByOrigin(f)).map(({ respostas: _r, ...o }) => o).filter((o) => o.total > 0);
  expect(sortBy(origins, (o) => o.origem)).toEqual(
    sortBy(
      (await repo.recountNpsByOrigin(f)).filter((o) => o.total > 0),
      (o) => o.origem,
    ),
  );
  expect(sortBy(await repo.optionCounts(f), (o) => o.opcaoId)).toEqual(
    sortBy(await repo.recountOptionCounts(f), (o) => o.opcaoId),
  );
  for (const categoria of [undefined, 'promotores', 'neutros', 'detratores', 'pendentes'] as const) {
    expect(await repo.countResponses({ ...f, categoria })).toBe(await repo.recountCountResponses({ ...f, categoria }));
  }
}

describe('derived survey figures', () => {
  it('splits a period into whole months and day ranges inside one month, or a month minus the days left out', () => {
    const later = '2030-01-01';
    // January 5–31: the month minus its first 4 days; March 1–10: its 10 days (21 left out).
    expect(periodParts('2026-01-05', '2026-03-10', later)).toEqual({
      months: ['2026-01', '2026-02'],
      days: [['2026-03-01', '2026-03-10']],
      minus: [['2026-01-01', '2026-01-04']],
    });
    expect(periodParts('2026-02-01', '2026-02-28', later)).toEqual({ months: ['2026-02'], days: [], minus: [] });
    expect(periodParts('2026-02-03', '2026-02-03', later)).toEqual({
      months: [],
      days: [['2026-02-03', '2026-02-03']],
      minus: [],
    });
    expect(periodParts('2026-02-02', '2026-02-27', later)).toEqual({
      months: ['2026-02'],
      days: [],
      minus: [
        ['2026-02-01', '2026-02-01'],
        ['2026-02-28', '2026-02-28'],
      ],
    });
    // Up to today: the days after it hold no answers, so this month is its month row.
    expect(periodParts('2025-11-30', '2026-11-29', '2026-11-29')).toEqual({
      months: [
        ...['2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'],
        ...['2026-07', '2026-08', '2026-09', '2026-10', '2026-11'],
      ],
      days: [['2025-11-30', '2025-11-30']],
      minus: [],
    });
    expect(periodParts('2026-11-03', '2026-11-29', '2026-11-29')).toEqual({
      months: ['2026-11'],
      days: [],
      minus: [['2026-11-01', '2026-11-02']],
    });
  });

  it('equal a recount after random writes, edits and deletions', async () => {
    const repo = createSurveyRepository(t.db);
    const report = createSurveyReportService(repo);
    const staffId = (await createStaffUser(t.db)).id;
    for (let round = 0; round < 4; round++) {
      // Writes: batches through the writer's repository (past dates) and the public form.
      for (let b = 0; b < 5; b++) await repo.insertResponses(Array.from({ length: 20 }, randomResponse));
      for (let i = 0; i < 3; i++) await postForm(pick(units), Math.floor(rand() * 11));
      // Edits: detractors marked handled (the figures stay; the pending count changes).
      const pending = await repo.detractorsToHandle(null, '2000-01-01T00:00:00.000Z', 5);
      for (const p of pending) await report.markHandled(p.id, staffId);
      // Deletions: a random tenth of the answers.
      const ids = (await t.db.selectFrom('respostas_nps').select('id').execute()).map((r) => r.id);
      await repo.deleteResponses(ids.filter(() => rand() < 0.1));

      const today = saoPauloDay();
      await expectEqual(null, addDays(today, -89), today);
      await expectEqual(null, addDays(today, -364), today);
      await expectEqual([pick(units)], addDays(today, -499), today);
      const a = addDays(today, -Math.floor(rand() * 480));
      const b = addDays(a, Math.floor(rand() * 100));
      await expectEqual([pick(units), pick(units)], a, b);
      // Parts of months read as a month minus the days left out, and a single day.
      const month = addDays(today, -Math.floor(rand() * 400) - 40).slice(0, 7);
      await expectEqual(null, `${month}-02`, `${month}-27`);
      await expectEqual(null, addDays(today, -Math.floor(rand() * 60) - 1), today);
      await expectEqual([pick(units)], `${month}-0${1 + Math.floor(rand() * 9)}`, addDays(today, -3));
      await expectEqual(null, a, a);
    }
  });

  it('aggregates:rebuild gives the rows kept by the writes', async () => {
    const rows = async () => ({
      nps: await t.db
        .selectFrom('agregados_nps')
        .selectAll()
        .where('respostas', '<>', 0)
        .orderBy('periodo')
        .orderBy('unidade_id')
        .orderBy('origem')
        .execute(),
      opcoes: await t.db
        .selectFrom('agregados_opcoes')
        .selectAll()
        .where('n', '<>', 0)
        .orderBy('periodo')
        .orderBy('unidade_id')
        .orderBy('pergunta_id')
        .orderBy('opcao_id')
        .execute(),
    });
    const kept = await rows();
    expect(kept.nps.length).toBeGreaterThan(0);
    await createAggregatesRepository(t.db).rebuild();
    expect(await rows()).toEqual(kept);
  });
});

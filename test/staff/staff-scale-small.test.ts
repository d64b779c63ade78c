// The staff-scale benchmark in small (bench/staff-scale.ts), as a test of correctness, not of
// speed: a small volume from the generator, the figures recounted, every page and export of
// the benchmark answers 200, and the report's figures equal a recount from the answers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedVolume } from '../../src/db/seeds/volume';
import { createAggregatesRepository } from '../../src/features/feedback/survey/aggregates.repository';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import { createCtaRepository } from '../../src/features/cta/cta.repository';
import { resolvePeriod } from '../../src/features/feedback/survey/nps';
import { ANONYMOUS_PERSON } from '../../src/db/anonymised';
import { retentionCandidates } from '../../src/features/privacy/retention.repository';
import { cutoffMonths } from '../../src/lib/time';
import { createSurveyRepository } from '../../src/features/feedback/survey/survey.repository';
import { addDays, saoPauloDay } from '../../src/lib/time';
import { createTestApp, type TestContext } from '../helpers/app';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let cookie: string;
let unitId: number;

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  await seedVolume(t.testDb.config, {
    unidades: 6,
    anos: 1,
    escala: 0.05,
    semente: 7,
    retencao: { surveyContactMonths: 6, messagesMonths: 6, leadsMonths: 6, bookingsMonths: 12 },
  });
  await createAggregatesRepository(t.db).rebuild();
  await createCtaRepository(t.db).rebuildCounts();
  await createBookingRepository(t.db).rebuildWeekCounts();
  const admin = await createStaffUser(t.db, { papel: 'admin' });
  cookie = await loginAs(t.app, admin.email, admin.password);
  unitId = (await t.db.selectFrom('respostas_nps').select('unidade_id').limit(1).executeTakeFirstOrThrow()).unidade_id;
}, 120_000);
afterAll(async () => t?.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });

describe('staff pages on a small volume', () => {
  it('every page and export of the benchmark answers 200', async () => {
    const today = saoPauloDay();
    const year = `de=${addDays(today, -364)}&ate=${today}`;
    for (const url of [
      '/admin',
      '/admin/pesquisa',
      `/admin/pesquisa?${year}`,
      `/admin/pesquisa?unidade_id=${unitId}`,
      '/admin/mensagens',
      `/admin/mensagens?unidade_id=${unitId}`,
      '/admin/mensagens?status=resolvida',
      '/pages/Franquia/admin.php',
      '/pages/Franquia/admin.php?pagina=3',
      '/pages/Franquia/admin.php?q=Silva',
      '/admin/aulas-experimentais',
      '/admin/aulas-experimentais/funil',
      '/admin/cliques',
      '/admin/mensagens/exportar.csv',
      '/pages/Franquia/admin.php?export=csv',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
    }
    const csv = await get('/admin/pesquisa/exportar.csv?de=2000-01-01');
    expect(csv.statusCode).toBe(200);
    const answers = Number(
      (
        await t.db
          .selectFrom('respostas_nps')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    // one line per answer, after the header (comments may hold line breaks inside quotes)
    expect(csv.body.match(/\r\n\d+;\d\d\/\d\d\/\d{4} /g)?.length).toBe(answers);
  });

  it("the report's figures equal a recount from the answers", async () => {
    const repo = createSurveyRepository(t.db);
    const today = saoPauloDay();
    for (const [unitIds, de] of [
      [null, addDays(today, -89)],
      [null, addDays(today, -364)],
      [[unitId], addDays(today, -89)],
    ] as const) {
      const p = resolvePeriod(de, today);
      const f = { unitIds: unitIds ? [...unitIds] : null, fromIso: p.fromIso, toIso: p.toIso };
      const byId = <T extends { unidadeId: number }>(xs: T[]) => [...xs].sort((a, b) => a.unidadeId - b.unidadeId);
      expect(byId(await repo.npsByUnit(f))).toEqual(byId(await repo.recountNpsByUnit(f)));
      const byOpt = <T extends { opcaoId: number }>(xs: T[]) => [...xs].sort((a, b) => a.opcaoId - b.opcaoId);
      expect(byOpt(await repo.optionCounts(f))).toEqual(byOpt(await repo.recountOptionCounts(f)));
      expect(await repo.countResponses(f)).toBe(await repo.recountCountResponses(f));
    }
  });

  it("the funnel's first step converts below 100%, as a chain's would", async () => {
    const bookings = await t.db
      .selectFrom('aulas_experimentais')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const trialClicks = await t.db
      .selectFrom('cliques_cta')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('acao', '=', 'aula_experimental')
      .executeTakeFirstOrThrow();
    expect(Number(bookings.n)).toBeGreaterThan(0);
    expect(Number(trialClicks.n)).toBeGreaterThan(Number(bookings.n));
  });

  it('leaves what is past the retention periods as the retention job would: nothing left for it', async () => {
    // The generator's window ends at today's start; the job, run now, may find that last day.
    const cutoff = cutoffMonths(new Date(Date.now() - 2 * 86_400_000), 6).toISOString();
    const left = retentionCandidates(t.db);
    for (const q of [left.surveyContacts(cutoff), left.messages(cutoff), left.leads(cutoff)]) {
      expect(await q.execute()).toEqual([]);
    }
    const anonymisedLeads = await t.db
      .selectFrom('franquia_leads')
      .select('id')
      .where('nome_completo', '=', ANONYMOUS_PERSON)
      .execute();
    expect(anonymisedLeads.length).toBeGreaterThan(0);
    const recentContacts = await t.db
      .selectFrom('respostas_nps')
      .select('id')
      .where('contato_cliente', 'is not', null)
      .execute();
    expect(recentContacts.length).toBeGreaterThan(0);
  });
});

// The NPS dashboard: headline with pt-BR counts, units ranked, the 12-month SVG chart
// (server-rendered, with a table of the same figures), the period filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAggregatesRepository } from '../../src/features/feedback/survey/aggregates.repository';
import { saoPauloDay } from '../../src/features/feedback/survey/nps';
import { createTestApp, type TestContext } from '../helpers/app';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let admin: string;
let units: { id: number; nome: string }[];
const month = (offset: number) => {
  const [y, m] = saoPauloDay().split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + offset, 1, 4)); // the 1st, 01:00 in São Paulo: never in the future
  return { iso: d.toISOString(), label: d.toISOString().slice(0, 7) };
};

beforeAll(async () => {
  t = await createTestApp();
  units = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(3)
    .execute();
  const add = async (unidade_id: number, notes: number[], at: string) => {
    for (const nota_nps of notes)
      await t.db.insertInto('respostas_nps').values({ unidade_id, nota_nps, criado_em: at }).execute();
  };
  // This month: unit 0 → 10, 9, 8, 3: NPS 25; unit 1 → 10: NPS 100; unit 2 → 2, 9: NPS 0.
  await add(units[0]!.id, [10, 9, 8, 3], month(0).iso);
  await add(units[1]!.id, [10], month(0).iso);
  await add(units[2]!.id, [2, 9], month(0).iso);
  // Two months ago, unit 0: 0, 5, 10 → (1 − 2) / 3 = −33,3.
  await add(units[0]!.id, [0, 5, 10], month(-2).iso);
  // Rows written straight into the tables, as another tool would: the figures are recounted.
  await createAggregatesRepository(t.db).rebuild();
  const a = await createStaffUser(t.db, { papel: 'admin' });
  admin = await loginAs(t.app, a.email, a.password);
});
afterAll(async () => t?.close());

const page = (q = '') => t.app.inject({ url: `/admin/pesquisa${q}`, headers: { cookie: admin } });
const squash = (html: string) => html.replace(/<!-- -->/g, '');

describe('NPS at a glance', () => {
  it('shows the chain headline with correct pt-BR counts', async () => {
    const res = await page();
    expect(res.statusCode).toBe(200);
    const body = squash(res.body);
    // 10 notes: promoters 10, 9, 10, 9, 10 = 5; detractors 3, 2, 0, 5 = 4 → (5 − 4) / 10 = 10
    expect(body).toMatch(/data-nps-geral(="")?>10</);
    expect(body).toContain('10 notas: 5 promotores, 1 neutro, 4 detratores');
    expect(body).not.toMatch(/\b1 promotores\b/);
  });

  it('ranks the units by NPS, best first', async () => {
    const body = (await page()).body;
    const order = [...body.matchAll(/data-ranking="(\d+)"/g)].map((m) => Number(m[1]));
    // unit 1: 100; unit 0: (3 − 3) / 7 = 0 over the 90 days; unit 2: 0 → tie, more notes first
    expect(order).toEqual([units[1]!.id, units[0]!.id, units[2]!.id]);
    expect(squash(body)).toContain('1 nota');
  });

  it('draws the last 12 months as SVG with the hand-computed points and the same figures in a table', async () => {
    const body = squash((await page(`?unidade_id=${units[0]!.id}`)).body);
    expect(body).toContain('<svg');
    expect(body).not.toMatch(/style=/);
    expect(body).toMatch(new RegExp(`data-mes="${month(0).label}" data-nps="25"`));
    expect(body).toMatch(new RegExp(`data-mes="${month(-2).label}" data-nps="-33,3"`));
    expect([...body.matchAll(/data-mes="/g)]).toHaveLength(2); // months without notes have no point
    expect(body).toContain('NPS da unidade');
    expect(body).toContain('<table class="visually-hidden">');
  });

  it('the period filter narrows the headline', async () => {
    const [y, m] = saoPauloDay().split('-');
    const body = squash((await page(`?unidade_id=${units[0]!.id}&de=${y}-${m}-01&ate=${saoPauloDay()}`)).body);
    expect(body).toMatch(/data-nps-geral(="")?>25</);
    expect(body).toContain('4 notas: 2 promotores, 1 neutro, 1 detrator');
  });
});

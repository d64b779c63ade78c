// Clicks are counted per week, unit and action in the transaction that stores each one
// (agregados_cliques), which the clicks report and the trial-class funnel read: the counts
// always equal a recount of the stored clicks, and the rebuild gives the same rows.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCtaRepository } from '../../src/features/cta/cta.repository';
import { createTestApp, type TestContext } from '../helpers/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

const counted = () =>
  t.db
    .selectFrom('agregados_cliques')
    .select(['semana', 'unidade_id', 'acao', 'n'])
    .orderBy('semana')
    .orderBy('unidade_id')
    .orderBy('acao')
    .execute();

const recounted = async () =>
  (
    await t.db
      .selectFrom('cliques_cta')
      .select(['semana', 'unidade_id', 'acao', (eb) => eb.fn.countAll().as('n')])
      .where('unidade_id', 'is not', null)
      .groupBy(['semana', 'unidade_id', 'acao'])
      .orderBy('semana')
      .orderBy('unidade_id')
      .orderBy('acao')
      .execute()
  ).map((r) => ({ ...r, n: Number(r.n) }));

describe('counted clicks', () => {
  it('equal a recount of the stored clicks, over units, actions and weeks, and after a rebuild', async () => {
    const units = (await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').execute()).map(
      (u) => u.id,
    );
    const repo = createCtaRepository(t.db);
    // Past weeks straight through the repository, as the route stores them, and clicks over HTTP.
    const weeks = ['2026-01-05', '2026-01-12', '2026-06-01'];
    for (let i = 0; i < 30; i++) {
      await repo.record({
        unidade_id: units[i % 3]!,
        acao: i % 2 ? 'matricula' : 'aula_experimental',
        plano_id: null,
        semana: weeks[i % weeks.length]!,
        criado_em: `${weeks[i % weeks.length]}T12:00:00.000Z`,
      });
    }
    for (let i = 0; i < 4; i++) await t.app.inject(`/ir/aula_experimental?unidade=${units[i % 2]}`);
    const rows = await counted();
    expect(rows.reduce((n, r) => n + r.n, 0)).toBe(34);
    expect(rows).toEqual(await recounted());
    // The first unit's clicks fell in the first week, half of them on each action.
    expect(rows.filter((r) => r.semana === '2026-01-05' && r.unidade_id === units[0])).toEqual([
      { semana: '2026-01-05', unidade_id: units[0], acao: 'aula_experimental', n: 5 },
      { semana: '2026-01-05', unidade_id: units[0], acao: 'matricula', n: 5 },
    ]);

    // Clicks written by another tool are counted by the rebuild, which keeps the rows above.
    await t.db
      .insertInto('cliques_cta')
      .values({
        unidade_id: units[2]!,
        acao: 'beneficio',
        plano_id: null,
        semana: weeks[0]!,
        criado_em: '2026-01-05T13:00:00.000Z',
      })
      .execute();
    expect(await repo.rebuildCounts()).toBe(rows.length + 1);
    expect(await counted()).toEqual(await recounted());
  });

  it('the clicks report reads the counts: a click is on the report at once', async () => {
    const { createStaffUser, loginAs } = await import('../helpers/staff');
    const admin = await createStaffUser(t.db, { papel: 'admin' });
    const cookie = await loginAs(t.app, admin.email, admin.password);
    const before = await t.app.inject({ url: '/admin/cliques', headers: { cookie } });
    const total = (body: string) =>
      Number(/<strong>([\d.]+)<\/strong> cliques? no período/.exec(body)?.[1]?.replace('.', ''));
    const unit = (await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).executeTakeFirstOrThrow()).id;
    await t.app.inject(`/ir/aula_experimental?unidade=${unit}`);
    const after = await t.app.inject({ url: '/admin/cliques', headers: { cookie } });
    expect(total(after.body)).toBe(total(before.body) + 1);
  });
});

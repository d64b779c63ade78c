// Several instances behind a load balancer: the instance that makes a change shows it at
// once; another instance shows it as soon as its catalog snapshot expires (5 s TTL). The
// second instance's clock is faked so the test does not sleep.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import type { App } from '../../src/app';
import { CATALOG_TTL_MS } from '../../src/features/catalog/catalog.snapshot';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let other: App;
beforeAll(async () => {
  t = await createTestApp();
  vi.useFakeTimers({ toFake: ['Date'] });
  other = await secondInstance(t);
});
afterAll(async () => {
  vi.useRealTimers();
  await other?.close();
  await t?.close();
});

it('a renamed unit reaches the other instance within the catalog TTL', async () => {
  const unit = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  // the other instance has the old name in its snapshot
  expect((await other.inject(`/search_ajax.php?q=${encodeURIComponent(unit.nome)}`)).json()).toEqual(
    expect.arrayContaining([expect.objectContaining({ id: unit.id })]),
  );

  const admin = await createStaffUser(t.db, { papel: 'admin' });
  const cookie = await loginAs(t.app, admin.email, admin.password);
  const token = await staffToken(t.app, cookie, '/admin/conteudo');
  const page = await t.app.inject({ url: `/admin/conteudo/unidades/${unit.id}`, headers: { cookie } });
  const values = Object.fromEntries(
    [...page.body.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)].map((m) => [
      m[1]!,
      m[2]!.replace(/&amp;/g, '&'),
    ]),
  );
  const uf = /<option value="([A-Z]{2})" selected/.exec(page.body)![1]!;
  const res = await t.app.inject({
    method: 'POST',
    url: `/admin/conteudo/unidades/${unit.id}`,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ ...values, uf, csrf_token: token, nome: 'Movimento Renomeada Xyz' }),
  });
  expect(res.statusCode).toBe(303);

  // this instance: at once
  expect((await t.app.inject('/search_ajax.php?q=renomeada xyz')).json()).toEqual([
    expect.objectContaining({ id: unit.id, nome: 'Movimento Renomeada Xyz' }),
  ]);
  // the other instance: still the old snapshot, then the new name once the TTL has passed
  expect((await other.inject('/search_ajax.php?q=renomeada xyz')).json()).toEqual([]);
  vi.setSystemTime(Date.now() + CATALOG_TTL_MS + 1);
  expect((await other.inject('/search_ajax.php?q=renomeada xyz')).json()).toEqual([
    expect.objectContaining({ id: unit.id }),
  ]);
  expect((await other.inject(`/Detalhes.php?id=${unit.id}`)).body).toContain('Movimento Renomeada Xyz');
});

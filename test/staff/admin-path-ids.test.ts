// Path ids (`/admin/.../:id`) accept only the form kit's canonical id: Fastify's number
// coercion would otherwise read "1.0", "01", "+1" or "1e0" as 1 (docs/decisions/155).
// Query ids of the old interface (`/Detalhes.php?id=`) keep their documented 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let cookie: string;
let token: string;
let unitId: number;
let otherId: number;

const get = (url: string) => t.app.inject({ url, headers: { cookie } });
const BAD = (id: number) => [
  `${id}.0`,
  `0${id}`,
  `+${id}`,
  `${id}e0`,
  ` ${id}`,
  `${id}%20`,
  '0',
  '-1',
  'abc',
  '2147483648',
  '0x1',
];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createStaffUser(t.db, { papel: 'admin' });
  otherId = (await createStaffUser(t.db, { papel: 'admin', nome: 'Outra Pessoa' })).id;
  cookie = await loginAs(t.app, admin.email, admin.password);
  token = await staffToken(t.app, cookie, '/admin/conteudo');
  unitId = (
    await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  ).id;
});
afterAll(async () => t?.close());

describe('path ids', () => {
  it('serve the canonical id and answer 404 for any other spelling of it', async () => {
    for (const path of ['/admin/conteudo/unidades/', '/admin/contas/', '/admin/pesquisa/cartaz/']) {
      const id = path === '/admin/contas/' ? otherId : unitId;
      expect((await get(`${path}${id}`)).statusCode, `${path}${id}`).toBe(200);
      for (const bad of BAD(id)) {
        const res = await get(`${path}${bad}`);
        expect(res.statusCode, `${path}${bad}`).toBe(404);
        expect(res.body).toContain('Página não encontrada');
      }
    }
    // two ids in one path: each is checked
    expect((await get(`/admin/conteudo/unidades/${unitId}/aulas`)).statusCode).toBe(200);
    expect((await get(`/admin/conteudo/unidades/${unitId}.0/aulas`)).statusCode).toBe(404);
  });

  it('a POST to a non-canonical id changes nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/contas/${otherId}.0/ativo`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, ativo: '0' }),
    });
    expect(res.statusCode).toBe(404);
    expect(
      (await t.db.selectFrom('usuarios').select('ativo').where('id', '=', otherId).executeTakeFirstOrThrow()).ativo,
    ).toBe(1);
  });

  it(`query ids of the old interface keep their documented answer: 400 when malformed \
(docs/interface.md)`, async () => {
    expect((await t.app.inject(`/Detalhes.php?id=${unitId}`)).statusCode).toBe(200);
    for (const bad of [`${unitId}.0`, `0${unitId}`, `+${unitId}`, 'abc'])
      expect((await t.app.inject(`/Detalhes.php?id=${encodeURIComponent(bad)}`)).statusCode, bad).toBe(400);
  });
});

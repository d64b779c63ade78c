import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm } from '../helpers/http';

// Its own file: one test database per file (two in one process confuse Kysely's
// migrator on PostgreSQL, which looks for its tables in every schema).
const FORM = '/NPS/nps_app_php/fale_aqui.php';
const POST = '/NPS/nps_app_php/salvar_fale_aqui.php';

let t: TestContext;
beforeAll(async () => {
  // SMTP_HOST without NOTIFICATION_EMAIL: mail is not "configured" for free messages.
  t = await createTestApp({ env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', SMTP_SECURE: 'none' } });
});
afterAll(async () => t?.close());

it('stores the message and queues no notification when NOTIFICATION_EMAIL is not set', async () => {
  const { token, cookie } = await fetchForm(t.app, FORM, '_token');
  const fd = new FormData();
  for (const [k, v] of Object.entries({
    _token: token,
    nome_completo: 'Fabio',
    unidade_id: '',
    unidade: 'Centro',
    mensagem: 'Sem e-mail',
  }))
    fd.append(k, v);
  const body = new Response(fd);
  const res = await t.app.inject({
    method: 'POST',
    url: POST,
    headers: { cookie, 'content-type': body.headers.get('content-type')! },
    payload: Buffer.from(await body.arrayBuffer()),
  });
  expect(res.statusCode).toBe(303);
  expect(await t.db.selectFrom('fale_aqui').selectAll().execute()).toHaveLength(1);
  expect(await t.db.selectFrom('fila_emails').selectAll().execute()).toHaveLength(0);
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import type { Config } from '../../src/config';
import { enqueueMail } from '../../src/platform/mail/outbox.repository';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const URL = '/pages/Franquia/smtp_test.php';
const USER = 'mailer@example.com';
const PASS = 'Segredo-Muito-Forte-987';
// Every form the password could leak in.
const LEAKS = [
  PASS,
  Buffer.from(PASS).toString('base64'),
  Buffer.from(`\u0000${USER}\u0000${PASS}`).toString('base64'),
  'Segredo',
  'Forte-987',
];

let smtp: TestSmtp;
let t: TestContext;
let cookie: string;
let email: string;
let password: string;

beforeAll(async () => {
  smtp = await startSmtp({ user: USER, pass: PASS });
  t = await createTestApp({ seed: false, env: { ...smtp.env, MAIL_FROM: 'Academia <site@example.com>' } });
  const u = await createStaffUser(t.db);
  email = u.email;
  password = u.password;
  cookie = await loginAs(t.app, u.email, u.password);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function act(fields: Record<string, string>, app: App = t.app, c = cookie, headers: Record<string, string> = {}) {
  const token = await staffToken(app, c, URL);
  return app.inject({
    method: 'POST',
    url: URL,
    headers: { ...headers, cookie: c, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, ...fields }),
  });
}

function expectNoPassword(body: string) {
  for (const leak of LEAKS) expect(body, `leaks ${leak}`).not.toContain(leak);
}

/** A second app on the same database with different SMTP settings; logged in as the same admin. */
async function withSmtp(change: Partial<NonNullable<Config['smtp']>>, fn: (app: App, cookie: string) => Promise<void>) {
  const app = await buildApp(
    { ...t.config, smtp: { ...t.config.smtp!, ...change } },
    { db: t.testDb.handle, logger: false },
  );
  await app.ready();
  try {
    await fn(app, await loginAs(app, email, password, { remoteAddress: '10.9.0.1' }));
  } finally {
    await app.close();
  }
}

describe('mail diagnostic page', () => {
  it('is for administrators only: login first, unit managers refused', async () => {
    const anon = await t.app.inject(URL);
    expect(anon.statusCode).toBe(303);
    expect(anon.headers.location).toBe(`/pages/Franquia/admin.php?voltar=${encodeURIComponent(URL)}`);
    const g = await createStaffUser(t.db, { papel: 'gerente' });
    const gc = await loginAs(t.app, g.email, g.password);
    expect((await t.app.inject({ url: URL, headers: { cookie: gc } })).statusCode).toBe(403);
    const noToken = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ acao: 'testar' }),
    });
    expect(noToken.statusCode).toBe(403);
  });

  it('shows library, TLS, settings and outbox counts, never the password', async () => {
    await enqueueMail(t.db, { to: 'x@example.com', subject: 'pendente', text: 'x' });
    const res = await t.app.inject({ url: URL, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/nodemailer \d+\.\d+\.\d+/);
    expect(res.body).toContain(`OpenSSL ${process.versions.openssl}`);
    expect(res.body).toContain('127.0.0.1');
    expect(res.body).toContain(String(smtp.port));
    expect(res.body).toContain('SMTP_SECURE=none');
    expect(res.body).toContain(USER);
    expect(res.body).toContain('definida (não exibida)');
    expect(res.body).toMatch(/Pendentes<\/dt><dd>1</);
    expectNoPassword(res.body);
  });

  it('tests the connection and shows the real transcript with AUTH redacted', async () => {
    const res = await act({ acao: 'testar' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Conexão e autenticação bem-sucedidas');
    expect(res.body).toContain('Servidor de teste'); // the greeting
    expect(res.body).toMatch(/S: 250[- ]/); // EHLO capabilities
    expect(res.body).toMatch(/AUTH (PLAIN|LOGIN)/);
    expect(res.body).toContain('/* oculto */');
    expect(res.body).toMatch(/235/); // authentication successful
    expect(res.body).toMatch(/\[\s*\d+ ms\]/);
    expectNoPassword(res.body);
    const json = await t.app.inject({
      method: 'POST',
      url: URL,
      headers: { cookie, accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: await staffToken(t.app, cookie, URL), acao: 'testar' }),
    });
    expectNoPassword(json.body);
    expect(json.json().settings.passwordSet).toBe(true);
    expect(JSON.stringify(json.json().settings)).not.toContain(PASS);
  });

  it('sends a test message to a typed address', async () => {
    smtp.messages.length = 0;
    const bad = await act({ acao: 'enviar', destinatario: 'nao-e-email' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um e-mail válido');
    // JSON clients: the diagnostic's data plus the documented error keys.
    const badJson = await act({ acao: 'enviar', destinatario: 'nao-e-email' }, t.app, cookie, {
      accept: 'application/json',
    });
    expect(badJson.statusCode).toBe(422);
    expect(badJson.json()).toMatchObject({
      error: 'Dados inválidos',
      message: expect.any(String),
      errors: { destinatario: expect.stringContaining('Informe um e-mail válido') },
    });
    const noAction = await act({ acao: 'outra' }, t.app, cookie, { accept: 'application/json' });
    expect(noAction.statusCode).toBe(400);
    expect(noAction.json()).toMatchObject({ error: 'Ação inválida', message: expect.any(String) });
    const res = await act({ acao: 'enviar', destinatario: 'teste@example.com' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Mensagem de teste aceita pelo servidor para teste@example.com');
    expectNoPassword(res.body);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.to).toEqual(['teste@example.com']);
    expect(smtp.messages[0]!.from).toBe('site@example.com');
  });

  it('explains an authentication failure in pt-BR, without the (wrong) password', async () => {
    await withSmtp({ pass: 'Senha-Errada-Demais-55' }, async (app, c) => {
      const res = await act({ acao: 'testar' }, app, c);
      expect(res.body).toContain('A conexão falhou.');
      expect(res.body).toContain('recusou o usuário ou a senha');
      expect(res.body).toContain('535');
      expect(res.body).not.toContain('Senha-Errada-Demais-55');
      expect(res.body).not.toContain(Buffer.from('Senha-Errada-Demais-55').toString('base64'));
      expect(res.body).not.toContain(Buffer.from(`\u0000${USER}\u0000Senha-Errada-Demais-55`).toString('base64'));
    });
  });

  it('explains a refused connection and a TLS mode mismatch', async () => {
    await withSmtp({ port: 1 }, async (app, c) => {
      const res = await act({ acao: 'testar' }, app, c);
      expect(res.body).toContain('Conexão recusada');
    });
    await withSmtp({ secure: 'tls' }, async (app, c) => {
      const res = await act({ acao: 'testar' }, app, c);
      expect(res.body).toContain('A conexão falhou.');
      expect(res.body).toMatch(/modo de segurança|Tempo esgotado/);
    });
    await withSmtp({ host: 'smtp.nao-existe.invalid' }, async (app, c) => {
      const res = await act({ acao: 'testar' }, app, c);
      expect(res.body).toContain('não foi encontrado no DNS');
    });
  });

  it('shows the last outbox error and the failed count', async () => {
    await withSmtp({ pass: 'Outra-Senha-Errada-77' }, async () => {
      /* app only used for config below */
    });
    const cfg = { ...t.config, smtp: { ...t.config.smtp!, pass: 'Outra-Senha-Errada-77' } };
    await deliverDueMail({ db: t.db, config: cfg });
    const res = await t.app.inject({ url: URL, headers: { cookie } });
    expect(res.body).toContain('EAUTH');
    expect(res.body).not.toContain('Outra-Senha-Errada-77');
    expectNoPassword(res.body);
  });
});

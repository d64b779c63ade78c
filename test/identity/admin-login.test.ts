import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs, LOGIN_URL, staffToken } from '../helpers/staff';
import { accountsService } from '../../src/features/identity/services';
import { sessionKey } from '../../src/features/identity/sessions';
import { buildApp } from '../../src/app';

let t: TestContext;
beforeAll(async () => {
  t = await createTestApp({ seed: false });
});
afterAll(async () => t?.close());

const sidOf = (cookie: string) => /(?:^|; )sid=([^;]+)/.exec(cookie)?.[1] ?? null;
// The row id is the sha256 of the cookie's value (a leaked table opens no session).
const rowSid = (cookie: string) => sessionKey(decodeURIComponent(sidOf(cookie) ?? ''));

async function postLogin(
  email: string,
  senha: string,
  opts: { remoteAddress?: string; headers?: Record<string, string>; extra?: Record<string, string> } = {},
) {
  const page = await fetchForm(t.app, LOGIN_URL);
  return t.app.inject({
    method: 'POST',
    url: LOGIN_URL,
    remoteAddress: opts.remoteAddress ?? '127.0.0.1',
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded', ...opts.headers },
    payload: form({ csrf_token: page.token, acao: 'entrar', email, senha, ...opts.extra }),
  });
}

describe('staff login', () => {
  it('shows the login form with the CSRF token to anonymous visitors', async () => {
    const res = await t.app.inject(LOGIN_URL);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('name="email"');
    expect(res.body).toContain('name="senha"');
    expect(res.body).toContain('name="csrf_token"');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('logs in, renews the session id, and sets a safe cookie', async () => {
    const u = await createStaffUser(t.db, { email: 'Ana@Example.com', password: 'uma-senha-bem-longa' });
    const first = await loginAs(t.app, 'ana@example.com', u.password);
    const sid1 = sidOf(first);
    expect(sid1).toBeTruthy();
    const panel = await t.app.inject({ url: LOGIN_URL, headers: { cookie: first } });
    expect(panel.statusCode).toBe(200);
    expect(panel.body).toContain('Leads de franquia');

    // Logging in again while holding a session (or a planted id) gives a new id.
    const page = await fetchForm(t.app, LOGIN_URL, 'csrf_token', first);
    const res = await t.app.inject({
      method: 'POST',
      url: LOGIN_URL,
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, acao: 'entrar', email: u.email, senha: u.password }),
    });
    expect(res.statusCode).toBe(303);
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/sid=/);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const second = cookiesFrom(res, page.cookie);
    expect(sidOf(second)).not.toBe(sid1);
    const old = await t.db.selectFrom('sessoes').select('id').where('id', '=', rowSid(first)).executeTakeFirst();
    expect(old).toBeUndefined();
    const stale = await t.app.inject({ url: LOGIN_URL, headers: { cookie: first } });
    expect(stale.body).toContain('name="senha"');
  });

  it('refuses wrong credentials with 401 and missing fields with 422, in pt-BR', async () => {
    const u = await createStaffUser(t.db);
    const wrong = await postLogin(u.email, 'senha-errada-123', { remoteAddress: '10.0.0.2' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('E-mail ou senha incorretos');
    expect(wrong.body).toContain(`value="${u.email}"`);
    const missing = await postLogin('', '', { remoteAddress: '10.0.0.2' });
    expect(missing.statusCode).toBe(422);
    expect(missing.body).toContain('Informe o seu e-mail.');
    expect(missing.body).toContain('aria-invalid="true"');
    const json = await postLogin(u.email, 'senha-errada-123', {
      remoteAddress: '10.0.0.2',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(401);
    expect(json.json()).toEqual({
      error: 'Login recusado',
      message: 'E-mail ou senha incorretos, ou conta desativada.',
    });
    // A staff URL asked for as JSON without a session: 401 with the same two keys.
    const anon = await t.app.inject({ url: '/admin', headers: { accept: 'application/json' } });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ error: 'Login necessário', message: 'Faça login para continuar.' });
  });

  it('honours ?voltar only for same-site paths', async () => {
    const u = await createStaffUser(t.db);
    const ok = await postLogin(u.email, u.password, { extra: { voltar: '/admin/pesquisa?x=1' } });
    expect(ok.headers.location).toBe('/admin/pesquisa?x=1');
    for (const evil of ['//evil.example/x', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)']) {
      const res = await postLogin(u.email, u.password, { extra: { voltar: evil } });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(LOGIN_URL);
    }
    const form = await t.app.inject(`${LOGIN_URL}?voltar=${encodeURIComponent('/admin/mensagens')}`);
    expect(form.body).toContain('name="voltar" value="/admin/mensagens"');
    // Already logged in: the login URL with voltar goes straight on (same-site only).
    const cookie = await loginAs(t.app, u.email, u.password);
    const on = await t.app.inject({
      url: `${LOGIN_URL}?voltar=${encodeURIComponent('/admin/mensagens')}`,
      headers: { cookie },
    });
    expect(on.statusCode).toBe(303);
    expect(on.headers.location).toBe('/admin/mensagens');
    const evil = await t.app.inject({
      url: `${LOGIN_URL}?voltar=${encodeURIComponent('//evil.example')}`,
      headers: { cookie },
    });
    expect(evil.statusCode).toBe(200);
    expect(evil.body).toContain('Leads de franquia');
  });

  it('logs out: destroys the session row and the cookie', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    const token = await staffToken(t.app, cookie);
    const res = await t.app.inject({
      method: 'POST',
      url: LOGIN_URL,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, acao: 'sair' }),
    });
    expect(res.statusCode).toBe(303);
    const row = await t.db.selectFrom('sessoes').select('id').where('id', '=', rowSid(cookie)).executeTakeFirst();
    expect(row).toBeUndefined();
    const after = await t.app.inject({ url: LOGIN_URL, headers: { cookie } });
    expect(after.body).toContain('name="senha"');
  });

  it('requires the CSRF token on logout and staff actions', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    for (const acao of ['sair', 'status', 'nota', 'excluir']) {
      const res = await t.app.inject({
        method: 'POST',
        url: LOGIN_URL,
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ acao, lead_id: '1' }),
      });
      expect(res.statusCode).toBe(403);
    }
    const still = await t.app.inject({ url: LOGIN_URL, headers: { cookie } });
    expect(still.body).toContain('Leads de franquia');
  });

  async function ageSession(cookie: string, change: (d: { loginAt: number; lastSeen: number }) => void) {
    const id = rowSid(cookie);
    const row = await t.db
      .selectFrom('sessoes')
      .select(['criado_em', 'visto_em'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const data = { loginAt: Date.parse(row.criado_em), lastSeen: Date.parse(row.visto_em) };
    change(data);
    await t.db
      .updateTable('sessoes')
      .set({ criado_em: new Date(data.loginAt).toISOString(), visto_em: new Date(data.lastSeen).toISOString() })
      .where('id', '=', id)
      .execute();
  }

  it('ends a session idle for more than 30 minutes', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    await ageSession(cookie, (d) => {
      d.lastSeen -= 31 * 60 * 1000;
    });
    const res = await t.app.inject({ url: `${LOGIN_URL}?status=novo`, headers: { cookie } });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${LOGIN_URL}?voltar=${encodeURIComponent(`${LOGIN_URL}?status=novo`)}`);
    const again = await t.app.inject({ url: LOGIN_URL, headers: { cookie } });
    expect(again.body).toContain('name="senha"');
  });

  it('ends a session older than 12 hours even when active', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    await ageSession(cookie, (d) => {
      d.loginAt -= 12 * 60 * 60 * 1000 + 60_000;
    });
    const res = await t.app.inject({ url: LOGIN_URL, headers: { cookie } });
    expect(res.statusCode).toBe(303);
  });

  it('keeps unit managers out of the lead panel', async () => {
    const u = await createStaffUser(t.db, { papel: 'gerente' });
    const login = await postLogin(u.email, u.password);
    expect(login.headers.location).toBe('/admin');
    const cookie = cookiesFrom(login, '');
    const page = await fetchForm(t.app, LOGIN_URL);
    const res = await t.app.inject({ url: LOGIN_URL, headers: { cookie: `${page.cookie}; ${cookie}` } });
    expect(res.statusCode).toBe(403);
  });

  it('ends the session of a disabled account', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    await accountsService(t.db).disableFromCli(u.email);
    const res = await t.app.inject({ url: LOGIN_URL, headers: { cookie } });
    expect(res.body).toContain('name="senha"');
    expect(await postLogin(u.email, u.password, { remoteAddress: '10.0.0.99' })).toMatchObject({ statusCode: 401 });
  });
});

describe('login throttling', () => {
  it('locks an account after 5 failures within 15 minutes, with Retry-After', async () => {
    const u = await createStaffUser(t.db);
    for (let i = 0; i < 5; i++) {
      // Different addresses: only the account count grows.
      expect((await postLogin(u.email, 'errada-errada-1', { remoteAddress: `10.1.0.${i + 1}` })).statusCode).toBe(401);
    }
    const locked = await postLogin(u.email, u.password, { remoteAddress: '10.1.0.50' });
    expect(locked.statusCode).toBe(429);
    const retry = Number(locked.headers['retry-after']);
    expect(retry).toBeGreaterThan(14 * 60);
    expect(retry).toBeLessThanOrEqual(15 * 60);
    expect(locked.body).toMatch(/tente novamente às \d\d:\d\d/);
    expect(locked.body).toContain('Muitas tentativas de login');
    const json = await postLogin(u.email, u.password, {
      remoteAddress: '10.1.0.51',
      headers: { accept: 'application/json' },
    });
    expect(json.statusCode).toBe(429);
    expect(json.json().message).toMatch(/tente novamente/);
  });

  it('counts failures per address; a spoofed X-Forwarded-For does not reset it', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await postLogin(`ninguem${i}@example.com`, 'errada-errada-1', {
        remoteAddress: '10.2.0.1',
        headers: { 'x-forwarded-for': `203.0.113.${i + 1}` },
      });
      expect(res.statusCode).toBe(401);
    }
    const u = await createStaffUser(t.db);
    const res = await postLogin(u.email, u.password, {
      remoteAddress: '10.2.0.1',
      headers: { 'x-forwarded-for': '198.51.100.77' },
    });
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    // Another address is not affected.
    expect((await postLogin(u.email, u.password, { remoteAddress: '10.2.0.2' })).statusCode).toBe(303);
  });

  it('a successful login clears the account count', async () => {
    const u = await createStaffUser(t.db);
    for (let i = 0; i < 4; i++) await postLogin(u.email, 'errada-errada-1', { remoteAddress: '10.3.0.1' });
    expect((await postLogin(u.email, u.password, { remoteAddress: '10.3.0.1' })).statusCode).toBe(303);
    const left = await t.db
      .selectFrom('tentativas_login')
      .select('id')
      .where('chave', '=', `conta:${u.email}`)
      .execute();
    expect(left).toHaveLength(0);
    for (let i = 0; i < 4; i++) {
      expect((await postLogin(u.email, 'errada-errada-1', { remoteAddress: '10.3.0.2' })).statusCode).toBe(401);
    }
    expect((await postLogin(u.email, u.password, { remoteAddress: '10.3.0.3' })).statusCode).toBe(303);
  });
});

describe('trusted proxy', () => {
  it('uses X-Forwarded-For only when TRUST_PROXY is set', async () => {
    // A second app on the same database, configured as behind a proxy.
    const app = await buildApp({ ...t.config, trustProxy: true }, { db: t.testDb.handle, logger: false });
    await app.ready();
    const p = { app };
    try {
      const post = async (xff: string) => {
        const page = await fetchForm(p.app, LOGIN_URL);
        return p.app.inject({
          method: 'POST',
          url: LOGIN_URL,
          remoteAddress: '10.4.0.1',
          headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': xff },
          payload: form({
            csrf_token: page.token,
            acao: 'entrar',
            email: `x${Math.random()}@example.com`,
            senha: 'errada-errada-1',
          }),
        });
      };
      for (let i = 0; i < 5; i++) expect((await post('198.51.100.1')).statusCode).toBe(401);
      expect((await post('198.51.100.1')).statusCode).toBe(429);
      expect((await post('198.51.100.2')).statusCode).toBe(401);
    } finally {
      // Closing does not close the shared database handle (the app does not own it).
      await app.close();
    }
  });
});

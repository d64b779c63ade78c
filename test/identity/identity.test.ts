// The staff identity module as an attacker, a careless colleague and an admin meet it:
// parallel wrong passwords, a logout racing a request, disabled accounts, a full hash
// queue, and the password-reset link through a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { accountsService } from '../../src/features/identity/services';
import { canAccessUnit, scopeUnits, unitScope, accessibleUnits } from '../../src/staff/access';
import {
  createHashQueue,
  HashQueueFullError,
  HASH_CONCURRENCY,
  HASH_MAX_WAITING,
  passwordHashQueue,
} from '../../src/features/identity/hash-queue';
import { hashCounters } from '../../src/features/identity/password';
import { sessionKey } from '../../src/features/identity/sessions';
import { RESET_ANSWER_FLOOR_MS } from '../../src/features/identity/password-reset.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_ENGINE } from '../helpers/db';
import { createDb } from '../../src/db/index';
import { fetchForm, form } from '../helpers/http';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { createStaffUser, LOGIN_URL, loginAs, staffToken } from '../helpers/staff';

const RESET_URL = '/pages/Franquia/senha.php';

let t: TestContext;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    seed: false,
    env: {
      ...smtp.env,
      MAIL_FROM: 'Academia <nao-responda@academia.example>',
      PUBLIC_URL: 'https://www.academia.example',
    },
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function postLogin(
  app: App,
  email: string,
  senha: string,
  remoteAddress: string,
  headers: Record<string, string> = {},
) {
  const page = await fetchForm(app, LOGIN_URL);
  return app.inject({
    method: 'POST',
    url: LOGIN_URL,
    remoteAddress,
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form({ csrf_token: page.token, acao: 'entrar', email, senha }),
  });
}

async function logout(app: App, cookie: string) {
  const token = await staffToken(app, cookie);
  return app.inject({
    method: 'POST',
    url: LOGIN_URL,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, acao: 'sair' }),
  });
}

/** Is this cookie still logged in? (the panel shows leads, or the login form) */
async function loggedIn(app: App, cookie: string) {
  const res = await app.inject({ url: LOGIN_URL, headers: { cookie } });
  return res.statusCode === 200 && res.body.includes('Leads de franquia');
}

const sessionsOf = async (userId: number) =>
  (await t.db.selectFrom('sessoes').select('id').where('usuario_id', '=', userId).execute()).length;

describe('login lockout under concurrency', () => {
  it('of 20 parallel wrong attempts on one account, at most 5 are checked; the rest get 429', async () => {
    const u = await createStaffUser(t.db);
    const before = hashCounters.verifications;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => postLogin(t.app, u.email, `senha-errada-${i}-xx`, `10.20.0.${i + 1}`)),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c !== 429).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(15);
    expect(hashCounters.verifications - before).toBeLessThanOrEqual(5);
    const locked = answers.find((r) => r.statusCode === 429)!;
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.body).toMatch(/tente novamente às \d\d:\d\d/);
    // Even the right password waits now, with no hash computed.
    const n = hashCounters.verifications;
    expect((await postLogin(t.app, u.email, u.password, '10.20.1.1')).statusCode).toBe(429);
    expect(hashCounters.verifications).toBe(n);
  });

  it('locks a client address after 5 parallel failures, whatever accounts they try', async () => {
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        postLogin(t.app, `ninguem-${i}@example.com`, 'senha-errada-xx', '10.21.0.1'),
      ),
    );
    const codes = answers.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 401)).toHaveLength(5);
    expect(codes.filter((c) => c === 429)).toHaveLength(7);
    const u = await createStaffUser(t.db);
    expect((await postLogin(t.app, u.email, u.password, '10.21.0.1')).statusCode).toBe(429);
    expect((await postLogin(t.app, u.email, u.password, '10.21.0.2')).statusCode).toBe(303);
  });

  it('two instances with their own database connections allow 5 in total, not 5 each', async () => {
    // On PostgreSQL the second instance has a pool of its own, as a second process would.
    // (Two SQLite writers in one process would block each other's event loop: SQLite runs
    // one machine, where instances share the file's lock, so they share the handle here.)
    const handle = TEST_ENGINE === 'postgres' ? createDb(t.config.database) : t.testDb.handle;
    const second = await buildApp(t.config, { db: handle, logger: false });
    await second.ready();
    try {
      const u = await createStaffUser(t.db);
      const before = hashCounters.verifications;
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          postLogin(i % 2 ? second : t.app, u.email, `senha-errada-${i}-yy`, `10.25.0.${i + 1}`),
        ),
      );
      expect(answers.filter((r) => r.statusCode === 401)).toHaveLength(5);
      expect(answers.filter((r) => r.statusCode === 429)).toHaveLength(15);
      expect(hashCounters.verifications - before).toBeLessThanOrEqual(5);
    } finally {
      await second.close();
      if (handle !== t.testDb.handle) await handle.destroy();
    }
  });

  it('parallel right passwords all get in (success releases its count)', async () => {
    const u = await createStaffUser(t.db);
    // Sequential bursts of 4 (under the limit at any moment) from one address.
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => postLogin(t.app, u.email, u.password, '10.22.0.1')),
      );
      expect(answers.map((r) => r.statusCode)).toEqual([303, 303, 303, 303]);
    }
  });
});

describe('password hash queue', () => {
  it('runs at most `concurrency` at once, queues a bounded number and refuses the rest', async () => {
    const q = createHashQueue({ concurrency: 2, maxWaiting: 3 });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let peak = 0;
    const job = () =>
      q.run(async () => {
        peak = Math.max(peak, q.running);
        await gate;
        return 1;
      });
    const jobs = Array.from({ length: 5 }, job);
    await expect(job()).rejects.toBeInstanceOf(HashQueueFullError);
    // A job that must not be refused (creating an account) still waits its turn.
    const waited = q.run(async () => 2, { wait: true });
    release();
    expect(await Promise.all(jobs)).toEqual([1, 1, 1, 1, 1]);
    expect(await waited).toBe(2);
    expect(peak).toBe(2);
    expect(q.running).toBe(0);
  });

  it('a login that finds the queue full gets 429 in pt-BR, and the attempt does not count', async () => {
    const u = await createStaffUser(t.db);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const blockers = Array.from({ length: HASH_CONCURRENCY + HASH_MAX_WAITING }, () =>
      passwordHashQueue.run(() => gate),
    );
    try {
      const res = await postLogin(t.app, u.email, u.password, '10.23.0.1');
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toContain('Muitos acessos ao mesmo tempo');
      const rows = await t.db
        .selectFrom('tentativas_login')
        .select('id')
        .where('chave', 'in', [`conta:${u.email}`, 'ip:10.23.0.1'])
        .execute();
      expect(rows).toHaveLength(0);
    } finally {
      release();
      await Promise.all(blockers);
    }
    expect((await postLogin(t.app, u.email, u.password, '10.23.0.1')).statusCode).toBe(303);
  });
});

describe('sessions end for good', () => {
  it('a logout while a request of the same session is in flight is not undone', async () => {
    // A second app on the same database with one slow staff route.
    const app = await buildApp(t.config, { db: t.testDb.handle, logger: false });
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    app.get('/teste/lento', { preHandler: app.requireStaff }, async () => {
      entered();
      await gate;
      return { ok: true };
    });
    await app.ready();
    try {
      const u = await createStaffUser(t.db);
      const cookie = await loginAs(app, u.email, u.password);
      const slow = app.inject({ url: '/teste/lento', headers: { cookie } });
      await inside;
      expect((await logout(app, cookie)).statusCode).toBe(303);
      release();
      expect((await slow).statusCode).toBe(200);
      expect(await sessionsOf(u.id)).toBe(0);
      expect(await loggedIn(app, cookie)).toBe(false);
      const again = await app.inject({ url: '/teste/lento', headers: { cookie } });
      expect(again.statusCode).toBe(303);
    } finally {
      release();
      await app.close();
    }
  });

  it('"sair" ends every session of the account, on every browser', async () => {
    const u = await createStaffUser(t.db);
    const a = await loginAs(t.app, u.email, u.password);
    const b = await loginAs(t.app, u.email, u.password);
    expect(await sessionsOf(u.id)).toBe(2);
    const res = await logout(t.app, a);
    expect(String(res.headers['set-cookie'])).toMatch(/sid=;/);
    expect(await loggedIn(t.app, a)).toBe(false);
    expect(await loggedIn(t.app, b)).toBe(false);
  });

  it('stores only a hash of the cookie, with the account in a column', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    const value = decodeURIComponent(/(?:^|; )sid=([^;]+)/.exec(cookie)![1]!);
    const row = await t.db.selectFrom('sessoes').selectAll().where('usuario_id', '=', u.id).executeTakeFirstOrThrow();
    expect(row.id).toBe(sessionKey(value));
    expect(row.id).not.toContain(value);
  });

  it('a request moves the idle clock (an UPDATE of the row), within the 12-hour limit', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    const tenMinutesAgo = new Date(Date.now() - 10 * 60 * 1000).toISOString();
    await t.db.updateTable('sessoes').set({ visto_em: tenMinutesAgo }).where('usuario_id', '=', u.id).execute();
    expect(await loggedIn(t.app, cookie)).toBe(true);
    const row = await t.db.selectFrom('sessoes').selectAll().where('usuario_id', '=', u.id).executeTakeFirstOrThrow();
    expect(Date.now() - Date.parse(row.visto_em)).toBeLessThan(60_000);
    expect(Date.parse(row.expira_em)).toBeLessThanOrEqual(Date.parse(row.criado_em) + 12 * 60 * 60 * 1000);
    expect(Date.parse(row.expira_em) - Date.parse(row.visto_em)).toBeLessThanOrEqual(30 * 60 * 1000);
  });

  it('disabling an account on the accounts screen ends all its sessions at once', async () => {
    const admin = await createStaffUser(t.db, { papel: 'admin' });
    const target = await createStaffUser(t.db, { papel: 'admin' });
    const adminCookie = await loginAs(t.app, admin.email, admin.password);
    const s1 = await loginAs(t.app, target.email, target.password);
    const s2 = await loginAs(t.app, target.email, target.password);
    const token = await staffToken(t.app, adminCookie, `/admin/contas/${target.id}`);
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/contas/${target.id}/ativo`,
      headers: { cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, ativo: '0' }),
    });
    expect(res.statusCode).toBe(303);
    expect(await sessionsOf(target.id)).toBe(0);
    expect(await loggedIn(t.app, s1)).toBe(false);
    expect(await loggedIn(t.app, s2)).toBe(false);
    expect(await loggedIn(t.app, adminCookie)).toBe(true);
  });

  it('user:disable (the command line service) ends all sessions too', async () => {
    const u = await createStaffUser(t.db);
    const cookie = await loginAs(t.app, u.email, u.password);
    await accountsService(t.db).disableFromCli(u.email);
    expect(await sessionsOf(u.id)).toBe(0);
    expect(await loggedIn(t.app, cookie)).toBe(false);
  });

  it("a new password set by an admin ends the account sessions; changing one's own keeps the current one", async () => {
    const admin = await createStaffUser(t.db, { papel: 'admin' });
    const target = await createStaffUser(t.db, { papel: 'admin' });
    const adminCookie = await loginAs(t.app, admin.email, admin.password);
    const adminOther = await loginAs(t.app, admin.email, admin.password);
    const targetCookie = await loginAs(t.app, target.email, target.password);
    const change = async (id: number) => {
      const token = await staffToken(t.app, adminCookie, `/admin/contas/${id}`);
      return t.app.inject({
        method: 'POST',
        url: `/admin/contas/${id}/senha`,
        headers: { cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: token, nova_senha: 'outra-senha-bem-longa' }),
      });
    };
    expect((await change(target.id)).statusCode).toBe(303);
    expect(await loggedIn(t.app, targetCookie)).toBe(false);
    expect((await change(admin.id)).statusCode).toBe(303);
    expect(await loggedIn(t.app, adminCookie)).toBe(true);
    expect(await loggedIn(t.app, adminOther)).toBe(false);
  });

  it('sets the cookie Secure only over HTTPS, as TRUST_PROXY tells', async () => {
    const app = await buildApp({ ...t.config, trustProxy: true }, { db: t.testDb.handle, logger: false });
    await app.ready();
    try {
      const u = await createStaffUser(t.db);
      const plain = await postLogin(app, u.email, u.password, '10.24.0.1');
      expect(String(plain.headers['set-cookie'])).not.toMatch(/sid=[^;]+;[^,]*Secure/i);
      const https = await postLogin(app, u.email, u.password, '10.24.0.1', { 'x-forwarded-proto': 'https' });
      expect(https.statusCode).toBe(303);
      const sid = ([] as string[]).concat(https.headers['set-cookie'] as string[]).find((c) => c.startsWith('sid='))!;
      expect(sid).toMatch(/HttpOnly/i);
      expect(sid).toMatch(/SameSite=Lax/i);
      expect(sid).toMatch(/Secure/i);
    } finally {
      await app.close();
    }
  });
});

describe('the per-unit access helper', () => {
  const admin = { papel: 'admin' as const, unidadeIds: [] };
  const manager = { papel: 'gerente' as const, unidadeIds: [2, 5] };
  it('admins reach every unit; managers only theirs', () => {
    expect(canAccessUnit(admin, 9)).toBe(true);
    expect(canAccessUnit(admin, null)).toBe(true);
    expect(canAccessUnit(manager, 5)).toBe(true);
    expect(canAccessUnit(manager, 9)).toBe(false);
    expect(canAccessUnit(manager, null)).toBe(false);
    expect(scopeUnits(admin)).toBeNull();
    expect(scopeUnits(manager)).toEqual([2, 5]);
    expect(unitScope(manager, 9)).toEqual({ forbidden: true });
    expect(unitScope(manager, 2)).toEqual({ forbidden: false, unitIds: [2] });
    expect(unitScope(admin)).toEqual({ forbidden: false, unitIds: null });
    expect(accessibleUnits(manager, [{ id: 1 }, { id: 2 }, { id: 5 }])).toEqual([{ id: 2 }, { id: 5 }]);
  });
});

/** The text part of a captured message, quoted-printable decoded. */
function bodyOf(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describe('password reset by e-mail', () => {
  async function askReset(email: string, remoteAddress: string, host = 'forjado.example') {
    const page = await fetchForm(t.app, RESET_URL);
    return t.app.inject({
      method: 'POST',
      url: RESET_URL,
      remoteAddress,
      headers: { host, cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, acao: 'pedir', email }),
    });
  }

  async function setPassword(token: string, nova: string, confirmacao = nova, headers: Record<string, string> = {}) {
    const page = await fetchForm(t.app, `${RESET_URL}?token=${token}`);
    return t.app.inject({
      method: 'POST',
      url: RESET_URL,
      headers: { ...headers, cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, acao: 'redefinir', token, nova_senha: nova, confirmacao }),
    });
  }

  async function deliveredLink(to: string): Promise<string> {
    await deliverDueMail({ db: t.db, config: t.config });
    const mail = smtp.messages.filter((m) => m.to.includes(to)).at(-1);
    expect(mail).toBeDefined();
    const m = /(https?:\/\/\S+\/pages\/Franquia\/senha\.php\?token=[A-Za-z0-9_-]+)/.exec(bodyOf(mail!.raw));
    expect(m).not.toBeNull();
    return m![1]!;
  }

  it('the login page links to "Esqueci minha senha"', async () => {
    const res = await t.app.inject(LOGIN_URL);
    expect(res.body).toContain(`href="${RESET_URL}"`);
    expect(res.body).toContain('Esqueci minha senha');
    const form = await t.app.inject(RESET_URL);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('name="email"');
  });

  it('takes as long for an unknown address as for an account (no timing tells them apart)', async () => {
    const u = await createStaffUser(t.db);
    for (const [email, ip] of [
      [u.email, '10.31.0.1'],
      ['ninguem-mesmo@example.com', '10.31.0.2'],
      [u.email.toUpperCase(), '10.31.0.3'],
    ] as const) {
      const started = performance.now();
      const res = await askReset(email, ip);
      expect(res.statusCode).toBe(200);
      // storing the token and the mail for the account fits inside the floor, so both wait for it
      expect(performance.now() - started, email).toBeGreaterThanOrEqual(RESET_ANSWER_FLOOR_MS - 5);
    }
  });

  it('answers the same whether the address exists or not; sends a single-use link valid once', async () => {
    const u = await createStaffUser(t.db);
    const other = await loginAs(t.app, u.email, u.password);
    smtp.messages.length = 0;
    const known = await askReset(u.email, '10.30.0.1');
    const unknown = await askReset('ninguem-aqui@example.com', '10.30.0.2');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    const strip = (s: string) => s.replace(/name="csrf_token" value="[^"]*"/g, '');
    expect(strip(known.body)).toBe(strip(unknown.body));
    expect(known.body).toContain('Se o e-mail informado pertence a uma conta ativa');

    // Only the token's hash is stored; the mail goes through the outbox.
    const rows = await t.db.selectFrom('senha_redefinicoes').selectAll().where('usuario_id', '=', u.id).execute();
    expect(rows).toHaveLength(1);
    const link = await deliveredLink(u.email);
    expect(smtp.messages.filter((m) => m.to.includes('ninguem-aqui@example.com'))).toHaveLength(0);
    // PUBLIC_URL, never the Host header the client sent (forjado.example).
    expect(link.startsWith('https://www.academia.example/pages/Franquia/senha.php?token=')).toBe(true);
    const token = new URL(link).searchParams.get('token')!;
    expect(rows[0]!.token_hash).not.toContain(token);

    const page = await t.app.inject(`${RESET_URL}?token=${token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name="nova_senha"');
    expect(page.headers['referrer-policy']).toBe('no-referrer');

    // Short, or the two typed differently: the form again, nothing changed.
    expect((await setPassword(token, 'curta')).statusCode).toBe(422);
    const mismatch = await setPassword(token, 'nova-senha-bem-longa', 'nova-senha-bem-longx');
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.body).toContain('As duas senhas não são iguais.');
    const mismatchJson = await setPassword(token, 'nova-senha-bem-longa', 'nova-senha-bem-longx', {
      accept: 'application/json',
    });
    expect(mismatchJson.statusCode).toBe(422);
    expect(mismatchJson.json()).toMatchObject({
      error: 'Dados inválidos',
      message: expect.any(String),
      errors: { confirmacao: 'As duas senhas não são iguais.' },
    });

    const ok = await setPassword(token, 'nova-senha-bem-longa');
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`${LOGIN_URL}?senha=1`);
    // Every session of the account ended; the new password works, the old does not.
    expect(await loggedIn(t.app, other)).toBe(false);
    expect((await postLogin(t.app, u.email, u.password, '10.30.0.3')).statusCode).toBe(401);
    expect((await postLogin(t.app, u.email, 'nova-senha-bem-longa', '10.30.0.3')).statusCode).toBe(303);

    // Single use.
    expect((await t.app.inject(`${RESET_URL}?token=${token}`)).statusCode).toBe(410);
    const again = await setPassword(token, 'terceira-senha-longa').catch(() => null);
    expect(again).toBeNull(); // the page of a used link has no form to post
    const direct = async (headers: Record<string, string> = {}) => {
      const p = await fetchForm(t.app, RESET_URL);
      return t.app.inject({
        method: 'POST',
        url: RESET_URL,
        headers: { ...headers, cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({
          csrf_token: p.token,
          acao: 'redefinir',
          token,
          nova_senha: 'terceira-senha-longa',
          confirmacao: 'terceira-senha-longa',
        }),
      });
    };
    expect((await direct()).statusCode).toBe(410);
    const directJson = await direct({ accept: 'application/json' });
    expect(directJson.statusCode).toBe(410);
    expect(directJson.json()).toEqual({
      error: 'Link inválido ou expirado',
      message: expect.stringContaining('peça um novo link'),
    });
    expect((await postLogin(t.app, u.email, 'nova-senha-bem-longa', '10.30.0.4')).statusCode).toBe(303);
  });

  it('a link older than 30 minutes no longer works', async () => {
    const u = await createStaffUser(t.db);
    smtp.messages.length = 0;
    await askReset(u.email, '10.31.0.1');
    const token = new URL(await deliveredLink(u.email)).searchParams.get('token')!;
    await t.db
      .updateTable('senha_redefinicoes')
      .set({ expira_em: new Date(Date.now() - 1000).toISOString() })
      .where('usuario_id', '=', u.id)
      .execute();
    const page = await t.app.inject(`${RESET_URL}?token=${token}`);
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain('Pedir um novo link');
  });

  it('a disabled account gets no link (and the same answer)', async () => {
    const u = await createStaffUser(t.db);
    await accountsService(t.db).disableFromCli(u.email);
    const res = await askReset(u.email, '10.32.0.1');
    expect(res.statusCode).toBe(200);
    expect(
      await t.db.selectFrom('senha_redefinicoes').select('id').where('usuario_id', '=', u.id).execute(),
    ).toHaveLength(0);
  });

  it('is limited per client address (429) and per e-mail (nothing more is sent)', async () => {
    for (let i = 0; i < 5; i++) expect((await askReset(`x${i}@example.com`, '10.33.0.1')).statusCode).toBe(200);
    const limited = await askReset('x9@example.com', '10.33.0.1');
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Tente novamente às');

    const u = await createStaffUser(t.db);
    for (let i = 0; i < 5; i++) expect((await askReset(u.email, `10.34.0.${i + 1}`)).statusCode).toBe(200);
    const tokens = await t.db.selectFrom('senha_redefinicoes').select('id').where('usuario_id', '=', u.id).execute();
    expect(tokens).toHaveLength(3);
  });

  it('a NUL or control character in the e-mail is a field message, never a 5xx (login and reset)', async () => {
    for (const email of ['ana\u0000@example.com', 'ana@exam\nple.com', 'ana\u0085@example.com']) {
      const login = await postLogin(t.app, email, 'qualquer-senha-longa', '10.36.0.1');
      expect(login.statusCode).toBe(422);
      // The form kit's messages: NUL has its own, other controls are "one line only".
      expect(login.body).toMatch(/caractere inválido \(NUL\)|Use uma linha só/);
      const reset = await askReset(email, '10.36.0.2');
      expect(reset.statusCode).toBe(422);
    }
    const rows = await t.db
      .selectFrom('tentativas_login')
      .select('id')
      .where('chave', 'in', ['ip:10.36.0.1', 'senha-ip:10.36.0.2'])
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('refuses a bad e-mail with a field message, and a missing CSRF token', async () => {
    const page = await fetchForm(t.app, RESET_URL);
    const bad = await t.app.inject({
      method: 'POST',
      url: RESET_URL,
      remoteAddress: '10.35.0.1',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, acao: 'pedir', email: 'não é e-mail' }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um e-mail válido');
    const noToken = await t.app.inject({
      method: 'POST',
      url: RESET_URL,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ acao: 'pedir', email: 'a@example.com' }),
    });
    expect(noToken.statusCode).toBe(403);
  });
});

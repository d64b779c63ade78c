// Rate limits counted in the database: two app instances on one database allow exactly
// what one does; the counter is atomic under concurrency; old windows are pruned. And
// TRUST_PROXY: every accepted value works, the rest is refused at start-up.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { ConfigError, loadConfig, parseTrustProxy } from '../../src/config';
import { createDb, type DbHandle } from '../../src/db/index';
import { createRateLimitRepository } from '../../src/platform/ratelimit/ratelimit.repository';
import { createRateLimitService } from '../../src/platform/ratelimit/ratelimit.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';

const FORM = '/pages/Franquia/index.php';
let t: TestContext;
let other: { app: App; handle: DbHandle };

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  // A second instance: its own connection(s) to the same database.
  const handle = createDb(t.testDb.config);
  const app = await buildApp(t.config, { db: handle, logger: false });
  await app.ready();
  other = { app, handle };
});
afterAll(async () => {
  await other?.app.close();
  await other?.handle.destroy();
  await t?.close();
});

const lead = (token: string) =>
  form({
    csrf_token: token,
    nome_completo: 'Maria José',
    whatsapp: '(11) 98765-4321',
    email: 'maria@example.com',
    cidade_regiao: 'Campinas - SP',
    investimento_parceria: 'sozinho',
    faixa_investimento: '300mil_500mil',
    prazo_proximo_passo: 'ate_3_meses',
    experiencia_negocio: 'empresario',
    motivo_interesse: 'ter_meu_negocio',
    aceita_contato: 'sim',
  });

describe('rate limits shared by every instance', () => {
  it('counts franchise form POSTs of one address once across two instances (10 per 10 minutes)', async () => {
    const page = await fetchForm(t.app, FORM);
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      const app = i % 2 ? other.app : t.app;
      const res = await app.inject({
        method: 'POST',
        url: FORM,
        remoteAddress: '10.77.0.1',
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: lead(page.token),
      });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        expect(res.body).toContain('Muitas tentativas');
      }
    }
    expect(statuses.slice(0, 10).every((s) => s === 303)).toBe(true);
    expect(statuses.slice(10)).toEqual([429, 429]);
    const stored = await t.db
      .selectFrom('franquia_leads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(10);
  });

  it(`counts every answer of the franchise form, not only stored leads (the hit joins the lead \
transaction)`, async () => {
    const page = await fetchForm(t.app, FORM);
    const leads = async () =>
      Number(
        (
          await t.db
            .selectFrom('franquia_leads')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await leads();
    const post = (payload: string, app = t.app) =>
      app.inject({
        method: 'POST',
        url: FORM,
        remoteAddress: '10.77.0.3',
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const invalid = form({ csrf_token: page.token, nome_completo: '' });
    const once = `${lead(page.token)}&envio_id=mesmo-envio-0001`;
    const statuses: number[] = [];
    // 4 refused by validation, 3 by the CSRF check, 3 of one form (stored once): 10 hits.
    for (let i = 0; i < 4; i++) statuses.push((await post(invalid, i % 2 ? other.app : t.app)).statusCode);
    for (let i = 0; i < 3; i++) statuses.push((await post(lead('token-errado'))).statusCode);
    for (let i = 0; i < 3; i++) statuses.push((await post(once, i % 2 ? other.app : t.app)).statusCode);
    expect(statuses).toEqual([422, 422, 422, 422, 403, 403, 403, 303, 303, 303]);
    expect(await leads()).toBe(before + 1);

    // Past the limit every kind of request gets the pt-BR 429 page, and nothing is stored.
    for (const payload of [`${lead(page.token)}&envio_id=outro-envio-0002`, invalid, lead('token-errado'), once]) {
      const res = await post(payload, other.app);
      expect(res.statusCode, payload.slice(0, 40)).toBe(429);
      expect(res.body).toContain('Muitas tentativas');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.headers['x-ratelimit-remaining']).toBe('0');
    }
    expect(await leads()).toBe(before + 1);
    const counted = await t.db
      .selectFrom('limites')
      .select('contagem')
      .where('chave', 'like', '%|10.77.0.3')
      .executeTakeFirstOrThrow();
    // A refused lead's hit is rolled back with the lead; the limit holds all the same.
    expect(Number(counted.contagem)).toBeGreaterThanOrEqual(10);
  });

  it('shares the 404 limiter too', async () => {
    let last = 0;
    for (let i = 0; i < 61; i++)
      last = (await (i % 2 ? other.app : t.app).inject({ url: `/scan-${i}`, remoteAddress: '10.77.0.2' })).statusCode;
    expect(last).toBe(429);
  });

  it('never loses an increment when instances count at the same moment', async () => {
    const a = createRateLimitService(createRateLimitRepository(t.db));
    const b = createRateLimitService(createRateLimitRepository(other.app.db));
    const rule = { max: 25, timeWindow: 60_000 };
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit('concorrencia|10.0.0.1', rule)),
    );
    expect(outcomes.map((o) => o.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(outcomes.filter((o) => o.allowed)).toHaveLength(25);
  });

  it('starts a new window when the old one ends, and prunes ended windows', async () => {
    let clock = Date.UTC(2026, 10, 23, 12, 0, 0);
    const repo = createRateLimitRepository(t.db);
    const s = createRateLimitService(repo, () => clock);
    const rule = { max: 1, timeWindow: 60_000 };
    expect((await s.hit('janela|x', rule)).allowed).toBe(true);
    const second = await s.hit('janela|x', rule);
    expect(second.allowed).toBe(false);
    expect(second.retryAfterSec).toBe(60);
    clock += 60_000;
    expect((await s.hit('janela|x', rule)).allowed).toBe(true);
    clock += 10 * 60_000;
    expect(await s.prune()).toBeGreaterThanOrEqual(2);
    const left = await t.db.selectFrom('limites').selectAll().where('chave', '=', 'janela|x').execute();
    expect(left).toHaveLength(0);
  });
});

describe('TRUST_PROXY', () => {
  it('accepts true, addresses, subnets, names and lists, and a hop count', () => {
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('loopback')).toEqual({ addresses: ['loopback'] });
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,uniquelocal, ::1, fd00::/8, 192.168.0.0/255.255.0.0')).toEqual({
      addresses: ['127.0.0.1', '10.0.0.0/8', 'uniquelocal', '::1', 'fd00::/8', '192.168.0.0/255.255.0.0'],
    });
    expect(parseTrustProxy('2')).toEqual({ hops: 2 });
  });

  it('refuses at start-up what cannot work, saying what to write instead', () => {
    for (const bad of ['nginx', '10.0.0.0/33', '10.0.0.1,proxy.local', '-1', '1.5', '99']) {
      let err: unknown;
      try {
        loadConfig({ TRUST_PROXY: bad });
      } catch (e) {
        err = e;
      }
      expect(err, bad).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toMatch(/TRUST_PROXY/);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'nginx' })).toThrow(/informe o IP/);
  });

  async function appWith(trustProxy: string) {
    const app = await buildApp(
      { ...t.config, trustProxy: parseTrustProxy(trustProxy) },
      { db: t.testDb.handle, logger: false },
    );
    app.get('/__quem', async (request) => ({ ip: request.ip, protocol: request.protocol }));
    await app.ready();
    return app;
  }
  const ask = async (app: App, remoteAddress: string, headers: Record<string, string>) => {
    const res = await app.inject({ url: '/__quem', remoteAddress, headers });
    return { ...(res.json() as { ip: string; protocol: string }), hsts: res.headers['strict-transport-security'] };
  };
  const forwarded = { 'x-forwarded-for': '203.0.113.9, 198.51.100.7', 'x-forwarded-proto': 'https' };

  it('with a hop count, takes the Nth address from the right and the nearest proxy’s protocol', async () => {
    const one = await appWith('1');
    const two = await appWith('2');
    try {
      expect(await ask(one, '10.0.0.5', forwarded)).toMatchObject({ ip: '198.51.100.7', protocol: 'https' });
      expect((await ask(one, '10.0.0.5', forwarded)).hsts).toContain('max-age=');
      expect(await ask(two, '10.0.0.5', forwarded)).toMatchObject({ ip: '203.0.113.9', protocol: 'https' });
    } finally {
      await one.close();
      await two.close();
    }
  });

  it('with addresses, believes the headers only from those peers', async () => {
    const app = await appWith('10.0.0.0/8,loopback');
    try {
      expect(await ask(app, '10.1.2.3', forwarded)).toMatchObject({ ip: '198.51.100.7', protocol: 'https' });
      const direct = await ask(app, '192.0.2.50', forwarded);
      expect(direct).toMatchObject({ ip: '192.0.2.50', protocol: 'http' });
      expect(direct.hsts).toBeUndefined();
    } finally {
      await app.close();
    }
  });

  it('with true, believes every peer; with false, none', async () => {
    const yes = await appWith('true');
    const no = await appWith('false');
    try {
      expect(await ask(yes, '192.0.2.50', forwarded)).toMatchObject({ ip: '203.0.113.9', protocol: 'https' });
      expect(await ask(no, '192.0.2.50', forwarded)).toMatchObject({ ip: '192.0.2.50', protocol: 'http' });
    } finally {
      await yes.close();
      await no.close();
    }
  });
});

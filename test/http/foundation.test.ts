import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { createTestApp, type TestContext } from '../helpers/app';
import { awayFromWindowEnd } from '../helpers/rate-window';

describe('config', () => {
  it('fails fast with one message per bad field', () => {
    try {
      loadConfig({ PORT: 'abc', NODE_ENV: 'production', SMTP_SECURE: 'maybe', NOTIFICATION_EMAIL: 'not-an-email' });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const problems = (err as ConfigError).problems.join('\n');
      expect(problems).toMatch(/PORT/);
      expect(problems).toMatch(/SMTP_SECURE/);
      expect(problems).toMatch(/NOTIFICATION_EMAIL/);
    }
  });

  it('requires SESSION_SECRET in production and never echoes secrets', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/SESSION_SECRET/);
    try {
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'short-secret' });
    } catch (err) {
      expect((err as Error).message).not.toContain('short-secret');
    }
  });

  it('chooses the engine from DATABASE_URL', () => {
    expect(loadConfig({}).database.engine).toBe('sqlite');
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h/db' }).database).toMatchObject({ engine: 'postgres' });
    expect(loadConfig({ DATABASE_URL: 'sqlite:data/x.sqlite' }).database).toEqual({
      engine: 'sqlite',
      filename: path.resolve('data/x.sqlite'),
    });
    expect(() => loadConfig({ DATABASE_URL: 'sqlite::memory:' })).toThrow(/sqlite::memory: não serve/);
    expect(loadConfig({ SMTP_HOST: 'smtp.example.com' }).smtp).toMatchObject({ port: 587, secure: 'starttls' });
  });
});

describe('app foundation', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  it('answers liveness and readiness', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    const ready = await t.app.inject('/readyz');
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ok' });
  });

  it('sends security headers on a 404 page, in pt-BR', async () => {
    const res = await t.app.inject('/nao-existe');
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Página não encontrada');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['strict-transport-security']).toBeUndefined();
  });

  it('answers 404 as JSON to JSON clients', async () => {
    const res = await t.app.inject({ url: '/nao-existe', headers: { accept: 'application/json' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ error: 'Página não encontrada' });
  });

  it('rate limits the 404 handler', async () => {
    await awayFromWindowEnd(60_000);
    let last = 0;
    for (let i = 0; i < 65; i++)
      last = (await t.app.inject({ url: `/scan-${i}`, remoteAddress: '10.9.9.9' })).statusCode;
    expect(last).toBe(429);
  });

  it('serves static files with cache headers', async () => {
    const res = await t.app.inject('/css/site.css');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toMatch(/max-age=/);
    const gz = await t.app.inject({ url: '/css/site.css', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('has the demo catalog loaded', async () => {
    const units = await t.db.selectFrom('unidades').select(['nome', 'ativo']).execute();
    expect(units.length).toBeGreaterThanOrEqual(7);
    expect(units.some((u) => u.ativo === 0)).toBe(true);
    const classes = await t.db
      .selectFrom('aulas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(classes.n)).toBeGreaterThan(50);
  });

  it('sends HSTS only over HTTPS behind a trusted proxy', async () => {
    const proxied = await createTestApp({ env: { TRUST_PROXY: 'true' }, seed: false });
    try {
      const https = await proxied.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(https.headers['strict-transport-security']).toMatch(/max-age=\d+/);
      const http = await proxied.app.inject({ url: '/healthz' });
      expect(http.headers['strict-transport-security']).toBeUndefined();
    } finally {
      await proxied.close();
    }
    // Without TRUST_PROXY a forged header changes nothing.
    const forged = await t.app.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
    expect(forged.headers['strict-transport-security']).toBeUndefined();
  });
});

// The app with its PostgreSQL unreachable (nothing listens on the port): liveness stays
// up, readiness and every database-backed answer are a quick pt-BR 503, never a 500.
// Needs no database, so it runs the same in both projects.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { isDbUnavailableError } from '../../src/db/unavailable';
import { freePort } from '../helpers/cluster';
import { fetchForm, form } from '../helpers/http';

let app: App;

beforeAll(async () => {
  const port = await freePort();
  const config = loadConfig({
    NODE_ENV: 'test',
    MAIL_WORKER: 'false',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `postgres://ninguem@127.0.0.1:${port}/nada`,
    DB_CONNECT_TIMEOUT_MS: '500',
  });
  app = await buildApp(config, { logger: false });
  await app.ready();
});
afterAll(async () => app?.close());

it('answers /healthz 200 and /readyz 503 at once', async () => {
  expect((await app.inject('/healthz')).statusCode).toBe(200);
  const started = Date.now();
  const ready = await app.inject('/readyz');
  expect(ready.statusCode).toBe(503);
  expect(Date.now() - started).toBeLessThan(1_500);
});

it('answers a form POST with a pt-BR 503 page, and JSON clients with 503 {error, message}', async () => {
  const page = await fetchForm(app, '/pages/Franquia/index.php');
  const post = (accept?: string) =>
    app.inject({
      method: 'POST',
      url: '/pages/Franquia/index.php',
      headers: {
        cookie: page.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        ...(accept ? { accept } : {}),
      },
      payload: form({ csrf_token: page.token, nome_completo: 'Maria', aceita_contato: 'sim' }),
    });
  const started = Date.now();
  const html = await post();
  expect(Date.now() - started).toBeLessThan(2_000);
  expect(html.statusCode).toBe(503);
  expect(html.headers['retry-after']).toBe('5');
  expect(html.headers['content-type']).toContain('text/html');
  expect(html.body).toContain('nada foi gravado');
  const json = await post('application/json');
  expect(json.statusCode).toBe(503);
  expect(json.json()).toEqual({
    error: 'Serviço temporariamente indisponível',
    message: expect.stringContaining('nada foi gravado'),
  });
});

it('answers pages that need the database with 503, and the 404 page still works', async () => {
  expect((await app.inject('/')).statusCode).toBe(503);
  expect((await app.inject('/nao-existe')).statusCode).toBe(404);
});

it('tells database outages from other errors', () => {
  const e = (props: Record<string, unknown>) => Object.assign(new Error(String(props.message ?? 'x')), props);
  for (const err of [
    e({ code: 'ECONNREFUSED' }),
    e({ code: '57P01' }),
    e({ code: '08006' }),
    e({ code: '57014' }),
    e({ message: 'Connection terminated unexpectedly' }),
    e({ message: 'timeout exceeded when trying to connect' }),
    e({ message: 'wrapped', cause: e({ code: 'ECONNRESET' }) }),
    e({ code: 'SQLITE_BUSY' }),
  ]) {
    expect(isDbUnavailableError(err), String((err as { code?: string }).code ?? err.message)).toBe(true);
  }
  for (const err of [e({ code: '23505' }), e({ code: '22P02' }), new TypeError('x is undefined'), null, undefined]) {
    expect(isDbUnavailableError(err)).toBe(false);
  }
});

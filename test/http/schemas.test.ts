// Fastify compiles every route schema at start: the app starts only if all of them compile,
// and the compiled rules answer as they should.
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import { createTestDb } from '../helpers/db';

const testDb = await createTestDb();
afterAll(() => testDb.cleanup());

it('every route schema of the app compiles (validators and response serializers)', async () => {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', MAIL_WORKER: 'false', SCHEDULED_JOBS: 'false' }),
    database: testDb.config,
  };
  const app = await buildApp(config, { db: testDb.handle, logger: false });
  try {
    await expect(app.ready()).resolves.toBeDefined();
    const bad = await app.inject({ url: '/search_ajax.php?q=a&q=b' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'Busca inválida' });
    const good = await app.inject({ url: '/search_ajax.php?q=academia' });
    expect(good.statusCode).toBe(200);
    expect(Array.isArray(good.json())).toBe(true);
  } finally {
    await app.close();
  }
});

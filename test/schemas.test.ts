// Route schemas are compiled on first use (docs/decisions/170): this compiles all of them
// at start, as Fastify would, so a schema that cannot compile fails here and not on the
// first visitor of that screen.
import { afterAll, expect, it } from 'vitest';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config';
import { createTestDb } from './helpers/db';

const testDb = await createTestDb();
afterAll(() => testDb.cleanup());

it('every route schema of the app compiles (validators and response serializers)', async () => {
  const config = {
    ...loadConfig({ NODE_ENV: 'test', MAIL_WORKER: 'false', SCHEDULED_JOBS: 'false' }),
    database: testDb.config,
  };
  const app = await buildApp(config, { db: testDb.handle, logger: false, eagerSchemas: true });
  try {
    await expect(app.ready()).resolves.toBeDefined();
    // Compiled eagerly, the same rules answer as when compiled lazily.
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

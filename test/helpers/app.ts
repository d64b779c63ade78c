import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildApp, type App } from '../../src/app';
import { type Config, loadConfig } from '../../src/config';
import { seedDemo } from '../../src/db/seeds/demo';
import { createTestDb, type TestDb } from './db';

export interface TestContext {
  app: App;
  db: App['db'];
  config: Config;
  testDb: TestDb;
  uploadsDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  /** extra environment variables, as the operator would set them */
  env?: Record<string, string>;
  /** load the demo catalog and survey (default true) */
  seed?: boolean;
}

/** The real app, on a database of its own, with the demo content unless told otherwise. */
export async function createTestApp(options: TestAppOptions = {}): Promise<TestContext> {
  const testDb = await createTestDb();
  if (options.seed !== false) await seedDemo(testDb.handle.db);
  const uploadsDir = mkdtempSync(path.join(os.tmpdir(), 'gym-uploads-'));
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      MAIL_WORKER: 'false',
      SCHEDULED_JOBS: 'false',
      LOG_LEVEL: 'silent',
      UPLOADS_DIR: uploadsDir,
      ...options.env,
    }),
    database: testDb.config,
  };
  // As in production: without STORAGE_DRIVER, PostgreSQL stores files in the database.
  if (!options.env?.STORAGE_DRIVER && testDb.config.engine === 'postgres')
    config.storage = { ...config.storage, driver: 'database' };
  const app = await buildApp(config, { db: testDb.handle, logger: false });
  await app.ready();
  return {
    app,
    db: app.db,
    config,
    testDb,
    uploadsDir,
    async close() {
      await app.close();
      await testDb.cleanup();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
}

/** A second instance of the app on the same database, as another process behind the load balancer. */
export async function secondInstance(t: TestContext): Promise<App> {
  const other = await buildApp(t.config, { db: t.testDb.handle, logger: false });
  await other.ready();
  return other;
}

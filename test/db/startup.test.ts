// Several processes preparing one empty database at the same moment (the server at
// start-up, `npm run migrate`, `npm run seed`): migrations and the demo seed run once.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { prepareDatabase } from '../../src/db/startup';
import { migrations } from '../../src/db/migrations/index';
import { TEST_ENGINE, TEST_PG_URL } from '../helpers/db';
import type { DatabaseConfig } from '../../src/config';
import { createDb } from '../../src/db/index';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

let config: DatabaseConfig;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const tag = `${process.pid}_${randomBytes(4).toString('hex')}`;
  if (TEST_ENGINE === 'postgres') {
    const schema = `t_start_${tag}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    await admin.end();
    config = { engine: 'postgres', connectionString: TEST_PG_URL, schema };
    cleanup = async () => {
      const c = new pg.Client({ connectionString: TEST_PG_URL });
      await c.connect();
      await c.query(`drop schema if exists "${schema}" cascade`);
      await c.end();
    };
  } else {
    const filename = path.join(os.tmpdir(), `gym-start-${tag}.sqlite`);
    config = { engine: 'sqlite', filename };
    cleanup = async () => {
      for (const suffix of ['', '-wal', '-shm', '.startup-lock']) rmSync(filename + suffix, { force: true });
    };
  }
});
afterAll(async () => cleanup?.());

it('five concurrent preparations of an empty database migrate and seed exactly once', async () => {
  const results = await Promise.all(Array.from({ length: 5 }, () => prepareDatabase(config, { seed: 'if-empty' })));
  expect(results.filter((r) => r.seeded)).toHaveLength(1);
  const applied = results.flatMap((r) => r.migrations.results ?? []).filter((m) => m.status === 'Success');
  expect(applied.map((m) => m.migrationName).sort()).toEqual(Object.keys(migrations).sort());

  const handle = createDb(config);
  try {
    const units = await handle.db
      .selectFrom('unidades')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(units.n)).toBe(8);
  } finally {
    await handle.destroy();
  }
  // Run again (a restart): nothing to do.
  const again = await prepareDatabase(config, { seed: 'if-empty' });
  expect(again.seeded).toBe(false);
  expect(again.migrations.results ?? []).toHaveLength(0);
});

// Each test file gets its own database: a SQLite file of its own, or a PostgreSQL schema
// of its own in the `test` database. TEST_DB chooses the engine (set per Vitest project).
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../../src/config';
import { createDb, migrateToLatest, type DbHandle } from '../../src/db/index';

export const TEST_ENGINE = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres';
export const TEST_PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

export interface TestDb {
  handle: DbHandle;
  config: DatabaseConfig;
  /** drops the schema / deletes the file */
  cleanup(): Promise<void>;
}

export async function createTestDb(): Promise<TestDb> {
  const tag = `${process.env.VITEST_POOL_ID ?? '0'}_${process.pid}_${randomBytes(4).toString('hex')}`;
  if (TEST_ENGINE === 'postgres') {
    const schema = `t_${tag}`;
    const admin = new pg.Client({ connectionString: TEST_PG_URL });
    await admin.connect();
    await admin.query(`create schema "${schema}"`);
    await admin.end();
    const config: DatabaseConfig = { engine: 'postgres', connectionString: TEST_PG_URL, schema };
    const handle = createDb(config);
    await migrateToLatest(handle.db, schema);
    return {
      handle,
      config,
      async cleanup() {
        await handle.destroy();
        const c = new pg.Client({ connectionString: TEST_PG_URL });
        await c.connect();
        await c.query(`drop schema if exists "${schema}" cascade`);
        await c.end();
      },
    };
  }
  const filename = path.join(os.tmpdir(), `gym-test-${tag}.sqlite`);
  const config: DatabaseConfig = { engine: 'sqlite', filename };
  const handle = createDb(config);
  await migrateToLatest(handle.db);
  return {
    handle,
    config,
    async cleanup() {
      await handle.destroy();
      for (const suffix of ['', '-wal', '-shm']) rmSync(filename + suffix, { force: true });
    },
  };
}

/**
 * A trigger that makes the database refuse to set `column` to `value` in `table` (a real
 * error, as during a restart), or its removal: for the paths that must survive a blip.
 */
export async function refuseUpdate(db: Kysely<any>, table: string, column: string, value: string, on: boolean) {
  const name = `recusa_${table}`;
  if (TEST_ENGINE === 'sqlite') {
    await sql
      .raw(
        on
          ? `create trigger ${name} before update of ${column} on ${table} when new.${column} = '${value}'
             begin select raise(abort, 'falha simulada'); end`
          : `drop trigger ${name}`,
      )
      .execute(db);
    return;
  }
  if (!on) return void (await sql.raw(`drop trigger ${name} on ${table}`).execute(db));
  await sql
    .raw(`create or replace function ${name}() returns trigger language plpgsql as $$
      begin raise exception 'falha simulada'; end $$`)
    .execute(db);
  await sql
    .raw(`create trigger ${name} before update on ${table} for each row
      when (new.${column} = '${value}') execute function ${name}()`)
    .execute(db);
}

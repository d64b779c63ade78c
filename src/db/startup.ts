// Migrations and the demo seed, exactly once however many instances start at the same
// moment. PostgreSQL: a session advisory lock around both, so the second instance waits
// and then finds nothing to do. SQLite: Kysely runs SQLite migrations outside a
// transaction (no transactional DDL), so processes on one file take a write lock on a
// small lock file next to it (BEGIN IMMEDIATE, polled so a waiting process stays
// responsive); the seed also checks emptiness inside its own transaction.
import { createRequire } from 'node:module';
import type SQLiteDatabase from 'better-sqlite3';
import { sql, type MigrationResultSet } from 'kysely';
import type { DatabaseConfig } from '../config';
import { createDb, migrateToLatest, type Db } from './index';
import { seedDemo } from './seeds/demo';

export interface PrepareOptions {
  /** load the demo content when the catalog is empty */
  seed?: 'if-empty' | 'force' | false;
  log?: (message: string) => void;
}

export interface PrepareResult {
  migrations: MigrationResultSet;
  seeded: boolean;
}

/**
 * Opens a connection of its own without statement timeout (a migration may be slow and
 * the lock wait as long as another instance's migration), runs `work` under the lock.
 */
export async function withStartupLock<T>(config: DatabaseConfig, work: (db: Db) => Promise<T>): Promise<T> {
  const handle = createDb(config, { statementTimeoutMs: 0, max: 3 });
  try {
    if (config.engine === 'sqlite') {
      if (config.filename === ':memory:') return await work(handle.db);
      return await withSqliteFileLock(`${config.filename}.startup-lock`, () => work(handle.db));
    }
    return await handle.db.connection().execute(async (conn) => {
      // Keyed by schema: installations sharing a database in separate schemas do not
      // wait for each other longer than a migration.
      await sql`select pg_advisory_lock(hashtext('academia:startup:' || current_schema()))`.execute(conn);
      try {
        return await work(handle.db);
      } finally {
        await sql`select pg_advisory_unlock(hashtext('academia:startup:' || current_schema()))`.execute(conn);
      }
    });
  } finally {
    await handle.destroy();
  }
}

// Loaded only on SQLite, as in createDb: a process on PostgreSQL never holds the addon.
const require = createRequire(import.meta.url);

async function withSqliteFileLock<T>(lockFile: string, work: () => Promise<T>): Promise<T> {
  const SQLite = require('better-sqlite3') as typeof SQLiteDatabase;
  const lock = new SQLite(lockFile);
  try {
    lock.pragma('busy_timeout = 0');
    const deadline = Date.now() + 5 * 60_000;
    for (;;) {
      try {
        lock.exec('begin immediate');
        break;
      } catch (err) {
        if ((err as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    try {
      return await work();
    } finally {
      lock.exec('rollback');
    }
  } finally {
    lock.close();
  }
}

/** Migrates (and seeds) under the start-up lock; used by the server and the CLIs. */
export async function prepareDatabase(config: DatabaseConfig, options: PrepareOptions = {}): Promise<PrepareResult> {
  const schema = config.engine === 'postgres' ? config.schema : undefined;
  return withStartupLock(config, async (db) => {
    const migrations = await migrateToLatest(db, schema);
    let seeded = false;
    if (options.seed === 'force') seeded = await seedDemo(db);
    else if (options.seed === 'if-empty') seeded = await seedDemo(db, { onlyIfEmpty: true });
    return { migrations, seeded };
  });
}

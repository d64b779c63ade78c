import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLiteDatabase from 'better-sqlite3';
import type PgModule from 'pg';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  Migrator,
  type MigrationResultSet,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely';
import type { DatabaseConfig } from '../config';
import { DATE_TIME_FORMAT } from '../lib/time';
import { migrations } from './migrations/index';
import { registerCsvFunctions } from './csv/sqlite-functions';
import { createSqliteReader } from './sqlite-reader';
import type { Database } from './types';

export type Engine = 'sqlite' | 'postgres';
export type Db = Kysely<Database>;

export interface DbHandle {
  db: Db;
  /**
   * Long staff reads (reports, lists, exports): on a SQLite file a read-only connection in a
   * worker thread, so they never hold the event loop; elsewhere the same `db`.
   */
  readDb: Db;
  engine: Engine;
  destroy(): Promise<void>;
  /** connections of the pool right now (metrics); SQLite has one connection, never waited for in a queue */
  poolStats?(): PoolStats;
}

export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

// BEGIN IMMEDIATE takes the write lock up front, so two processes writing the same
// file wait on busy_timeout instead of failing with SQLITE_BUSY on lock upgrade.
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new ImmediateSqliteDriver(this.#config);
  }
}

/** How many prepared SQLite statements are kept (least recently used dropped first). */
const STATEMENT_CACHE_SIZE = 200;

/**
 * Kysely prepares every query anew; on a form POST preparing (parsing the SQL) cost about
 * as much as running the statements. The same SQL text reuses its prepared statement
 * (docs/decisions/140). A statement still being iterated (a streamed select) is never
 * handed out twice: a fresh one is prepared instead.
 */
function withStatementCache(sqlite: SQLiteDatabase.Database) {
  const cache = new Map<string, SQLiteDatabase.Statement>();
  return {
    close: () => void sqlite.close(),
    prepare(sqlText: string) {
      const cached = cache.get(sqlText);
      if (cached && !cached.busy) {
        // Most recently used goes last: the first key is the one to drop.
        cache.delete(sqlText);
        cache.set(sqlText, cached);
        return cached;
      }
      const stmt = sqlite.prepare(sqlText);
      if (!cached && cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      cache.set(sqlText, stmt);
      return stmt;
    },
  };
}

// Each engine's driver is loaded when that engine is used: a process on SQLite never holds
// pg in memory, nor one on PostgreSQL the SQLite addon.
const require = createRequire(import.meta.url);
let pgModule: typeof PgModule | undefined;
function loadPg(): typeof PgModule {
  if (!pgModule) {
    pgModule = require('pg') as typeof PgModule;
    // PostgreSQL returns BIGINT (count(*), sum) as text: parse it, our counts fit in a double.
    pgModule.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
    pgModule.types.setTypeParser(1700, (v) => Number.parseFloat(v));
  }
  return pgModule;
}

export interface CreateDbOptions {
  /** told about errors of idle or checked-out PostgreSQL connections (a restart, a dropped link) */
  onConnectionError?: (err: Error) => void;
  /** 0 turns the statement timeout off (migrations, the start-up lock) */
  statementTimeoutMs?: number;
  max?: number;
}

export function createDb(config: DatabaseConfig, options: CreateDbOptions = {}): DbHandle {
  if (config.engine === 'sqlite') {
    // better-sqlite3 13 is built for Node-API 10: on an older Node it is a segfault, not an error.
    if (Number(process.versions.napi) < 10) {
      throw new Error(
        `SQLite needs Node 22.14+, 24 or 26 (Node-API 10); this is Node ${process.version} (docs/decisions/145)`,
      );
    }
    if (config.filename !== ':memory:') mkdirSync(path.dirname(config.filename), { recursive: true });
    const SQLite = require('better-sqlite3') as typeof SQLiteDatabase;
    const sqlite = new SQLite(config.filename);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    registerCsvFunctions(sqlite, DATE_TIME_FORMAT);
    const db = new Kysely<Database>({ dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }) });
    // An in-memory database exists in this connection only: its reads stay here.
    const readDb = config.filename === ':memory:' ? db : createSqliteReader(config.filename);
    return {
      db,
      readDb,
      engine: 'sqlite',
      destroy: async () => {
        if (readDb !== db) await readDb.destroy();
        await db.destroy();
      },
      poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    };
  }
  const tuning = { ...DEFAULT_PG_POOL, ...config.pool };
  const statementTimeout = options.statementTimeoutMs ?? tuning.statementTimeoutMs;
  // An 'error' event without a listener ends the process. Idle clients are covered by the
  // pool's listener; a checked-out client (between two statements of a transaction) emits
  // on itself. Either way the client is dropped on release and a new one is made later.
  const onError = (err: Error) => options.onConnectionError?.(err);
  const makePool = (max: number, use: { staffReads?: boolean } = {}) => {
    const settings = [
      // A per-schema search_path lets tests (and several installations) share one database.
      ...(config.schema ? [`-c search_path=${config.schema}`] : []),
      // Every statement here is short or a bounded batch: compiling one (past jit_above_cost, as
      // an export batch is) took longer than running it (docs/decisions/237).
      '-c jit=off',
      // Staff reads: read-only, and one process per statement, so a report never takes more
      // than one of the database's cores from the public pages (docs/decisions/237).
      ...(use.staffReads ? ['-c default_transaction_read_only=on', '-c max_parallel_workers_per_gather=0'] : []),
    ];
    const pool = new (loadPg().Pool)({
      connectionString: config.connectionString,
      max,
      // A database that is down must answer "unavailable" quickly, not hang a request:
      // connecting (or waiting for a free connection) and every statement have a ceiling.
      // Staff reads queue for their few connections, so they may wait as long as a statement runs.
      connectionTimeoutMillis: use.staffReads
        ? Math.max(tuning.connectTimeoutMs, statementTimeout)
        : tuning.connectTimeoutMs,
      ...(statementTimeout > 0 ? { statement_timeout: statementTimeout, query_timeout: statementTimeout + 2_000 } : {}),
      idleTimeoutMillis: 30_000,
      // Notices a silently dropped link (a firewall, a failover) instead of waiting forever.
      keepAlive: true,
      options: settings.join(' '),
    });
    pool.on('error', onError);
    pool.on('connect', (client) => client.on('error', onError));
    return pool;
  };
  const max = options.max ?? tuning.max;
  const pool = makePool(max);
  // Staff reports and lists read through a pool of their own (DB_READ_POOL_MAX, one by default,
  // opened only when used): they queue there, as on SQLite's one reader thread, instead of
  // sharing the public pages' connections and the database's cores with them.
  const readPool = makePool(tuning.readMax, { staffReads: true });
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const readDb = new Kysely<Database>({ dialect: new PostgresDialect({ pool: readPool }) });
  return {
    db,
    readDb,
    engine: 'postgres',
    destroy: async () => {
      await readDb.destroy();
      await db.destroy();
    },
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
  };
}

export const DEFAULT_PG_POOL = { max: 10, readMax: 1, connectTimeoutMs: 2_000, statementTimeoutMs: 10_000 };

/**
 * `schema`: a PostgreSQL schema of our own (tests, shared databases). Kysely must keep its
 * bookkeeping tables there too, or it finds another schema's and skips our migrations.
 */
export function createMigrator(db: Kysely<any>, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
}

/** Applies pending migrations; throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<any>, schema?: string): Promise<MigrationResultSet> {
  const result = await createMigrator(db, schema).migrateToLatest();
  if (result.error) {
    const failed = result.results?.find((r) => r.status === 'Error')?.migrationName ?? '?';
    throw new Error(`Falha na migração ${failed}: ${String((result.error as Error).message ?? result.error)}`);
  }
  return result;
}

/** Whether `db` (or a transaction of it) talks to PostgreSQL: for the few statements written per engine. */
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * Where an export's batches are written (src/db/csv/sql.ts): on SQLite the read worker, so the
 * event loop only receives text; on PostgreSQL the main pool, as the statements run in the
 * server anyway and the one staff-read connection stays for the reports (docs/decisions/268).
 */
export function exportDb(db: Kysely<Database>, readDb: Kysely<Database>): Kysely<Database> {
  return isPostgres(db) ? db : readDb;
}

export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Timestamps are stored as ISO-8601 UTC text on both engines (see docs/decisions). */
export function nowIso(date: Date = new Date()): string {
  return date.toISOString();
}

/**
 * Runs `fn` in a transaction, or inside the caller's when `db` already is one (a
 * repository's multi-statement write can then join a wider transaction).
 */
export function inTransaction<T>(db: Kysely<Database>, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.isTransaction ? fn(db) : db.transaction().execute(fn);
}

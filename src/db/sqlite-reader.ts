// Staff reports and lists on SQLite read through a second, read-only connection in a worker
// thread, so a long read never holds the event loop that serves the public site. The pattern
// is better-sqlite3's own (docs/threads.md of that project): a worker runs each statement and
// posts the rows back (docs/decisions/232).
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import { DATE_TIME_FORMAT } from '../lib/time';
import { registerCsvFunctions } from './csv/sqlite-functions';
import type { Database } from './types';

/** The read worker's nice value: 10 gives it about a tenth of a core the event loop also wants. */
const READER_NICE = 10;

interface Pending {
  resolve(rows: unknown[]): void;
  reject(err: Error): void;
}

/**
 * The worker's code, passed as source text (`eval`): it may use nothing from this module, and
 * loads modules through `process.getBuiltinModule`, which a bundler leaves as it is. The
 * exports' SQL functions come in the same way, as an argument.
 */
function readerThread(registerFunctions: typeof registerCsvFunctions) {
  const { parentPort, workerData } = process.getBuiltinModule('node:worker_threads');
  const { createRequire: requireFrom } = process.getBuiltinModule('node:module');
  const SQLite = requireFrom(workerData.driver)(workerData.driver);
  const sqlite = new SQLite(workerData.filename, { readonly: true, fileMustExist: true });
  sqlite.pragma('busy_timeout = 5000');
  registerFunctions(sqlite, workerData.dateTimeFormat);
  // Staff reads and exports yield the CPU to the event loop that serves the public site: on Linux
  // a thread has its own nice value, set through its id (docs/decisions/269). Elsewhere it is skipped.
  try {
    const thread = process.getBuiltinModule('node:fs').readlinkSync('/proc/thread-self');
    process.getBuiltinModule('node:os').setPriority(Number(thread.split('/').pop()), workerData.nice);
  } catch {}
  const statements = new Map();
  parentPort!.on('message', (msg: { id: number; sql: string; params: unknown[] }) => {
    try {
      let stmt = statements.get(msg.sql);
      if (!stmt) {
        stmt = sqlite.prepare(msg.sql);
        if (statements.size >= 200) statements.delete(statements.keys().next().value);
        statements.set(msg.sql, stmt);
      }
      if (!stmt.reader) throw new Error('a conexão de leitura só executa consultas');
      // Rows as arrays plus the column names once: cloning arrays between threads costs far
      // less than cloning one object per row.
      const columns = stmt.columns().map((c: { name: string }) => c.name);
      parentPort!.postMessage({ id: msg.id, columns, rows: stmt.raw(true).all(msg.params) });
    } catch (err) {
      const e = err as { message?: string; code?: string };
      parentPort!.postMessage({ id: msg.id, error: { message: String(e?.message ?? err), code: e?.code } });
    }
  });
}

interface ReaderAnswer {
  id: number;
  columns?: string[];
  rows?: unknown[][];
  error?: { message: string; code?: string };
}

/** Rows as better-sqlite3 gives them by default: one object per row, a later column of the same name winning. */
function rowObjects(columns: string[], rows: unknown[][]): Record<string, unknown>[] {
  const out = new Array<Record<string, unknown>>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const values = rows[i]!;
    const row: Record<string, unknown> = {};
    for (let c = 0; c < columns.length; c++) row[columns[c]!] = values[c];
    out[i] = row;
  }
  return out;
}

/** One worker, started on the first read and again after a crash; statements run one at a time. */
class ReaderThread {
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #nextId = 1;
  readonly #filename: string;

  constructor(filename: string) {
    this.#filename = filename;
  }

  #start(): Worker {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    const worker = new Worker(`(${readerThread.toString()})(${registerCsvFunctions.toString()})`, {
      eval: true,
      workerData: { driver, filename: this.#filename, dateTimeFormat: DATE_TIME_FORMAT, nice: READER_NICE },
    });
    worker.on('message', (msg: ReaderAnswer) => {
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (msg.error) p.reject(Object.assign(new Error(msg.error.message), { code: msg.error.code }));
      else p.resolve(rowObjects(msg.columns ?? [], msg.rows ?? []));
    });
    const fail = (err: Error) => {
      if (this.#worker === worker) this.#worker = null;
      for (const p of this.#pending.values()) p.reject(err);
      this.#pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`a thread de leitura do SQLite terminou (código ${code})`)));
    // An idle reader must not keep a CLI or a test process alive.
    worker.unref();
    return worker;
  }

  query(sql: string, params: readonly unknown[]): Promise<unknown[]> {
    this.#worker ??= this.#start();
    const id = this.#nextId++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      // A pending read keeps the process alive until it answers.
      if (this.#pending.size === 1) this.#worker!.ref();
      this.#worker!.postMessage({ id, sql, params });
    }).finally(() => {
      if (this.#pending.size === 0) this.#worker?.unref();
    }) as Promise<unknown[]>;
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    if (worker) await worker.terminate();
  }
}

class ReaderConnection implements DatabaseConnection {
  readonly #thread: ReaderThread;
  constructor(thread: ReaderThread) {
    this.#thread = thread;
  }
  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return { rows: (await this.#thread.query(query.sql, query.parameters)) as R[] };
  }
  // biome-ignore lint/correctness/useYield: streaming is not offered; exports read in keyset batches
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('a conexão de leitura não transmite consultas; leia em lotes');
  }
}

class ReaderDriver implements Driver {
  readonly #thread: ReaderThread;
  readonly #connection: ReaderConnection;
  constructor(filename: string) {
    this.#thread = new ReaderThread(filename);
    this.#connection = new ReaderConnection(this.#thread);
  }
  async init() {}
  async acquireConnection() {
    return this.#connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('a conexão de leitura não abre transações');
  }
  async commitTransaction() {}
  async rollbackTransaction() {}
  async releaseConnection() {}
  destroy() {
    return this.#thread.close();
  }
}

/** A Kysely over a read-only connection to `filename`, run in a worker thread. */
export function createSqliteReader(filename: string): Kysely<Database> {
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReaderDriver(filename),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return new Kysely<Database>({ dialect });
}

// Staff reports read through `readDb`: on a SQLite file a read-only connection in a worker
// thread, on PostgreSQL a read-only pool of its own (one connection by default). Either way a
// long read must leave the event loop free for the public site, run one statement at a time,
// and see what was committed just before.
import { readdirSync, readFileSync } from 'node:fs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { nowIso } from '../../src/db/index';
import { createTestDb, TEST_ENGINE, type TestDb } from '../helpers/db';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await t.cleanup();
});

/** The longest pause of a 5 ms timer while `work` runs, and how long `work` took. */
async function loopPauseDuring<T>(work: () => Promise<T>): Promise<{ result: T; tookMs: number; maxGapMs: number }> {
  let last = performance.now();
  let maxGapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxGapMs = Math.max(maxGapMs, now - last);
    last = now;
  }, 5);
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, tookMs: performance.now() - t0, maxGapMs };
  } finally {
    clearInterval(timer);
  }
}

describe('the staff read connection', () => {
  it('a long read leaves the event loop free', async () => {
    const slow =
      TEST_ENGINE === 'sqlite'
        ? sql<{ n: number }>`with recursive c(x) as (select 1 union all select x + 1 from c where x < 4000000)
            select count(*) as n from c`
        : sql<{ n: number }>`select count(*)::int as n from pg_sleep(0.4), generate_series(1, 1)`;
    const { result, tookMs, maxGapMs } = await loopPauseDuring(() => slow.execute(t.handle.readDb));
    expect(result.rows[0]!.n).toBe(TEST_ENGINE === 'sqlite' ? 4_000_000 : 1);
    expect(tookMs).toBeGreaterThan(150);
    expect(maxGapMs).toBeLessThan(100);
  });

  it('on SQLite runs at a lower priority than the event loop (on Linux, a nice value of its own)', async () => {
    if (TEST_ENGINE !== 'sqlite' || process.platform !== 'linux') return;
    const niceOf = (task: string) => {
      // /proc/<pid>/task/<tid>/stat: the 19th field, counted after the command's closing parenthesis.
      const stat = readFileSync(`/proc/self/task/${task}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    await sql`select 1`.execute(t.handle.readDb);
    expect(niceOf(String(process.pid))).toBe(0);
    expect(readdirSync('/proc/self/task').map(niceOf)).toContain(10);
  });

  it('sees a row the moment its transaction has committed', async () => {
    await t.handle.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('unidades')
        .values({
          nome: 'Leitura Imediata',
          slug: 'leitura-imediata',
          cidade: 'Santos',
          uf: 'SP',
          bairro: 'Gonzaga',
          endereco: 'Av. Ana Costa, 1',
          telefone: '+551332000000',
          whatsapp: '+5513990000000',
          latitude: null,
          longitude: null,
          criado_em: nowIso(),
          atualizado_em: nowIso(),
        })
        .execute();
    });
    const row = await t.handle.readDb
      .selectFrom('unidades')
      .select('nome')
      .where('nome', '=', 'Leitura Imediata')
      .executeTakeFirst();
    expect(row?.nome).toBe('Leitura Imediata');
  });

  it('is another connection, and refuses writes', async () => {
    expect(t.handle.readDb).not.toBe(t.handle.db);
    await expect(
      t.handle.readDb.updateTable('unidades').set({ nome: 'x' }).where('id', '=', -1).execute(),
    ).rejects.toThrow();
    // A refused statement does not take the reader down.
    const ok = await sql<{ one: number }>`select 1 as one`.execute(t.handle.readDb);
    expect(ok.rows[0]!.one).toBe(1);
  });

  it('runs one statement at a time: a quick read waits behind a long one', async () => {
    const slow =
      TEST_ENGINE === 'sqlite'
        ? sql`with recursive c(x) as (select 1 union all select x + 1 from c where x < 2000000) select count(*) from c`
        : sql`select pg_sleep(0.3)`;
    const order: string[] = [];
    const long = slow.execute(t.handle.readDb).then(() => order.push('long'));
    await new Promise((r) => setTimeout(r, 20));
    const quick = sql`select 1`.execute(t.handle.readDb).then(() => order.push('quick'));
    await Promise.all([long, quick]);
    expect(order).toEqual(['long', 'quick']);
    if (TEST_ENGINE === 'postgres') {
      // One process per statement: a report never takes a second core through parallel workers.
      const setting = sql<{ n: string }>`select current_setting('max_parallel_workers_per_gather') as n`;
      expect((await setting.execute(t.handle.readDb)).rows[0]!.n).toBe('0');
      expect((await setting.execute(t.handle.db)).rows[0]!.n).not.toBe('0');
      // Neither pool compiles statements: an export batch cost more to compile than to run.
      const jit = sql<{ jit: string }>`select current_setting('jit') as jit`;
      expect((await jit.execute(t.handle.readDb)).rows[0]!.jit).toBe('off');
      expect((await jit.execute(t.handle.db)).rows[0]!.jit).toBe('off');
    }
  });

  it('DB_READ_POOL_MAX sizes the staff reads pool: one by default, a bad value stops the start', () => {
    const url = 'postgres://app@db.internal:5432/academia';
    const pool = (env: Record<string, string>) => {
      const database = loadConfig({ DATABASE_URL: url, ...env }).database;
      return database?.engine === 'postgres' ? database.pool : undefined;
    };
    expect(pool({})?.readMax).toBe(1);
    expect(pool({ DB_READ_POOL_MAX: '3' })?.readMax).toBe(3);
    expect(() => loadConfig({ DATABASE_URL: url, DB_READ_POOL_MAX: '0' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: url, DB_READ_POOL_MAX: '0' })).toThrow(/DB_READ_POOL_MAX/);
  });
});

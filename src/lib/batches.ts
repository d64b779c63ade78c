// Exports read their rows in keyset batches (a cursor on the last row, never an OFFSET), so
// memory stays flat whatever the number of rows.
import { setImmediate as nextTurn } from 'node:timers/promises';

export interface KeysetRead<Row, Cursor> {
  /** rows after `after` (null: from the start), at most `size`, in the index's order */
  fetch(after: Cursor | null): Promise<Row[]>;
  /** the cursor a row leaves for the next batch */
  cursorOf(row: Row): Cursor;
  size: number;
}

/**
 * Every batch of a keyset read. The next batch is asked for before the current one is handed
 * over, so the database (a worker thread on SQLite, the server on PostgreSQL) reads while the
 * caller formats. Between batches the event loop gets a turn (a macrotask), so a read that
 * runs on the main thread (SQLite in memory) still lets waiting requests through.
 */
export async function* keysetBatches<Row, Cursor>(read: KeysetRead<Row, Cursor>): AsyncGenerator<Row[]> {
  const ask = (after: Cursor | null) => {
    const p = read.fetch(after);
    // Handled when awaited below; a caller that stops early must not leave an unhandled rejection.
    p.catch(() => {});
    return p;
  };
  let next = ask(null);
  for (;;) {
    const batch = await next;
    if (!batch.length) return;
    const more = batch.length >= read.size;
    if (more) next = ask(read.cursorOf(batch[batch.length - 1]!));
    yield batch;
    if (!more) return;
    await nextTurn();
  }
}

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

/** A keyset read whose batch is not an array of rows (CSV text written by the database). */
export interface KeysetChunks<Batch, Cursor> {
  fetch(after: Cursor | null): Promise<Batch>;
  /** how many rows the batch holds: fewer than `size` ends the read */
  rowsIn(batch: Batch): number;
  /** the cursor the batch's last row leaves for the next batch */
  cursorAfter(batch: Batch): Cursor;
  size: number;
}

/** Every batch of a keyset read of rows. */
export function keysetBatches<Row, Cursor>(read: KeysetRead<Row, Cursor>): AsyncGenerator<Row[]> {
  return keysetChunks({
    fetch: read.fetch,
    size: read.size,
    rowsIn: (batch) => batch.length,
    cursorAfter: (batch) => read.cursorOf(batch[batch.length - 1]!),
  });
}

/** Every batch of a keyset read of rows, each row made into `map`'s output (an export's cells). */
export async function* mappedBatches<Row, Cursor, Out>(
  read: KeysetRead<Row, Cursor>,
  map: (row: Row) => Out,
): AsyncGenerator<Out[]> {
  for await (const batch of keysetBatches(read)) yield batch.map(map);
}

/**
 * Every batch of a keyset read. The next batch is asked for before the current one is handed
 * over, so the database (a worker thread on SQLite, the server on PostgreSQL) reads while the
 * caller formats. Between batches the event loop gets a turn (a macrotask), so a read that
 * runs on the main thread (SQLite in memory) still lets waiting requests through.
 */
export async function* keysetChunks<Batch, Cursor>(read: KeysetChunks<Batch, Cursor>): AsyncGenerator<Batch> {
  const ask = (after: Cursor | null) => {
    const p = read.fetch(after);
    // Handled when awaited below; a caller that stops early must not leave an unhandled rejection.
    p.catch(() => {});
    return p;
  };
  let next = ask(null);
  for (;;) {
    const batch = await next;
    const rows = read.rowsIn(batch);
    if (!rows) return;
    const more = rows >= read.size;
    if (more) next = ask(read.cursorAfter(batch));
    yield batch;
    if (!more) return;
    await nextTurn();
  }
}

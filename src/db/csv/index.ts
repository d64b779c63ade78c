// CSV exports for spreadsheets used in Brazil: UTF-8 with BOM, ";" separators, CRLF,
// São Paulo dates, and cells that a spreadsheet would run as a formula defused. This is the
// app's writer; ./sql.ts is its twin that the database runs for the large exports, kept beside
// it so a change of rule is made in both. It sits in src/db because the twin is SQL.
import { Readable } from 'node:stream';
import { keysetChunks } from '../../lib/batches';
import { formatDateTimeCsv } from '../../lib/time';

/** A leading = + - @ tab or CR makes Excel/LibreOffice evaluate the cell. */
function startsLikeFormula(s: string): boolean {
  const c = s.charCodeAt(0);
  return c === 61 || c === 43 || c === 45 || c === 64 || c === 9 || c === 13;
}

/** A cell a spreadsheet would run as a formula gets a leading quote. */
export function defuseCell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  const s = String(value);
  return startsLikeFormula(s) ? `'${s}` : s;
}

/** São Paulo "dd/mm/aaaa hh:mm" (the one clock: src/lib/time.ts). */
export const csvDate = formatDateTimeCsv;

const NEEDS_QUOTES = /[;"\r\n]/;

/** One cell: defused, and quoted (inner quotes doubled) when it holds a separator, a quote or a line break. */
export function csvCell(value: unknown): string {
  if (typeof value === 'number') return String(value);
  const s = String(defuseCell(value));
  return NEEDS_QUOTES.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Rows as CSV text, each line ended by CRLF. */
export function csvLines(rows: readonly (readonly unknown[])[]): string {
  let out = '';
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < row.length; i++) line += i === 0 ? csvCell(row[i]) : `;${csvCell(row[i])}`;
    out += `${line}\r\n`;
  }
  return out;
}

/** Rows to write, or lines the database already wrote by the same rules (./sql.ts). */
export type CsvBatch = readonly (readonly unknown[])[] | string;

/**
 * The lines of an export the database writes (./sql.ts), a keyset batch of `size` rows per
 * statement: `fetch` returns the batch after `after` as text, its row count and the cursor of
 * its last row.
 */
export async function* databaseCsv<Cursor>(
  fetch: (after: Cursor | null, size: number) => Promise<{ csv: string; rows: number; last: Cursor }>,
  size: number,
): AsyncGenerator<string> {
  const batches = keysetChunks({
    size,
    fetch: (after: Cursor | null) => fetch(after, size),
    rowsIn: (batch) => batch.rows,
    cursorAfter: (batch) => batch.last,
  });
  for await (const batch of batches) yield batch.csv;
}

/**
 * The CSV stream of every export: batches of rows (fetched lazily, a batch per database read)
 * written as CSV, one chunk per batch; the large exports hand it text the database wrote by the
 * same rules (docs/decisions/235, 268). Every cell is defused, the header row too (it
 * holds texts staff edit, e.g. survey questions). Written here rather than with a CSV library:
 * the format is four rules, and a row-at-a-time stream capped an export at about the target
 * speed (docs/decisions/231).
 */
export function csvStream(header: string[], batches: AsyncIterable<CsvBatch>): Readable {
  return Readable.from(
    (async function* () {
      yield `\uFEFF${csvLines([header])}`;
      for await (const batch of batches) {
        if (typeof batch === 'string') yield batch;
        else if (batch.length) yield csvLines(batch);
      }
    })(),
    { objectMode: false },
  );
}

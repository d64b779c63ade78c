// CSV exports for spreadsheets used in Brazil: UTF-8 with BOM, ";" separators, CRLF,
// São Paulo dates, and cells that a spreadsheet would run as a formula defused.
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import type * as CsvStringify from 'csv-stringify';
import { formatDateTimeCsv } from './time';

/** A leading = + - @ tab or CR makes Excel/LibreOffice evaluate the cell: prefix a quote. */
export function defuseCell(value: unknown): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return value;
  const s = String(value);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
}

/** São Paulo "dd/mm/aaaa hh:mm" (the one clock: src/lib/time.ts). */
export const csvDate = formatDateTimeCsv;

/**
 * The one CSV writer of the site: streams rows (fetched lazily in batches) as CSV. Every
 * cell is defused, the header row too (it holds texts staff edit, e.g. survey questions).
 */
export function csvStream(header: string[], rows: AsyncIterable<unknown[]>): Readable {
  // Loaded on the first export (staff only), not at start.
  const { stringify } = createRequire(import.meta.url)('csv-stringify') as typeof CsvStringify;
  const stringifier = stringify({ delimiter: ';', bom: true, record_delimiter: '\r\n', quoted_match: /[;"\r\n]/ });
  stringifier.write(header.map(defuseCell));
  const source = Readable.from(
    (async function* () {
      for await (const row of rows) yield row.map(defuseCell);
    })(),
    { objectMode: true },
  );
  source.on('error', (err) => stringifier.destroy(err));
  source.pipe(stringifier);
  return stringifier;
}

// The database's writer of the exports' CSV: on PostgreSQL the large exports have the server
// write their lines, one keyset batch per statement, by the rules of the app's writer
// (./index.ts); the app only passes the text on. Decoding the rows in `pg`, field by field on
// the event loop, held those exports below the target and slowed the public pages meanwhile
// (docs/decisions/235). A test compares the two writers byte for byte on hostile rows.
import { type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { csvCell } from './index';
import { TIME_ZONE } from '../../lib/time';

/** Starts like a formula (= + - @ tab CR: a spreadsheet would run it). */
const FORMULA_START = sql.lit('^[-=+@\t\r]');
/** Holds a separator, a quote or a line break. */
const NEEDS_QUOTES = sql.lit('[;"\r\n]');
/** Either: the only cells that need more than their text. */
const NEEDS_CARE = sql.lit('^[-=+@\t\r]|[;"\r\n]');

/** A text cell: empty for null, defused, quoted (inner quotes doubled) when it needs it. */
export function csvText(value: Expression<unknown>): RawBuilder<string> {
  const v = sql`(${value})::text`;
  const defused = sql`(case when ${v} ~ ${FORMULA_START} then '''' || ${v} else ${v} end)`;
  const quoted = sql`'"' || replace(${defused}, '"', '""') || '"'`;
  const careful = sql`(case when ${v} ~ ${NEEDS_QUOTES} then ${quoted} else ${defused} end)`;
  return sql<string>`coalesce(case when ${v} ~ ${NEEDS_CARE} then ${careful} else ${v} end, '')`;
}

/** A number cell, written as is (never defused, as the app writes numbers); empty for null. */
export function csvNumber(value: Expression<unknown>): RawBuilder<string> {
  return sql<string>`coalesce((${value})::text, '')`;
}

/** A stored ISO instant as São Paulo "dd/mm/aaaa hh:mm"; empty for null. */
export function csvDateTime(value: Expression<unknown>): RawBuilder<string> {
  const local = sql`nullif((${value})::text, '')::timestamptz at time zone ${sql.lit(TIME_ZONE)}`;
  return sql<string>`coalesce(to_char(${local}, 'DD/MM/YYYY HH24:MI'), '')`;
}

/**
 * A stored phone as the cell of "(11) 98765-4321", as `formatPhone` (src/lib/form/parsers.ts)
 * writes it. A phone stored as the form keeps it (+55 and 10 or 11 digits) is cut by position
 * and needs no care as a cell; any other goes through the general rule (digits only, one leading
 * 55 dropped), which costs two regular expression replacements, and is then written as a text
 * cell. An empty phone (an anonymised lead) is an empty cell at once. The stored value is read
 * once per branch: a phone formatted inside `csvText` was formatted again for each of its tests.
 */
export function csvPhone(value: Expression<unknown>): RawBuilder<string> {
  const v = sql`(${value})::text`;
  const local = sql`(${v} ~ '^\\+55[0-9]{10,11}$')`;
  const general = sql`(select case length(d)
      when 11 then '(' || substr(d, 1, 2) || ') ' || substr(d, 3, 5) || '-' || substr(d, 8)
      when 10 then '(' || substr(d, 1, 2) || ') ' || substr(d, 3, 4) || '-' || substr(d, 7)
      else ${v} end
    from (select regexp_replace(regexp_replace(${v}, '\\D', '', 'g'), '^55', '') as d) as phone)`;
  return sql<string>`(case
    when ${v} = '' then ''
    when length(${v}) = 14 and ${local}
      then '(' || substr(${v}, 4, 2) || ') ' || substr(${v}, 6, 5) || '-' || substr(${v}, 11)
    when ${local}
      then '(' || substr(${v}, 4, 2) || ') ' || substr(${v}, 6, 4) || '-' || substr(${v}, 10)
    else ${csvText(general)} end)`;
}

/** A fixed text as a finished cell, written by the app's rules once rather than per row. */
export function csvConstant(text: string): RawBuilder<string> {
  return sql.lit(csvCell(text));
}

/** A code shown by its label (the code itself, as a text cell, when it has none). */
export function csvLabel(value: Expression<unknown>, labels: Readonly<Record<string, string>>): RawBuilder<string> {
  const cases = Object.entries(labels).map(([code, label]) => sql`when ${sql.lit(code)} then ${csvConstant(label)}`);
  if (!cases.length) return csvText(value);
  return sql<string>`(case (${value})::text ${sql.join(cases, sql` `)} else ${csvText(value)} end)`;
}

/** The cells of a row joined into one line (without its line break). */
export function csvLine(cells: readonly RawBuilder<string>[]): RawBuilder<string> {
  return sql<string>`(${sql.join(cells, sql` || ';' || `)})`;
}

export interface DatabaseCsvBatch<Cursor> {
  /** the batch's lines, each ended by CRLF */
  csv: string;
  rows: number;
  /** the cursor columns of the batch's last row */
  last: Cursor;
}

/**
 * One batch written by the server: `page` selects a `line` and the cursor columns `keys`,
 * in export order and limited to the batch size. The lines are joined in the page's order.
 */
export async function csvBatch<Cursor extends Record<string, unknown>>(
  db: Kysely<any>,
  page: SelectQueryBuilder<any, any, any>,
  keys: readonly (keyof Cursor & string)[],
): Promise<DatabaseCsvBatch<Cursor>> {
  const lastOf = keys.map((k) => sql`(array_agg(t.${sql.ref(k)}))[count(*)::int] as ${sql.ref(k)}`);
  const { rows } = await sql<{ csv: string | null; rows: number } & Cursor>`select
      string_agg(t.line, chr(13) || chr(10)) as csv, count(*)::int as rows, ${sql.join(lastOf)}
    from (${page}) as t`.execute(db);
  const row = rows[0]!;
  const { csv, rows: count, ...last } = row;
  return { csv: count ? `${csv}\r\n` : '', rows: count, last: last as unknown as Cursor };
}

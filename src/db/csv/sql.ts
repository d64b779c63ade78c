// The database's writer of the exports' CSV: the large exports have the database write their
// lines, one keyset batch per statement, by the rules of the app's writer (./index.ts); the app
// only passes the text on. On PostgreSQL that takes the rows' decoding off the event loop; on
// SQLite the batch runs in the read worker, so the main thread only receives text
// (docs/decisions/235, 268). Each cell has a twin per engine: PostgreSQL's regular expressions
// and time-zone tables, SQLite's GLOB and the two functions of ./sqlite-functions.ts. A test
// compares them with the app's rules byte for byte on hostile rows.
import { type Expression, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { csvCell } from './index';
import { isPostgres } from '../index';
import { TIME_ZONE } from '../../lib/time';

/** Starts like a formula (= + - @ tab CR: a spreadsheet would run it). */
const FORMULA_START = sql.lit('^[-=+@\t\r]');
/** Holds a separator, a quote or a line break. */
const NEEDS_QUOTES = sql.lit('[;"\r\n]');
/** Either: the only cells that need more than their text. */
const NEEDS_CARE = sql.lit('^[-=+@\t\r]|[;"\r\n]');
/** SQLite: the same tests, as a first character and a GLOB pattern. */
const SQLITE_FORMULA_START = sql.raw(`('=', '+', '-', '@', char(9), char(13))`);
const SQLITE_NEEDS_QUOTES = sql.lit('*[;"\r\n]*');
/** SQLite: an instant as the app stores it, the shape formatDateTimeCsv reads off the text. */
const SQLITE_STORED_INSTANT = sql.lit('[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]*Z');
/** São Paulo's last daylight-saving period ended then (src/lib/time.ts): UTC-3 from then on. */
const FIXED_OFFSET_SINCE = sql.lit('2019-02-17T03:00:00.000Z');
const SQLITE_PHONE_10 = `+55${'[0-9]'.repeat(10)}`;

/** Rows per statement: a SQLite batch holds the read worker, which staff reports share, for its length. */
const BATCH_ROWS = { postgres: 10_000, sqlite: 2_000 } as const;

export interface DatabaseCsvBatch<Cursor> {
  /** the batch's lines, each ended by CRLF */
  csv: string;
  rows: number;
  /** the cursor columns of the batch's last row */
  last: Cursor;
}

/** The cells of the database's writer, in the SQL of `db`'s engine. */
export function databaseCsvWriter(db: Kysely<any>) {
  const pg = isPostgres(db);
  const asText = (value: Expression<unknown>) => (pg ? sql`(${value})::text` : sql`cast((${value}) as text)`);

  /** A text cell: empty for null, defused, quoted (inner quotes doubled) when it needs it. */
  function text(value: Expression<unknown>): RawBuilder<string> {
    const v = asText(value);
    const formula = pg ? sql`${v} ~ ${FORMULA_START}` : sql`substr(${v}, 1, 1) in ${SQLITE_FORMULA_START}`;
    const needsQuotes = pg ? sql`${v} ~ ${NEEDS_QUOTES}` : sql`${v} glob ${SQLITE_NEEDS_QUOTES}`;
    const needsCare = pg ? sql`${v} ~ ${NEEDS_CARE}` : sql`(${formula} or ${needsQuotes})`;
    const defused = sql`(case when ${formula} then '''' || ${v} else ${v} end)`;
    const quoted = sql`'"' || replace(${defused}, '"', '""') || '"'`;
    const careful = sql`(case when ${needsQuotes} then ${quoted} else ${defused} end)`;
    return sql<string>`coalesce(case when ${needsCare} then ${careful} else ${v} end, '')`;
  }

  /** A fixed text as a finished cell, written by the app's rules once rather than per row. */
  const constant = (value: string): RawBuilder<string> => sql.lit(csvCell(value));

  return {
    text,
    constant,
    /** Rows per batch statement on this engine. */
    batchRows: pg ? BATCH_ROWS.postgres : BATCH_ROWS.sqlite,

    /** A number cell, written as is (never defused, as the app writes numbers); empty for null. */
    number(value: Expression<unknown>): RawBuilder<string> {
      return sql<string>`coalesce(${asText(value)}, '')`;
    },

    /**
     * A stored ISO instant as São Paulo "dd/mm/aaaa hh:mm"; empty for null. SQLite reads the
     * fixed-offset years off the text, as formatDateTimeCsv does, and asks ./sqlite-functions.ts
     * for the instants before them.
     */
    dateTime(value: Expression<unknown>): RawBuilder<string> {
      const v = asText(value);
      if (pg) {
        const local = sql`nullif(${v}, '')::timestamptz at time zone ${sql.lit(TIME_ZONE)}`;
        return sql<string>`coalesce(to_char(${local}, 'DD/MM/YYYY HH24:MI'), '')`;
      }
      return sql<string>`(case when ${v} is null or ${v} = '' then ''
        when ${v} >= ${FIXED_OFFSET_SINCE} and ${v} glob ${SQLITE_STORED_INSTANT}
          then coalesce(strftime('%d/%m/%Y %H:%M', ${v}, '-3 hours'), csv_data_hora(${v}))
        else csv_data_hora(${v}) end)`;
    },

    /**
     * A stored phone as the cell of "(11) 98765-4321", as `formatPhone` (src/lib/form/parsers.ts)
     * writes it. A phone stored as the form keeps it (+55 and 10 or 11 digits) is cut by position
     * and needs no care as a cell; any other goes through the general rule (digits only, one
     * leading 55 dropped) and is then written as a text cell. An empty phone (an anonymised lead)
     * is an empty cell at once. The stored value is read once per branch.
     */
    phone(value: Expression<unknown>): RawBuilder<string> {
      const v = asText(value);
      const local = pg
        ? sql`(${v} ~ '^\\+55[0-9]{10,11}$')`
        : sql`(${v} glob ${sql.lit(SQLITE_PHONE_10)} or ${v} glob ${sql.lit(`${SQLITE_PHONE_10}[0-9]`)})`;
      const digits = pg
        ? sql`regexp_replace(regexp_replace(${v}, '\\D', '', 'g'), '^55', '')`
        : sql`csv_digitos_telefone(${v})`;
      const general = sql`(select case length(d)
          when 11 then '(' || substr(d, 1, 2) || ') ' || substr(d, 3, 5) || '-' || substr(d, 8)
          when 10 then '(' || substr(d, 1, 2) || ') ' || substr(d, 3, 4) || '-' || substr(d, 7)
          else ${v} end
        from (select ${digits} as d) as phone)`;
      return sql<string>`(case
        when ${v} = '' then ''
        when length(${v}) = 14 and ${local}
          then '(' || substr(${v}, 4, 2) || ') ' || substr(${v}, 6, 5) || '-' || substr(${v}, 11)
        when ${local}
          then '(' || substr(${v}, 4, 2) || ') ' || substr(${v}, 6, 4) || '-' || substr(${v}, 10)
        else ${text(general)} end)`;
    },

    /** A code shown by its label (the code itself, as a text cell, when it has none). */
    label(value: Expression<unknown>, labels: Readonly<Record<string, string>>): RawBuilder<string> {
      const cases = Object.entries(labels).map(([code, label]) => sql`when ${sql.lit(code)} then ${constant(label)}`);
      if (!cases.length) return text(value);
      return sql<string>`(case ${asText(value)} ${sql.join(cases, sql` `)} else ${text(value)} end)`;
    },

    /** The cells of a row joined into one line (without its line break). */
    line(cells: readonly RawBuilder<string>[]): RawBuilder<string> {
      return sql<string>`(${sql.join(cells, sql` || ';' || `)})`;
    },

    /**
     * One batch written by the database: `page` selects a `line` and the cursor columns `keys`,
     * in export order and limited to the batch size. The lines are joined in the page's order:
     * by PostgreSQL into one value; on SQLite by the app, from the worker's rows of text.
     */
    async batch<Cursor extends Record<string, unknown>>(
      page: SelectQueryBuilder<any, any, any>,
      keys: readonly (keyof Cursor & string)[],
    ): Promise<DatabaseCsvBatch<Cursor>> {
      if (!pg) {
        const rows = (await page.execute()) as ({ line: string } & Cursor)[];
        let csv = '';
        for (const row of rows) csv += `${row.line}\r\n`;
        const tail = rows.at(-1);
        const last = Object.fromEntries(keys.map((k) => [k, tail?.[k]])) as Cursor;
        return { csv, rows: rows.length, last };
      }
      const lastOf = keys.map((k) => sql`(array_agg(t.${sql.ref(k)}))[count(*)::int] as ${sql.ref(k)}`);
      const { rows } = await sql<{ csv: string | null; rows: number } & Cursor>`select
          string_agg(t.line, chr(13) || chr(10)) as csv, count(*)::int as rows, ${sql.join(lastOf)}
        from (${page}) as t`.execute(db);
      const row = rows[0]!;
      const { csv, rows: count, ...last } = row;
      return { csv: count ? `${csv}\r\n` : '', rows: count, last: last as unknown as Cursor };
    },
  };
}

// The SQL the registry drives: finds one person's rows in every table of PERSONAL_DATA,
// reads them for the export, and erases them column by column. Table and column names come
// from the registry only (never from a request); values are always bound parameters.
import { type Expression, type Kysely, type SqlBool, sql } from 'kysely';
import type { Database } from '../../db/types';
import {
  ERASED_MARKER,
  PERSONAL_DATA,
  phoneVariants,
  scrubText,
  type Subject,
  subjectNeedles,
  type TableEntry,
} from './registry';

export type Row = Record<string, unknown>;
/** The person's rows, by table: the ids found (identity, parent, reference). */
export type Located = Map<string, number[]>;

const CHUNK = 500;
const chunks = <T>(list: T[]): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
};
const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);
const idOf = (e: TableEntry) => e.id ?? 'id';

/** A column's name as SQL (registry names only). */
const col = (name: string) => sql.ref(name);

function containsAny(column: string, needles: string[]): Expression<SqlBool> {
  const parts = needles.map((n) => sql<SqlBool>`lower(${col(column)}) like ${`%${escapeLike(n)}%`} escape '\\'`);
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

export function createPersonDataRepository(kdb: Kysely<Database>) {
  // Tables are named by the registry at run time: the typed builder cannot follow them.
  const db = kdb as unknown as Kysely<any>;

  /** The conditions that make a row of `entry` the subject's, given what was found before it. */
  function identityConditions(entry: TableEntry, subject: Subject, found: Located): Expression<SqlBool>[] {
    const conds: Expression<SqlBool>[] = [];
    const phones = subject.phones.flatMap(phoneVariants);
    for (const [name, c] of Object.entries(entry.columns)) {
      const byEmail = c.match === 'email' || c.match === 'email_or_phone';
      const byPhone = c.match === 'phone' || c.match === 'email_or_phone';
      if (byEmail && subject.email) conds.push(sql<SqlBool>`lower(${col(name)}) = ${subject.email.toLowerCase()}`);
      if (byPhone && phones.length) conds.push(sql<SqlBool>`${col(name)} in (${sql.join(phones)})`);
    }
    if (entry.parent) {
      for (const ids of chunks(found.get(entry.parent.table) ?? []))
        conds.push(sql<SqlBool>`${col(entry.parent.column)} in (${sql.join(ids)})`);
    }
    for (const ref of entry.references ?? []) {
      const patterns = (found.get(ref.table) ?? []).flatMap(ref.patterns);
      for (const list of chunks(patterns)) {
        const likes = list.map((p) => sql<SqlBool>`${col(ref.column)} like ${p}`);
        conds.push(sql<SqlBool>`(${sql.join(likes, sql` or `)})`);
      }
    }
    return conds;
  }

  return {
    /**
     * The subject's row ids in every registered table, in registry order (parents before the
     * rows that follow them). Only identity matches: e-mail, phone, parent, reference.
     * `seed` adds rows chosen otherwise (a retention job: the messages older than a cut-off),
     * which bring their children and outbox mails along the same way.
     */
    async locate(subject: Subject, seed: Located = new Map()): Promise<Located> {
      const found: Located = new Map();
      for (const entry of PERSONAL_DATA) {
        if (typeof entry.erase === 'object' && !entry.exportAs) continue;
        const conds = identityConditions(entry, subject, found);
        for (const ids of chunks(seed.get(entry.table) ?? []))
          conds.push(sql<SqlBool>`${col(idOf(entry))} in (${sql.join(ids)})`);
        if (!conds.length) continue;
        const rows = await db
          .selectFrom(entry.table)
          .select(col(idOf(entry)).as('id'))
          .where((eb) => eb.or(conds))
          .orderBy(idOf(entry))
          .execute();
        if (rows.length)
          found.set(
            entry.table,
            rows.map((r: Row) => Number(r.id)),
          );
      }
      return found;
    },

    /** Rows of `table` by id, with the columns asked (registry names). */
    async rows(table: string, ids: number[], columns: string[]): Promise<Row[]> {
      const entry = PERSONAL_DATA.find((e) => e.table === table)!;
      const out: Row[] = [];
      for (const list of chunks(ids)) {
        out.push(
          ...(await db
            .selectFrom(table)
            .select(columns.map((c) => col(c).as(c)))
            .where(col(idOf(entry)), 'in', list)
            .orderBy(idOf(entry))
            .execute()),
        );
      }
      return out;
    },

    /**
     * Erases the subject in every table: the rows located are anonymised or deleted by the
     * registry's rules; rows of anyone else that mention the e-mail or phone have those
     * mentions scrubbed (or the row deleted where the table's rows go). Run inside a
     * transaction. Returns the rows touched per table and the storage keys of the files
     * whose rows went (delete them after the commit).
     */
    async erase(subject: Subject, located: Located, now: string) {
      const needles = subjectNeedles(subject);
      const counts: Record<string, number> = {};
      const fileKeys: string[] = [];
      const add = (table: string, n: number) => {
        if (n > 0) counts[table] = (counts[table] ?? 0) + n;
      };
      for (const entry of PERSONAL_DATA) {
        if (typeof entry.erase === 'object') continue;
        const key = idOf(entry);
        const own = located.get(entry.table) ?? [];
        const containsColumns = Object.entries(entry.columns)
          .filter(([, c]) => c.match === 'contains' || c.match === 'email_or_phone')
          .map(([name]) => name);
        // rows of others that mention the subject (their own rows were found above)
        const mentioning: Row[] = [];
        if (needles.length && containsColumns.length) {
          let q = db
            .selectFrom(entry.table)
            .select([col(key).as('id'), ...containsColumns.map((c) => col(c).as(c))])
            .where((eb) => eb.or(containsColumns.map((c) => containsAny(c, needles))));
          if (own.length && own.length <= CHUNK) q = q.where(col(key), 'not in', own);
          const ownSet = new Set(own);
          mentioning.push(...(await q.execute()).filter((r: Row) => !ownSet.has(Number(r.id))));
        }

        if (entry.erase === 'delete') {
          const ids = [...own, ...mentioning.map((r) => Number(r.id))];
          if (entry.files && ids.length) {
            for (const list of chunks(ids)) {
              const rows = await db
                .selectFrom(entry.table)
                .select(col(entry.files.keyColumn).as('k'))
                .where(col(key), 'in', list)
                .execute();
              fileKeys.push(...rows.map((r: Row) => String(r.k)));
            }
          }
          for (const list of chunks(ids)) {
            const r = await db.deleteFrom(entry.table).where(col(key), 'in', list).executeTakeFirst();
            add(entry.table, Number(r.numDeletedRows));
          }
          continue;
        }

        // anonymise: the subject's rows by the column rules
        const set: Record<string, unknown> = {};
        const scrubbed: string[] = [];
        for (const [name, c] of Object.entries(entry.columns)) {
          if (c.erase.do === 'null') set[name] = null;
          else if (c.erase.do === 'zero') set[name] = 0;
          else if (c.erase.do === 'marker')
            set[name] = sql`case when ${col(name)} is null then null else ${ERASED_MARKER} end`;
          else if (c.erase.do === 'scrub') scrubbed.push(name);
        }
        if (entry.stamp) set[entry.stamp] = now;
        if (own.length && Object.keys(set).length) {
          for (const list of chunks(own)) {
            const r = await db.updateTable(entry.table).set(set).where(col(key), 'in', list).executeTakeFirst();
            add(entry.table, Number(r.numUpdatedRows));
          }
        }
        // scrubbed columns of the subject's rows, and the mentions in others' rows
        const toScrub: Row[] = [...mentioning];
        if (own.length && scrubbed.length) {
          for (const list of chunks(own))
            toScrub.push(
              ...(await db
                .selectFrom(entry.table)
                .select([col(key).as('id'), ...scrubbed.map((c) => col(c).as(c))])
                .where(col(key), 'in', list)
                .execute()),
            );
        }
        for (const row of toScrub) {
          const changes: Record<string, string> = {};
          for (const [name, value] of Object.entries(row)) {
            if (name === 'id' || typeof value !== 'string') continue;
            const clean = scrubText(value, needles);
            if (clean !== value) changes[name] = clean;
          }
          if (!Object.keys(changes).length) continue;
          await db.updateTable(entry.table).set(changes).where(col(key), '=', row.id).execute();
          if (!own.includes(Number(row.id))) add(entry.table, 1);
        }
      }
      return { counts, fileKeys };
    },
  };
}
export type PersonDataRepository = ReturnType<typeof createPersonDataRepository>;

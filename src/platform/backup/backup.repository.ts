import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/index';
import type { Database } from '../../db/types';

/** What a backup counts and checks in a database. */
export function createBackupRepository(db: Kysely<Database>) {
  return {
    /** Rows of every table of the database (PostgreSQL: of the current schema), by table name. */
    async tableCounts(): Promise<Record<string, number>> {
      const names = isPostgres(db)
        ? await sql<{ name: string }>`select table_name as name from information_schema.tables
            where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db)
        : await sql<{ name: string }>`select name from sqlite_master
            where type = 'table' and name not like 'sqlite_%' order by name`.execute(db);
      const counts: Record<string, number> = {};
      for (const { name } of names.rows) {
        const row = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(name)}`.execute(db);
        counts[name] = Number(row.rows[0]?.n ?? 0);
      }
      return counts;
    },

    /** SQLite's own check of a copied file: "ok" when every page and index is sound. */
    async quickCheck(): Promise<string> {
      const rows = await sql<{ quick_check: string }>`pragma quick_check`.execute(db);
      return rows.rows.map((r) => Object.values(r)[0]).join('; ');
    },
  };
}

import { type Kysely, sql } from 'kysely';
import { isPostgres } from '../../db/index';
import type { Database } from '../../db/types';

/** What a backup counts and the lease that lets one instance at a time take the scheduled one. */
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

    /** Creates the task's row (due at `dueIso`) unless it exists. */
    async ensureTask(nome: string, dueIso: string): Promise<void> {
      await db
        .insertInto('tarefas_agendadas')
        .values({ nome, proxima_em: dueIso })
        .onConflict((oc) => oc.column('nome').doNothing())
        .execute();
    },

    /**
     * Takes the lease when the task is due and nobody holds it (or a holder's lease ran out:
     * it died). One statement, so of two instances asking at once exactly one gets it.
     */
    async claim(nome: string, nowIsoValue: string, untilIso: string, owner: string): Promise<boolean> {
      const result = await db
        .updateTable('tarefas_agendadas')
        .set({ bloqueado_ate: untilIso, dono: owner })
        .where('nome', '=', nome)
        .where('proxima_em', '<=', nowIsoValue)
        .where((eb) => eb.or([eb('bloqueado_ate', 'is', null), eb('bloqueado_ate', '<=', nowIsoValue)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Gives the lease back with the next due time and the outcome. */
    async finish(nome: string, owner: string, run: { atIso: string; nextIso: string; error: string | null }) {
      await db
        .updateTable('tarefas_agendadas')
        .set({
          bloqueado_ate: null,
          dono: null,
          proxima_em: run.nextIso,
          ultimo_erro: run.error,
          ...(run.error ? {} : { ultima_em: run.atIso }),
        })
        .where('nome', '=', nome)
        .where('dono', '=', owner)
        .execute();
    },

    /** Keeps a long run's lease (only while this owner still holds it). */
    async renew(nome: string, owner: string, untilIso: string): Promise<void> {
      await db
        .updateTable('tarefas_agendadas')
        .set({ bloqueado_ate: untilIso })
        .where('nome', '=', nome)
        .where('dono', '=', owner)
        .execute();
    },

    /** SQLite's own check of a copied file: "ok" when every page and index is sound. */
    async quickCheck(): Promise<string> {
      const rows = await sql<{ quick_check: string }>`pragma quick_check`.execute(db);
      return rows.rows.map((r) => Object.values(r)[0]).join('; ');
    },

    findTask(nome: string) {
      return db.selectFrom('tarefas_agendadas').selectAll().where('nome', '=', nome).executeTakeFirst();
    },
  };
}

// A periodic task that one instance of all runs at a time (the scheduled backup, the daily
// payment comparison): its row in tarefas_agendadas says when it is due next and who holds
// it until when, so a holder that died lets another instance take over.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export function createTaskLease(db: Kysely<Database>, nome: string) {
  return {
    /** Creates the task's row (due at `dueIso`) unless it exists. */
    async ensure(dueIso: string): Promise<void> {
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
    async claim(now: string, until: string, owner: string): Promise<boolean> {
      const result = await db
        .updateTable('tarefas_agendadas')
        .set({ bloqueado_ate: until, dono: owner })
        .where('nome', '=', nome)
        .where('proxima_em', '<=', now)
        .where((eb) => eb.or([eb('bloqueado_ate', 'is', null), eb('bloqueado_ate', '<=', now)]))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Keeps a long run's lease (only while this owner still holds it). */
    async renew(owner: string, until: string): Promise<void> {
      await db
        .updateTable('tarefas_agendadas')
        .set({ bloqueado_ate: until })
        .where('nome', '=', nome)
        .where('dono', '=', owner)
        .execute();
    },

    /** Gives the lease back with the next due time and the outcome. */
    async finish(owner: string, run: { at: string; next: string; error: string | null }): Promise<void> {
      await db
        .updateTable('tarefas_agendadas')
        .set({
          bloqueado_ate: null,
          dono: null,
          proxima_em: run.next,
          ultimo_erro: run.error,
          ...(run.error ? {} : { ultima_em: run.at }),
        })
        .where('nome', '=', nome)
        .where('dono', '=', owner)
        .execute();
    },

    find() {
      return db.selectFrom('tarefas_agendadas').selectAll().where('nome', '=', nome).executeTakeFirst();
    },
  };
}

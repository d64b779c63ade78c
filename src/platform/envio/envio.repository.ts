// Envios: one row per stored public-form submission that carried an envio_id. The only
// place their SQL lives. Every write runs inside the submission's own transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import { contentKey } from './fingerprint';

// Staff forms use it too ('webhook_endpoint', 'webhook_teste'): a double click stores once.
export type EnvioForm =
  | 'franquia'
  | 'pesquisa'
  | 'fale_aqui'
  | 'aula_experimental'
  | 'matricula'
  | 'webhook_endpoint'
  | 'webhook_teste';

export function createEnvioRepository(db: Kysely<Database>) {
  return {
    /**
     * Claims (form, envio_id) for this submission, with its content's fingerprint: true when
     * it is new. A row older than `staleBefore` no longer counts (the 24 h window) and is
     * taken over. One statement (an upsert whose update only applies to a stale row): on
     * PostgreSQL a racing second click waits for the first commit and then finds the row,
     * with no error and no aborted transaction.
     */
    async claim(
      form: EnvioForm,
      envioId: string,
      impressao: string | null,
      now: string,
      staleBefore: string,
    ): Promise<boolean> {
      const row = await db
        .insertInto('envios')
        .values({ formulario: form, envio_id: envioId, registro_id: null, criado_em: now, impressao })
        .onConflict((oc) =>
          oc
            .columns(['formulario', 'envio_id'])
            .doUpdateSet({ registro_id: null, criado_em: now, impressao })
            .where('envios.criado_em', '<', staleBefore),
        )
        .returning('envio_id')
        .executeTakeFirst();
      return !!row;
    },

    /**
     * Records which row each claimed submission stored (replayed to a second click): one
     * statement for a whole batch. The rows exist (claimed in this transaction), so only
     * `registro_id` changes; the insert part only makes the batch one upsert.
     */
    async settle(
      form: EnvioForm,
      stored: readonly { key: string; id: number; fingerprint: string }[],
      now: string,
    ): Promise<void> {
      if (!stored.length) return;
      await db
        .insertInto('envios')
        .values(
          stored.map((s) => ({
            formulario: form,
            envio_id: s.key,
            registro_id: s.id,
            criado_em: now,
            impressao: s.fingerprint,
          })),
        )
        .onConflict((oc) =>
          oc.columns(['formulario', 'envio_id']).doUpdateSet((eb) => ({ registro_id: eb.ref('excluded.registro_id') })),
        )
        .execute();
    },

    /** Drops claims whose submission turned out to be stored already (the form's own UNIQUE key said so). */
    async release(form: EnvioForm, keys: readonly string[]): Promise<void> {
      if (!keys.length) return;
      await db
        .deleteFrom('envios')
        .where('formulario', '=', form)
        .where('envio_id', 'in', [...keys])
        .execute();
    },

    async find(form: EnvioForm, envioId: string) {
      return db
        .selectFrom('envios')
        .select(['registro_id', 'criado_em', 'impressao'])
        .where('formulario', '=', form)
        .where('envio_id', '=', envioId)
        .executeTakeFirst();
    },

    /**
     * The stored submission this one repeats, if any, within the window: the key with the
     * same fingerprint (or none, a row from before fingerprints), or the key a different
     * content was stored under (`contentKey`) — one indexed read.
     */
    async findRepeat(
      form: EnvioForm,
      envioId: string,
      impressao: string,
      staleBefore: string,
    ): Promise<{ registro_id: number | null } | undefined> {
      const second = contentKey(envioId, impressao);
      const rows = await db
        .selectFrom('envios')
        .select(['envio_id', 'registro_id', 'impressao'])
        .where('formulario', '=', form)
        .where('envio_id', 'in', [envioId, second])
        .where('criado_em', '>=', staleBefore)
        .execute();
      return rows.find((r) => r.envio_id === second || r.impressao === null || r.impressao === impressao);
    },

    async pruneBefore(before: string): Promise<number> {
      const res = await db.deleteFrom('envios').where('criado_em', '<', before).executeTakeFirst();
      return Number(res.numDeletedRows);
    },
  };
}

export type EnvioRepository = ReturnType<typeof createEnvioRepository>;

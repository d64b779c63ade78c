import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { inTransaction } from '../../../db/index';
import { NPS_COUNTS, npsCountsOf } from '../survey/survey.repository';
import { enqueueMail, type OutgoingMail } from '../../../platform/mail/outbox.repository';

/** The SQL of the weekly digest: recipients, the figures, and the exactly-once claim. */
export function createDigestRepository(db: Kysely<Database>) {
  return {
    /** Active admins and managers who want the digest and have none for `semana` yet. */
    async pendingRecipients(semana: string) {
      const users = await db
        .selectFrom('usuarios as u')
        .select(['u.id', 'u.email', 'u.nome', 'u.papel'])
        .where('u.ativo', '=', 1)
        .where('u.resumo_semanal', '=', 1)
        .where('u.papel', 'in', ['admin', 'gerente'])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb
                .selectFrom('resumos_semanais as r')
                .select('r.id')
                .whereRef('r.usuario_id', '=', 'u.id')
                .where('r.semana', '=', semana),
            ),
          ),
        )
        .orderBy('u.id')
        .execute();
      if (!users.length) return [];
      const links = await db
        .selectFrom('usuarios_unidades')
        .select(['usuario_id', 'unidade_id'])
        .where(
          'usuario_id',
          'in',
          users.map((u) => u.id),
        )
        .execute();
      return users.map((u) => ({
        ...u,
        papel: u.papel === 'gerente' ? ('gerente' as const) : ('admin' as const),
        unidadeIds: links.filter((l) => l.usuario_id === u.id).map((l) => l.unidade_id),
      }));
    },

    async units() {
      return db.selectFrom('unidades').select(['id', 'nome', 'ativo']).orderBy('nome').execute();
    },

    /** Scored answers per unit in [fromIso, toIso): total, promoters, detractors. */
    async npsCounts(fromIso: string, toIso: string) {
      const rows = await db
        .selectFrom('respostas_nps as r')
        .select(['r.unidade_id', ...NPS_COUNTS])
        .where('r.criado_em', '>=', fromIso)
        .where('r.criado_em', '<', toIso)
        .groupBy('r.unidade_id')
        .execute();
      return rows.map((r) => ({ unidadeId: r.unidade_id, ...npsCountsOf(r) }));
    },

    /** Free messages received per unit in [fromIso, toIso). */
    async newMessages(fromIso: string, toIso: string) {
      const rows = await db
        .selectFrom('fale_aqui')
        .select((eb) => ['unidade_id', eb.fn.countAll<number>().as('n')])
        .where('criado_em', '>=', fromIso)
        .where('criado_em', '<', toIso)
        .groupBy('unidade_id')
        .execute();
      return rows.map((r) => ({ unidadeId: r.unidade_id, n: Number(r.n) }));
    },

    /** Open messages with no reply (every unit), oldest first. */
    async unanswered(limit: number) {
      return db
        .selectFrom('fale_aqui')
        .select(['id', 'unidade_id', 'unidade', 'nome_completo', 'anonimo', 'mensagem', 'criado_em'])
        .where('status', 'in', ['nova', 'lida'])
        .where('primeira_resposta_em', 'is', null)
        .orderBy('criado_em')
        .orderBy('id')
        .limit(limit)
        .execute();
    },

    /**
     * Claims (account, week) and queues the mail in ONE transaction. The UNIQUE pair
     * decides: when another instance claimed it first, nothing is written and false is
     * returned.
     */
    async claimAndQueue(usuarioId: number, semana: string, mail: OutgoingMail, now: string): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const claimed = await trx
          .insertInto('resumos_semanais')
          .values({ usuario_id: usuarioId, semana, criado_em: now })
          .onConflict((oc) => oc.columns(['usuario_id', 'semana']).doNothing())
          .returning('id')
          .executeTakeFirst();
        if (!claimed) return false;
        const outboxId = await enqueueMail(trx, mail);
        await trx
          .updateTable('resumos_semanais')
          .set({ fila_email_id: outboxId })
          .where('id', '=', claimed.id)
          .execute();
        return true;
      });
    },

    async preference(usuarioId: number): Promise<boolean> {
      const row = await db
        .selectFrom('usuarios')
        .select('resumo_semanal')
        .where('id', '=', usuarioId)
        .executeTakeFirst();
      return row?.resumo_semanal === 1;
    },

    async setPreference(usuarioId: number, on: boolean, now: string): Promise<void> {
      await db
        .updateTable('usuarios')
        .set({ resumo_semanal: on ? 1 : 0, atualizado_em: now })
        .where('id', '=', usuarioId)
        .execute();
    },
  };
}

export type DigestRepository = ReturnType<typeof createDigestRepository>;

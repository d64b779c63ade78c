// The SQL of the data subjects' requests (privacidade_solicitacoes) and of the "Meus dados"
// links and sessions (privacidade_acessos).
import { type Kysely, sql } from 'kysely';
import type { Database, PrivacidadeSolicitacoesTable } from '../../db/types';
import type { Insertable, Selectable } from 'kysely';
import { createAccessLinks } from './access-links.repository';

export type PrivacyRequest = Selectable<PrivacidadeSolicitacoesTable>;
export type NewPrivacyRequest = Insertable<PrivacidadeSolicitacoesTable>;

export function createRequestsRepository(db: Kysely<Database>) {
  return {
    // ---- links and sessions ----

    ...createAccessLinks(db, 'privacidade_acessos'),

    /** Links and sessions whose time is over (both), kept no longer. */
    async purgeLinks(now: string) {
      const r = await db
        .deleteFrom('privacidade_acessos')
        .where('expira_em', '<=', now)
        .where((eb) => eb.or([eb('sessao_expira_em', 'is', null), eb('sessao_expira_em', '<=', now)]))
        .executeTakeFirst();
      return Number(r.numDeletedRows);
    },

    // ---- requests ----

    /** Stores a request; a second one with the same envio_id (double click) stores nothing: null. */
    async insertRequest(row: NewPrivacyRequest): Promise<number | null> {
      const r = await db
        .insertInto('privacidade_solicitacoes')
        .values(row)
        .onConflict((oc) => oc.column('envio_id').doNothing())
        .returning('id')
        .executeTakeFirst();
      return r ? r.id : null;
    },

    findByEnvio(envioId: string) {
      return db.selectFrom('privacidade_solicitacoes').select('id').where('envio_id', '=', envioId).executeTakeFirst();
    },

    findRequest(id: number) {
      return db
        .selectFrom('privacidade_solicitacoes as s')
        .leftJoin('usuarios as a', 'a.id', 's.aberta_por')
        .leftJoin('usuarios as c', 'c.id', 's.concluida_por')
        .selectAll('s')
        .select(['a.nome as aberta_por_nome', 'c.nome as concluida_por_nome'])
        .where('s.id', '=', id)
        .executeTakeFirst();
    },

    async countRequests(status: string | null) {
      let q = db.selectFrom('privacidade_solicitacoes').select((eb) => eb.fn.countAll<number>().as('n'));
      if (status) q = q.where('status', '=', status);
      return Number((await q.executeTakeFirstOrThrow()).n);
    },

    /** The queue: open ones first, by deadline (overdue first); then the others, latest first. */
    listRequests(status: string | null, limit: number, offset: number) {
      let q = db
        .selectFrom('privacidade_solicitacoes')
        .select(['id', 'tipo', 'status', 'canal', 'titular', 'criado_em', 'prazo_em', 'concluida_em']);
      if (status) q = q.where('status', '=', status);
      return q
        .orderBy(sql`case when status = 'aberta' then 0 else 1 end`)
        .orderBy(sql`case when status = 'aberta' then prazo_em else '' end`)
        .orderBy('criado_em', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    async setResult(id: number, resultado: string) {
      await db.updateTable('privacidade_solicitacoes').set({ resultado }).where('id', '=', id).execute();
    },

    /** Closes an open request; false when it was no longer open (someone else closed it). */
    async closeRequest(
      id: number,
      change: { status: 'concluida' | 'recusada'; by: number | null; now: string; motivo: string | null },
      resultado: string | null = null,
    ) {
      const r = await db
        .updateTable('privacidade_solicitacoes')
        .set({
          status: change.status,
          concluida_por: change.by,
          concluida_em: change.now,
          motivo: change.motivo,
          atualizado_em: change.now,
          ...(resultado ? { resultado } : {}),
        })
        .where('id', '=', id)
        .where('status', '=', 'aberta')
        .executeTakeFirst();
      return Number(r.numUpdatedRows) === 1;
    },
  };
}
export type RequestsRepository = ReturnType<typeof createRequestsRepository>;

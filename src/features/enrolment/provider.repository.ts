// The SQL of payments through a provider (Asaas): finding our payment row of a provider's
// charge, monthly payments as the subscription makes them, inadimplência, what the
// reconciliation asks the provider again, the daily differences and its lease.
import type { Insertable, Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { Enrolment, Payment } from './enrolment.repository';

/** The lease row of the daily comparison in tarefas_agendadas. */
export const DAILY_TASK = 'pagamentos_conciliacao_diaria';

export function createProviderPaymentsRepository(db: Kysely<Database>) {
  return {
    async byProviderId(provedorId: string): Promise<Payment | undefined> {
      return db
        .selectFrom('matriculas_pagamentos')
        .selectAll()
        .where('provedor_id', '=', provedorId)
        .executeTakeFirst();
    },
    async byReference(referencia: string): Promise<Payment | undefined> {
      return db.selectFrom('matriculas_pagamentos').selectAll().where('referencia', '=', referencia).executeTakeFirst();
    },
    /** The provider's id of a payment, kept the first time it is learnt. */
    async setProviderId(id: number, provedorId: string): Promise<void> {
      await db
        .updateTable('matriculas_pagamentos')
        .set({ provedor_id: provedorId })
        .where('id', '=', id)
        .where('provedor_id', 'is', null)
        .execute();
    },
    async enrolmentBySubscription(subscriptionId: string): Promise<Enrolment | undefined> {
      return db
        .selectFrom('matriculas')
        .selectAll()
        .where('assinatura_provedor_id', '=', subscriptionId)
        .executeTakeFirst();
    },
    /** A monthly payment of the subscription, stored once per reference: the row (new or already there). */
    async renewal(row: Insertable<Database['matriculas_pagamentos']>): Promise<Payment> {
      await db
        .insertInto('matriculas_pagamentos')
        .values(row)
        .onConflict((oc) => oc.column('referencia').doNothing())
        .execute();
      return db
        .selectFrom('matriculas_pagamentos')
        .selectAll()
        .where('referencia', '=', row.referencia)
        .executeTakeFirstOrThrow();
    },
    async setCustomer(enrolmentId: number, customerId: string): Promise<void> {
      await db
        .updateTable('matriculas')
        .set({ cliente_provedor_id: customerId })
        .where('id', '=', enrolmentId)
        .where('cliente_provedor_id', 'is', null)
        .execute();
    },
    /**
     * Marks the enrolment's subscription as being created by this caller (`claim` holds the
     * time, so marks compare as text): only when there is none, or the mark is older than
     * `staleBefore` (its instance died). True when this call took it.
     */
    async claimSubscription(enrolmentId: number, claim: string, staleBefore: string): Promise<boolean> {
      const res = await db
        .updateTable('matriculas')
        .set({ assinatura_provedor_id: claim })
        .where('id', '=', enrolmentId)
        .where((eb) =>
          eb.or([
            eb('assinatura_provedor_id', 'is', null),
            eb.and([eb('assinatura_provedor_id', 'like', 'criando:%'), eb('assinatura_provedor_id', '<', staleBefore)]),
          ]),
        )
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Keeps `mark` (a Pix Automático authorization waiting) while the enrolment has no subscription. */
    async markSubscription(enrolmentId: number, mark: string): Promise<void> {
      await db
        .updateTable('matriculas')
        .set({ assinatura_provedor_id: mark })
        .where('id', '=', enrolmentId)
        .where('assinatura_provedor_id', 'is', null)
        .execute();
    },
    /** Drops `mark`, only while it is still there; true when this call did. */
    async clearSubscription(enrolmentId: number, mark: string): Promise<boolean> {
      const res = await db
        .updateTable('matriculas')
        .set({ assinatura_provedor_id: null })
        .where('id', '=', enrolmentId)
        .where('assinatura_provedor_id', '=', mark)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** Replaces this caller's mark with the subscription's id; false when the mark was taken over. */
    async setSubscription(enrolmentId: number, claim: string, subscriptionId: string): Promise<boolean> {
      const res = await db
        .updateTable('matriculas')
        .set({ assinatura_provedor_id: subscriptionId })
        .where('id', '=', enrolmentId)
        .where('assinatura_provedor_id', '=', claim)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    /** The charge of a row becomes another (the one kept of two made at once). */
    async replaceProviderId(id: number, from: string, to: string): Promise<void> {
      await db
        .updateTable('matriculas_pagamentos')
        .set({ provedor_id: to })
        .where('id', '=', id)
        .where('provedor_id', '=', from)
        .execute();
    },
    /** Marks the enrolment inadimplente from `at`, only if it is not already: true when this call did. */
    async markDefaulting(enrolmentId: number, at: string): Promise<boolean> {
      const res = await db
        .updateTable('matriculas')
        .set({ inadimplente_desde: at, atualizado_em: at })
        .where('id', '=', enrolmentId)
        .where('inadimplente_desde', 'is', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async clearDefaulting(enrolmentId: number, at: string): Promise<boolean> {
      const res = await db
        .updateTable('matriculas')
        .set({ inadimplente_desde: null, atualizado_em: at })
        .where('id', '=', enrolmentId)
        .where('inadimplente_desde', 'is not', null)
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async setAttention(enrolmentId: number, text: string, at: string): Promise<void> {
      await db
        .updateTable('matriculas')
        .set({ atencao: text.slice(0, 300), atualizado_em: at })
        .where('id', '=', enrolmentId)
        .execute();
    },
    /** Monthly payments unpaid past their due day `dueOnOrBefore`: the enrolments not yet inadimplente. */
    async overdueEnrolments(dueOnOrBefore: string, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('matriculas_pagamentos as p')
        .innerJoin('matriculas as m', 'm.id', 'p.matricula_id')
        .select('m.id')
        .distinct()
        .where('p.tipo', '=', 'mensalidade')
        .where('p.status', 'in', ['pendente', 'atrasado'])
        .where('p.vencimento', '<=', dueOnOrBefore)
        .where('m.inadimplente_desde', 'is', null)
        .where('m.status', 'in', ['ativa', 'cancelamento_solicitado'])
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
    /** Whether a monthly payment of the enrolment is still unpaid past `dueOnOrBefore`. */
    async stillOverdue(enrolmentId: number, dueOnOrBefore: string): Promise<boolean> {
      const row = await db
        .selectFrom('matriculas_pagamentos')
        .select('id')
        .where('matricula_id', '=', enrolmentId)
        .where('tipo', '=', 'mensalidade')
        .where('status', 'in', ['pendente', 'atrasado'])
        .where('vencimento', '<=', dueOnOrBefore)
        .limit(1)
        .executeTakeFirst();
      return Boolean(row);
    },
    /** Charges of the provider still unpaid and not asked about since `before`, oldest first. */
    async stale(provedor: string, before: string, limit: number) {
      return db
        .selectFrom('matriculas_pagamentos')
        .select(['id', 'matricula_id', 'provedor_id', 'referencia', 'conferido_em', 'criado_em'])
        .where('provedor', '=', provedor)
        .where('status', 'in', ['pendente', 'atrasado'])
        .where('tipo', '!=', 'reembolso')
        .where((eb) =>
          eb.or([
            eb.and([eb('conferido_em', 'is', null), eb('criado_em', '<', before)]),
            eb('conferido_em', '<', before),
          ]),
        )
        .orderBy('criado_em')
        .limit(limit)
        .execute();
    },
    async countStale(provedor: string, before: string): Promise<number> {
      const r = await db
        .selectFrom('matriculas_pagamentos')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('provedor', '=', provedor)
        .where('status', 'in', ['pendente', 'atrasado'])
        .where('tipo', '!=', 'reembolso')
        .where((eb) =>
          eb.or([
            eb.and([eb('conferido_em', 'is', null), eb('criado_em', '<', before)]),
            eb('conferido_em', '<', before),
          ]),
        )
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Takes a stale charge for one check (of all instances, one wins): true when this call did. */
    async claimCheck(id: number, seen: string | null, now: string): Promise<boolean> {
      let q = db.updateTable('matriculas_pagamentos').set({ conferido_em: now }).where('id', '=', id);
      q = seen === null ? q.where('conferido_em', 'is', null) : q.where('conferido_em', '=', seen);
      return Number((await q.executeTakeFirst()).numUpdatedRows) === 1;
    },
    /** Expired charges of the provider not checked since they expired (the expiry sets atualizado_em). */
    expiredCharges(provedor: string, limit: number) {
      return db
        .selectFrom('matriculas_pagamentos')
        .select(['id', 'matricula_id', 'provedor_id', 'conferido_em'])
        .where('provedor', '=', provedor)
        .where('status', '=', 'expirado')
        .where('provedor_id', 'is not', null)
        .where((eb) => eb.or([eb('conferido_em', 'is', null), eb('conferido_em', '<', eb.ref('atualizado_em'))]))
        .limit(limit)
        .execute();
    },
    /** Refunds the provider makes that are not done yet. */
    async pendingRefundEnrolments(provedor: string, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('matriculas_pagamentos')
        .select('matricula_id')
        .distinct()
        .where('provedor', '=', provedor)
        .where('tipo', '=', 'reembolso')
        .where('status', '=', 'pendente')
        .limit(limit)
        .execute();
      return rows.map((r) => r.matricula_id);
    },
    /** Active enrolments of the provider whose subscription was not created (or its creator died). */
    async withoutSubscription(provedor: string, staleBefore: string, limit: number): Promise<number[]> {
      const rows = await db
        .selectFrom('matriculas')
        .select('id')
        .where('provedor', '=', provedor)
        .where('status', '=', 'ativa')
        .where((eb) =>
          eb.or([
            eb('assinatura_provedor_id', 'is', null),
            eb.and([eb('assinatura_provedor_id', 'like', 'criando:%'), eb('assinatura_provedor_id', '<', staleBefore)]),
            eb('assinatura_provedor_id', 'like', 'automatico:%'),
          ]),
        )
        .limit(limit)
        .execute();
      return rows.map((r) => r.id);
    },
    /** Our rows the provider named paid between two instants, or whose charge is one of `ids`. */
    async paidBetween(provedor: string, from: string, to: string, ids: string[]) {
      let q = db
        .selectFrom('matriculas_pagamentos')
        .select(['id', 'provedor_id', 'referencia', 'valor_centavos', 'status', 'pago_em'])
        .where('provedor', '=', provedor)
        .where('tipo', '!=', 'reembolso');
      q = q.where((eb) =>
        ids.length
          ? eb.or([eb.and([eb('pago_em', '>=', from), eb('pago_em', '<', to)]), eb('provedor_id', 'in', ids)])
          : eb.and([eb('pago_em', '>=', from), eb('pago_em', '<', to)]),
      );
      return q.execute();
    },
    async addDifference(row: Insertable<Database['pagamentos_divergencias']>): Promise<void> {
      await db
        .insertInto('pagamentos_divergencias')
        .values(row)
        .onConflict((oc) => oc.columns(['dia', 'provedor_id', 'tipo']).doNothing())
        .execute();
    },
    differences(limit: number) {
      return db
        .selectFrom('pagamentos_divergencias')
        .selectAll()
        .orderBy('dia', 'desc')
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** Enrolments staff must look at (a chargeback). */
    attention(limit: number) {
      return db
        .selectFrom('matriculas')
        .select(['id', 'nome', 'unidade_nome', 'atencao', 'atualizado_em'])
        .where('atencao', 'is not', null)
        .orderBy('atualizado_em', 'desc')
        .limit(limit)
        .execute();
    },

    async ensureTask(dueIso: string): Promise<void> {
      await db
        .insertInto('tarefas_agendadas')
        .values({ nome: DAILY_TASK, proxima_em: dueIso })
        .onConflict((oc) => oc.column('nome').doNothing())
        .execute();
    },
    /** The daily comparison's lease when due and free (one instance of all). */
    async claimTask(now: string, until: string, owner: string): Promise<boolean> {
      const res = await db
        .updateTable('tarefas_agendadas')
        .set({ bloqueado_ate: until, dono: owner })
        .where('nome', '=', DAILY_TASK)
        .where('proxima_em', '<=', now)
        .where((eb) => eb.or([eb('bloqueado_ate', 'is', null), eb('bloqueado_ate', '<=', now)]))
        .executeTakeFirst();
      return Number(res.numUpdatedRows) === 1;
    },
    async finishTask(owner: string, run: { at: string; next: string; error: string | null }): Promise<void> {
      await db
        .updateTable('tarefas_agendadas')
        .set({
          bloqueado_ate: null,
          dono: null,
          proxima_em: run.next,
          ultimo_erro: run.error,
          ...(run.error ? {} : { ultima_em: run.at }),
        })
        .where('nome', '=', DAILY_TASK)
        .where('dono', '=', owner)
        .execute();
    },
    task() {
      return db.selectFrom('tarefas_agendadas').selectAll().where('nome', '=', DAILY_TASK).executeTakeFirst();
    },
  };
}

export type ProviderPaymentsRepository = ReturnType<typeof createProviderPaymentsRepository>;

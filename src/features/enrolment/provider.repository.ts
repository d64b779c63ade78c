// The SQL of payments through a provider (Asaas): finding our payment row of a provider's
// charge, monthly payments as the subscription makes them, inadimplência, what the
// reconciliation asks the provider again, the daily differences and its lease.
import { type Insertable, type Kysely, sql } from 'kysely';
import { createTaskLease } from '../../platform/jobs/task-lease.repository';
import { createUpdateWhile } from '../../platform/sql/update-while.repository';
import type { Database } from '../../db/types';
import type { Enrolment, Payment } from './enrolment.repository';

/** The lease row of the daily comparison in tarefas_agendadas. */
export const DAILY_TASK = 'pagamentos_conciliacao_diaria';

/** When the open charges were last asked about, to be asked again (ISO instants; `today` a São Paulo day). */
export interface StaleCutoffs {
  firstBefore: string;
  dueBefore: string;
  today: string;
}

export function createProviderPaymentsRepository(db: Kysely<Database>) {
  const task = createTaskLease(db, DAILY_TASK);
  const updateWhile = createUpdateWhile(db);
  const paymentWhere = (column: 'provedor_id' | 'referencia', value: string): Promise<Payment | undefined> =>
    db.selectFrom('matriculas_pagamentos').selectAll().where(column, '=', value).executeTakeFirst();
  /** When a charge was last asked about, or made if never. */
  const lastSeen = sql<string>`coalesce(conferido_em, criado_em)`;
  /**
   * Open charges due for a check: a first payment (the member waits for the activation) once
   * `firstBefore` has passed since it was made or last checked; any other charge only once it
   * is due (its day on or before `today`), and then each time `dueBefore` has passed.
   */
  const staleCharges = (provedor: string, due: StaleCutoffs) =>
    db
      .selectFrom('matriculas_pagamentos')
      .where('provedor', '=', provedor)
      .where('status', 'in', ['pendente', 'atrasado'])
      .where('tipo', '!=', 'reembolso')
      .where((eb) =>
        eb.or([
          eb.and([eb('tipo', '=', 'primeiro'), eb(lastSeen, '<', due.firstBefore)]),
          eb.and([
            eb('tipo', '!=', 'primeiro'),
            eb.or([eb('vencimento', 'is', null), eb('vencimento', '<=', due.today)]),
            eb(lastSeen, '<', due.dueBefore),
          ]),
        ]),
      );
  /** Stores a charge unless its reference is stored already (by any instance): true when this call did. */
  async function addOnce(row: Insertable<Database['matriculas_pagamentos']>): Promise<boolean> {
    const added = await db
      .insertInto('matriculas_pagamentos')
      .values(row)
      .onConflict((oc) => oc.column('referencia').doNothing())
      .returning('id')
      .execute();
    return added.length > 0;
  }
  return {
    byProviderId: (provedorId: string) => paymentWhere('provedor_id', provedorId),
    byReference: (referencia: string) => paymentWhere('referencia', referencia),
    /** The provider's id of a payment, kept the first time it is learnt. */
    setProviderId: (id: number, provedorId: string) =>
      updateWhile('matriculas_pagamentos', id, ['provedor_id', 'is', null], { provedor_id: provedorId }),
    async enrolmentBySubscription(subscriptionId: string): Promise<Enrolment | undefined> {
      return db
        .selectFrom('matriculas')
        .selectAll()
        .where('assinatura_provedor_id', '=', subscriptionId)
        .executeTakeFirst();
    },
    /** A monthly payment of the subscription, stored once per reference: the row (new or already there). */
    async renewal(row: Insertable<Database['matriculas_pagamentos']>): Promise<Payment> {
      await addOnce(row);
      return db
        .selectFrom('matriculas_pagamentos')
        .selectAll()
        .where('referencia', '=', row.referencia)
        .executeTakeFirstOrThrow();
    },
    addOnce,
    setCustomer: (enrolmentId: number, customerId: string) =>
      updateWhile('matriculas', enrolmentId, ['cliente_provedor_id', 'is', null], { cliente_provedor_id: customerId }),
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
    markSubscription: (enrolmentId: number, mark: string) =>
      updateWhile('matriculas', enrolmentId, ['assinatura_provedor_id', 'is', null], { assinatura_provedor_id: mark }),
    /** Drops `mark`, only while it is still there; true when this call did. */
    clearSubscription: (enrolmentId: number, mark: string) =>
      updateWhile('matriculas', enrolmentId, ['assinatura_provedor_id', '=', mark], { assinatura_provedor_id: null }),
    /** Replaces this caller's mark with the subscription's id; false when the mark was taken over. */
    setSubscription: (enrolmentId: number, claim: string, subscriptionId: string) =>
      updateWhile('matriculas', enrolmentId, ['assinatura_provedor_id', '=', claim], {
        assinatura_provedor_id: subscriptionId,
      }),
    /** The charge of a row becomes another (the one kept of two made at once). */
    replaceProviderId: (id: number, from: string, to: string) =>
      updateWhile('matriculas_pagamentos', id, ['provedor_id', '=', from], { provedor_id: to }),
    /** Marks the enrolment inadimplente from `at`, only if it is not already: true when this call did. */
    markDefaulting: (enrolmentId: number, at: string) =>
      updateWhile('matriculas', enrolmentId, ['inadimplente_desde', 'is', null], {
        inadimplente_desde: at,
        atualizado_em: at,
      }),
    clearDefaulting: (enrolmentId: number, at: string) =>
      updateWhile('matriculas', enrolmentId, ['inadimplente_desde', 'is not', null], {
        inadimplente_desde: null,
        atualizado_em: at,
      }),
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
    /** The charges to check this round: first payments first, then the least recently checked. */
    stale(provedor: string, due: StaleCutoffs, limit: number) {
      return staleCharges(provedor, due)
        .select(['id', 'matricula_id', 'provedor_id', 'referencia', 'conferido_em', 'criado_em'])
        .orderBy(sql`case when tipo = 'primeiro' then 0 else 1 end`)
        .orderBy(lastSeen)
        .limit(limit)
        .execute();
    },
    async countStale(provedor: string, due: StaleCutoffs): Promise<number> {
      const r = await staleCharges(provedor, due)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /** Takes a stale charge for one check (of all instances, one wins): true when this call did. */
    claimCheck: (id: number, seen: string | null, now: string) =>
      updateWhile('matriculas_pagamentos', id, ['conferido_em', seen === null ? 'is' : '=', seen], {
        conferido_em: now,
      }),
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
    /**
     * Enrolments billed by a subscription of the provider whose paid period has ended, with no
     * monthly row open: the charge for the next month should exist by now, so its events were
     * lost (or the provider is late). Ordered by id, from `afterId`, so a sweep pages through them.
     */
    async lapsedSubscriptions(provedor: string, today: string, afterId: number, limit: number) {
      return db
        .selectFrom('matriculas as m')
        .select(['m.id', 'm.assinatura_provedor_id', 'm.pago_ate'])
        .where('m.provedor', '=', provedor)
        .where('m.status', 'in', ['ativa', 'cancelamento_solicitado'])
        .where('m.assinatura_provedor_id', 'is not', null)
        .where('m.assinatura_provedor_id', 'not like', 'criando:%')
        .where('m.assinatura_provedor_id', 'not like', 'automatico:%')
        .where('m.pago_ate', '<', today)
        .where((eb) =>
          eb.or([
            eb('m.cancelamento_efetivo_em', 'is', null),
            eb('m.pago_ate', '<', eb.ref('m.cancelamento_efetivo_em')),
          ]),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('matriculas_pagamentos as p')
                .select('p.id')
                .whereRef('p.matricula_id', '=', 'm.id')
                .where('p.tipo', '=', 'mensalidade')
                .where('p.status', 'in', ['pendente', 'atrasado']),
            ),
          ),
        )
        .where('m.id', '>', afterId)
        .orderBy('m.id')
        .limit(limit)
        .execute();
    },
    /** Enrolments in force through the provider with an annual fee in one of `months`, by id from `afterId`. */
    async annualFeeEnrolments(provedor: string, months: number[], afterId: number, limit: number) {
      return db
        .selectFrom('matriculas')
        .select([
          'id',
          'status',
          'taxa_anual_centavos',
          'taxa_anual_mes',
          'dia_vencimento',
          'aceito_em',
          'cancelamento_efetivo_em',
        ])
        .where('provedor', '=', provedor)
        .where('status', 'in', ['ativa', 'cancelamento_solicitado'])
        .where('taxa_anual_centavos', '>', 0)
        .where('taxa_anual_mes', 'in', months)
        .where('id', '>', afterId)
        .orderBy('id')
        .limit(limit)
        .execute();
    },
    /** The references of the annual fees already made for these enrolments. */
    async annualFeeReferences(enrolmentIds: number[]): Promise<Set<string>> {
      if (!enrolmentIds.length) return new Set();
      const rows = await db
        .selectFrom('matriculas_pagamentos')
        .select('referencia')
        .where('matricula_id', 'in', enrolmentIds)
        .where('tipo', '=', 'anuidade')
        .execute();
      return new Set(rows.map((r) => r.referencia));
    },
    /** Annual fees stored but not yet charged at the provider (the charge failed or was cut short). */
    unchargedAnnualFees(provedor: string, limit: number) {
      return db
        .selectFrom('matriculas_pagamentos')
        .selectAll()
        .where('provedor', '=', provedor)
        .where('tipo', '=', 'anuidade')
        .where('status', '=', 'pendente')
        .where('provedor_id', 'is', null)
        .orderBy('id')
        .limit(limit)
        .execute();
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

    ensureTask: task.ensure,
    claimTask: task.claim,
    finishTask: task.finish,
    task: task.find,
  };
}

export type ProviderPaymentsRepository = ReturnType<typeof createProviderPaymentsRepository>;

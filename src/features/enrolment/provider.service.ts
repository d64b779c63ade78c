// Enrolments paid through a provider that confirms by itself (Asaas): what its events and
// the reconciliation do to our payment rows, the monthly subscription after the first
// payment, inadimplência, refunds of a withdrawal, the end of the subscription on a
// cancellation, and the daily comparison of received payments. Every step is safe to
// repeat and in any order: rows only move forward, activation goes through the one path
// staff use too (settlePaid), and each create at the provider is looked up first.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import { formatBRL } from '../../lib/text';
import { addDays, formatDay, saoPauloDay, saoPauloDayStartIso } from '../../lib/time';
import { annualFeeMonths, annualFeesDue } from './terms';
import { recordPayment } from '../../platform/metrics/metrics';
import { type PaymentProvider, QR } from '../../platform/payments/index';
import type { AsaasAuthorization, AsaasPayment } from '../../platform/payments/asaas/client';
import type { PaymentEventsRepository } from '../../platform/payments/events.repository';
import { type ChargeState, chargeState, toCents } from '../../platform/payments/asaas/status';
import type { Enrolment, Payment } from './enrolment.repository';
import type { EnrolmentRepos, EnrolmentService } from './enrolment.service';
import type { ProviderPaymentsRepository } from './provider.repository';

export interface ProviderRepos extends EnrolmentRepos {
  pay: ProviderPaymentsRepository;
}

/** The mark of an instance creating a subscription, with the time; older than CLAIM_MS, it is taken over. */
const CLAIM = 'criando:';
const CLAIM_MS = 2 * 60_000;
/** The mark of a Pix Automático authorization waiting to make the subscription: `automatico:<id>`. */
const AUTO = 'automatico:';
/** Marks that are not a subscription's id. */
const isMark = (v: string | null): boolean => Boolean(v && (v.startsWith(CLAIM) || v.startsWith(AUTO)));
/** The reconciliation's cut-offs at `now` (repo.pay.stale). */
export const staleCutoffs = (now: Date) => ({
  firstBefore: nowIso(new Date(now.getTime() - RECONCILE_AFTER_MS)),
  dueBefore: nowIso(new Date(now.getTime() - RECONCILE_DUE_AFTER_MS)),
  today: saoPauloDay(now),
});
const staleClaim = (now: Date) => `${CLAIM}${nowIso(new Date(now.getTime() - CLAIM_MS))}`;
/** A pending first payment is asked about again after this without news. */
export const RECONCILE_AFTER_MS = 10 * 60_000;
/**
 * Any other open charge is asked about only once due, and then at this pace: until its day
 * nothing is late, and money received early is applied by the daily comparison.
 */
export const RECONCILE_DUE_AFTER_MS = 60 * 60_000;
/** Processed webhook events are kept this long. */
const EVENTS_KEPT_MS = 90 * 86_400_000;
const BATCH = 100;

/** Event types that say something about one payment; the others are kept and acknowledged. */
const PAYMENT_EVENT = /^PAYMENT_/;
const AUTHORIZATION_EVENT = /^PIX_AUTOMATIC_RECURRING_AUTHORIZATION_/;

export interface ProviderDeps {
  provider: PaymentProvider;
  enrolments: Pick<EnrolmentService, 'settlePaid'>;
  config: Pick<Config, 'publicUrl' | 'brandName'> & { payments: Pick<Config['payments'], 'overdueDays'> };
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** the stored webhook events (platform/payments) */
  events: Pick<PaymentEventsRepository, 'overview' | 'unsettled' | 'retry' | 'prune'>;
  /** the address the provider's webhook must call */
  webhookUrl: string;
}

export function createProviderPaymentsService(deps: ProviderDeps, repo: Transactional<ProviderRepos>) {
  const { provider, config, log } = deps;
  const asaas = provider.asaas;
  if (!asaas) throw new Error('provider payments need a provider with an API (asaas)');
  const name = provider.name;

  const historyRow = (e: Pick<Enrolment, 'id' | 'status'>, detalhe: string, at: string) => ({
    matricula_id: e.id,
    de: e.status,
    para: e.status,
    origem: 'provedor',
    usuario_id: null,
    detalhe: detalhe.slice(0, 300),
    criado_em: at,
  });

  /** The monthly payment row of a subscription's charge (made once per due month). */
  async function renewalRow(p: AsaasPayment, at: string): Promise<Payment | undefined> {
    if (!p.subscription) return undefined;
    // By the subscription's id, or (its first charge may come before the id is kept here) by
    // the enrolment's code, the subscription's externalReference.
    let e = await repo.pay.enrolmentBySubscription(p.subscription);
    if (!e && p.externalReference) {
      const byCode = await repo.byCode(p.externalReference);
      const kept = byCode?.assinatura_provedor_id;
      if (byCode && (!kept || isMark(kept) || kept === p.subscription)) e = byCode;
    }
    if (!e) return undefined;
    const due = p.dueDate ?? saoPauloDay(new Date(at));
    return repo.pay.renewal({
      matricula_id: e.id,
      tipo: 'mensalidade',
      valor_centavos: toCents(p.value),
      status: 'pendente',
      provedor: name,
      provedor_id: p.id,
      referencia: `MAT${e.id}S${due.slice(0, 7).replace('-', '')}`,
      vencimento: due,
      criado_em: at,
      atualizado_em: at,
    });
  }

  /** Our row of a provider's charge: by its id, our reference, or the subscription that made it. */
  async function rowOf(p: AsaasPayment, at: string): Promise<Payment | undefined> {
    const byId = await repo.pay.byProviderId(p.id);
    if (byId) return byId;
    // Pix Automático's first payment names the QR code that made it, not our reference.
    if (p.pixQrCodeId) {
      const byQr = await repo.pay.byProviderId(`${QR}${p.pixQrCodeId}`);
      if (byQr) return byQr;
    }
    if (p.externalReference) {
      const byRef = await repo.pay.byReference(p.externalReference);
      if (byRef) {
        await repo.pay.setProviderId(byRef.id, p.id);
        return { ...byRef, provedor_id: byRef.provedor_id ?? p.id };
      }
    }
    return renewalRow(p, at);
  }

  /** Marks the member inadimplente when a monthly payment is overdue for the configured days. */
  async function judgeDefault(e: Enrolment, now: Date): Promise<void> {
    const at = nowIso(now);
    const cutoff = addDays(saoPauloDay(now), -config.payments.overdueDays);
    const overdue = await repo.pay.stillOverdue(e.id, cutoff);
    await repo.transaction(async (tx) => {
      if (overdue) {
        if (await tx.pay.markDefaulting(e.id, at)) {
          await tx.addHistory(
            historyRow(e, `inadimplente: mensalidade vencida há ${config.payments.overdueDays} dia(s) ou mais`, at),
          );
          log?.info({ enrolmentId: e.id }, 'member marked inadimplente');
        }
      } else if (await tx.pay.clearDefaulting(e.id, at)) {
        await tx.addHistory(historyRow(e, 'em dia: mensalidades atrasadas pagas', at));
      }
    });
  }

  /** Moves a row forward to `to` (never back); true when this call did. */
  async function move(row: Payment, from: string[], to: string, patch: { pago_em?: string }, at: string) {
    const moved = await repo.settlePayment(row.id, from, to, patch, at);
    if (moved) recordPayment(to);
    return moved;
  }

  /**
   * Applies what the provider says of one charge. `type` is the event's when it came by
   * webhook; the charge's own status decides otherwise.
   */
  async function applyPayment(p: AsaasPayment, type: string | null, now = new Date()): Promise<void> {
    const at = nowIso(now);
    const row = await rowOf(p, at);
    if (!row) {
      log?.warn({ providerPayment: p.id, type }, 'provider payment matches no enrolment payment; kept, not acted on');
      return;
    }
    const e = await repo.byId(row.matricula_id);
    if (!e) return;
    let state: ChargeState = chargeState(p);
    if (type === 'PAYMENT_DELETED' && state !== 'pago' && state !== 'estornado') state = 'cancelado';
    if (type === 'PAYMENT_CHARGEBACK_REQUESTED' || type === 'PAYMENT_CHARGEBACK_DISPUTE') state = 'contestado';
    if (type === 'PAYMENT_REFUNDED') state = 'estornado';

    if (row.tipo === 'reembolso') return;
    if (row.provedor_id && row.provedor_id !== p.id && row.tipo !== 'mensalidade') {
      // Another charge of the same reference (two made at once): only its payment matters.
      if (state !== 'pago') return;
      if (row.status === 'pago' || row.status === 'estornado') {
        // The same reference paid twice (two charges made at once): the second goes back.
        await asaas!.refund(p.id, `Pagamento em duplicidade, ref. ${row.referencia}`);
        await repo.addHistory(historyRow(e, `${row.referencia} pago duas vezes: o segundo estornado pelo ${name}`, at));
        recordPayment('estornado');
        return;
      }
      await repo.pay.replaceProviderId(row.id, row.provedor_id, p.id);
    }
    if (state === 'pago' && row.status === 'cancelado') {
      // Paid after the person withdrew (the charge was still open at the provider): given back at once.
      await asaas!.refund(p.id, `Pagamento após a desistência, ref. ${row.referencia}`);
      if (await move(row, ['cancelado'], 'estornado', { pago_em: at }, at))
        await repo.addHistory(historyRow(e, `${row.referencia} pago após a desistência: estornado pelo ${name}`, at));
      return;
    }
    switch (state) {
      case 'pago': {
        const paidAt = p.clientPaymentDate ?? p.paymentDate ?? p.confirmedDate;
        const settled = await deps.enrolments.settlePaid(
          e,
          row.id,
          { origem: 'provedor', detalhe: `pagamento recebido pelo ${name}${paidAt ? ` em ${paidAt}` : ''}` },
          now,
        );
        if (settled) recordPayment('pago');
        if (row.tipo === 'primeiro') await ensureSubscription(e.id, now);
        if (row.tipo === 'mensalidade') {
          const fresh = await repo.byId(e.id);
          if (fresh?.inadimplente_desde) await judgeDefault(fresh, now);
        }
        return;
      }
      case 'atrasado':
        if (await move(row, ['pendente'], 'atrasado', {}, at)) {
          await repo.addHistory(historyRow(e, `${row.tipo} ${row.referencia} vencida sem pagamento`, at));
        }
        if (row.tipo === 'mensalidade') await judgeDefault(e, now);
        return;
      case 'estornado':
        await repo.transaction(async (tx) => {
          if (await tx.settlePayment(row.id, ['pago', 'pendente', 'atrasado'], 'estornado', {}, at)) {
            recordPayment('estornado');
            for (const r of await tx.payments(e.id))
              if (r.tipo === 'reembolso' && r.status === 'pendente')
                await tx.settlePayment(r.id, ['pendente'], 'pago', { pago_em: at }, at);
            await tx.addHistory(historyRow(e, `${row.referencia} estornado pelo ${name}`, at));
          }
        });
        return;
      case 'cancelado':
        if (await move(row, ['pendente', 'atrasado'], 'cancelado', {}, at))
          await repo.addHistory(historyRow(e, `cobrança ${row.referencia} removida no ${name}`, at));
        return;
      case 'contestado':
        await repo.transaction(async (tx) => {
          const text =
            `Contestação (chargeback) de ${formatBRL(row.valor_centavos)}, ref. ${row.referencia}: ` +
            `responder no ${name}`;
          if (e.atencao === text) return;
          await tx.pay.setAttention(e.id, text, at);
          await tx.addHistory(historyRow(e, `contestação do pagamento ${row.referencia}`, at));
          recordPayment('contestado');
        });
        return;
      default:
        // Created, updated, awaiting analysis: nothing changes on our side.
        if (!row.provedor_id) await repo.pay.setProviderId(row.id, p.id);
    }
  }

  /**
   * What a Pix Automático authorization says: active with its subscription, it becomes the
   * enrolment's monthly billing (unless another subscription bills already: then it is
   * called off, never two); refused, expired or cancelled, the monthly payments go back to an
   * ordinary subscription (made by the reconciliation).
   */
  async function applyAuthorization(a: AsaasAuthorization, now = new Date()): Promise<void> {
    if (!a.contractId) return;
    const row = await repo.pay.byReference(a.contractId);
    const e = row ? await repo.byId(row.matricula_id) : undefined;
    if (!e) return;
    const at = nowIso(now);
    const mark = `${AUTO}${a.id}`;
    const kept = e.assinatura_provedor_id;
    if (a.status === 'ACTIVE' && a.subscriptionId) {
      if (kept === a.subscriptionId) return;
      // Another instance making an ordinary subscription (a claim) wins: this one is called off.
      const mine = kept === mark || kept === null;
      // Its payment not applied yet: ensureSubscription takes the subscription once it is.
      if (mine && (e.status === 'aguardando_pagamento' || e.status === 'expirada')) return;
      if (mine && e.status === 'ativa') {
        if (kept === null) await repo.pay.markSubscription(e.id, mark);
        if (await repo.pay.setSubscription(e.id, mark, a.subscriptionId))
          await repo.addHistory(historyRow(e, 'mensalidades por Pix Automático, autorizado no primeiro pagamento', at));
        return;
      }
      // Billed otherwise (the card was paid, or the enrolment ended): the authorization goes.
      await asaas!.cancelSubscription(a.subscriptionId);
      await asaas!.cancelAuthorization(a.id);
      await repo.addHistory(historyRow(e, 'Pix Automático cancelado: a matrícula já é cobrada de outra forma', at));
      return;
    }
    if (/^(CANCELLED|REFUSED|EXPIRED)$/.test(a.status)) {
      // Its subscription could make no more Pix debits: removed, so only one ever bills.
      if (a.subscriptionId) await asaas!.cancelSubscription(a.subscriptionId);
      const dropped =
        (kept === mark && (await repo.pay.clearSubscription(e.id, mark))) ||
        (a.subscriptionId && kept === a.subscriptionId && (await repo.pay.clearSubscription(e.id, a.subscriptionId)));
      if (dropped && e.status === 'ativa')
        await repo.addHistory(historyRow(e, 'Pix Automático cancelado: mensalidades pela fatura do Asaas', at));
    }
  }

  /** The person gives up Pix Automático's QR code for the card: the code called off first. */
  async function chooseCard(enrolmentId: number, paymentId: number): Promise<string | null> {
    const e = await repo.byId(enrolmentId);
    const row = (await repo.payments(enrolmentId)).find((p) => p.id === paymentId);
    if (!e || !row || row.status !== 'pendente') return null;
    if (e.assinatura_provedor_id?.startsWith(AUTO)) {
      const auth = await asaas!.authorizationById(e.assinatura_provedor_id.slice(AUTO.length));
      if (auth.status === 'ACTIVE') return null;
      if (auth.status === 'CREATED') await asaas!.cancelAuthorization(auth.id);
      // Paid in the moment before it was called off: that payment counts, no card charge.
      if (row.provedor_id?.startsWith(QR)) {
        const paidBy = await paymentOfAuthorization(e.id, row.provedor_id.slice(QR.length));
        if (paidBy && chargeState(paidBy) === 'pago') {
          await applyPayment(paidBy, null);
          return null;
        }
      }
      await repo.pay.clearSubscription(e.id, e.assinatura_provedor_id);
    }
    const charge = await asaas!.charge({
      customer: await customerOf(e),
      reference: row.referencia,
      valueCents: row.valor_centavos,
      dueDate: saoPauloDay(new Date(e.expira_em ?? Date.now())),
      description: `Matrícula ${e.id}`,
      successUrl: `${config.publicUrl}/matricula/${e.codigo}`,
    });
    if (row.provedor_id && row.provedor_id !== charge.id)
      await repo.pay.replaceProviderId(row.id, row.provedor_id, charge.id);
    else await repo.pay.setProviderId(row.id, charge.id);
    return charge.invoiceUrl ?? null;
  }

  /** The payment Pix Automático's QR code made for an enrolment, if it was paid. */
  async function paymentOfAuthorization(enrolmentId: number, qrId: string): Promise<AsaasPayment | undefined> {
    const e = await repo.byId(enrolmentId);
    return e?.cliente_provedor_id ? asaas!.paymentOfQrCode(e.cliente_provedor_id, qrId) : undefined;
  }

  /** The customer id at the provider for an enrolment's person (kept on the row). */
  async function customerOf(e: Enrolment): Promise<string> {
    if (e.cliente_provedor_id) return e.cliente_provedor_id;
    const id = await asaas!.customer({ name: e.nome, cpf: e.cpf, email: e.email, phone: e.whatsapp });
    await repo.pay.setCustomer(e.id, id);
    return id;
  }

  /**
   * The monthly subscription of an active enrolment, once: from the end of the paid period
   * (pago_ate, the billing day) at the monthly price, by card when the first payment was.
   */
  async function ensureSubscription(enrolmentId: number, now = new Date()): Promise<void> {
    const e = await repo.byId(enrolmentId);
    if (e?.status !== 'ativa' || !e.pago_ate) return;
    const kept = e.assinatura_provedor_id;
    if (kept?.startsWith(AUTO)) {
      // Pix Automático: its own subscription once the authorization is active; otherwise
      // (refused, cancelled, or the card was paid) it is called off and an ordinary one made.
      const auth = await asaas!.authorizationById(kept.slice(AUTO.length));
      if (auth.status === 'ACTIVE') {
        if (auth.subscriptionId) await applyAuthorization(auth, now);
        return;
      }
      if (auth.status === 'CREATED') await asaas!.cancelAuthorization(auth.id);
      if (!(await repo.pay.clearSubscription(e.id, kept))) return;
    } else if (kept && !kept.startsWith(CLAIM)) return;
    // One instance of all creates it: two racing at Asaas could bill the member twice.
    const claim = `${CLAIM}${nowIso(now)}`;
    if (!(await repo.pay.claimSubscription(e.id, claim, staleClaim(now)))) return;
    const first = (await repo.payments(e.id)).find((p) => p.tipo === 'primeiro');
    const card = first?.provedor_id ? (await asaas!.payment(first.provedor_id)).creditCard?.creditCardToken : null;
    const sub = await asaas!.subscription({
      customer: await customerOf(e),
      reference: e.codigo,
      valueCents: e.mensalidade_centavos,
      nextDueDate: e.pago_ate,
      description: `Mensalidade ${e.plano_nome} · ${e.unidade_nome}`,
      creditCardToken: card ?? null,
    });
    const at = nowIso(now);
    const stored = await repo.transaction(async (tx) => {
      if (!(await tx.pay.setSubscription(e.id, claim, sub.id))) return false;
      await tx.addHistory(
        historyRow(e, `mensalidade de ${formatBRL(e.mensalidade_centavos)} programada a partir de ${e.pago_ate}`, at),
      );
      return true;
    });
    if (stored) return;
    // The mark was taken over: when another subscription (not this one) bills now, this one goes.
    const billing = (await repo.byId(e.id))?.assinatura_provedor_id ?? null;
    if (billing && !isMark(billing) && billing !== sub.id) await asaas!.cancelSubscription(sub.id);
  }

  /** Refunds everything a withdrawn enrolment paid, at the provider; the subscription is removed. */
  async function refundWithdrawal(enrolmentId: number, now = new Date()): Promise<boolean> {
    const e = await repo.byId(enrolmentId);
    if (e?.status !== 'desistencia') return false;
    if (e.assinatura_provedor_id?.startsWith(AUTO))
      await asaas!.cancelAuthorization(e.assinatura_provedor_id.slice(AUTO.length));
    else if (e.assinatura_provedor_id && !isMark(e.assinatura_provedor_id))
      await asaas!.cancelSubscription(e.assinatura_provedor_id);
    const payments = await repo.payments(e.id);
    // Charges called off here are removed there, so they can no longer be paid.
    for (const p of payments)
      if (p.status === 'cancelado' && p.provedor_id) {
        const there = await asaas!.payment(p.provedor_id);
        if (chargeState(there) === 'pago') await applyPayment(there, null, now);
        else if (!there.deleted) await asaas!.deletePayment(p.provedor_id);
      }
    const refund = payments.find((p) => p.tipo === 'reembolso' && p.status === 'pendente');
    if (!refund) return false;
    for (const p of payments)
      if (p.tipo !== 'reembolso' && p.status === 'pago' && p.provedor_id)
        await asaas!.refund(p.provedor_id, `Desistência da matrícula (CDC art. 49), ref. ${p.referencia}`);
    const at = nowIso(now);
    return repo.transaction(async (tx) => {
      if (!(await tx.settlePayment(refund.id, ['pendente'], 'pago', { pago_em: at }, at))) return false;
      for (const p of payments)
        if (p.tipo !== 'reembolso' && p.status === 'pago' && p.provedor_id)
          await tx.settlePayment(p.id, ['pago'], 'estornado', {}, at);
      await tx.addHistory(historyRow(e, `reembolso de ${formatBRL(refund.valor_centavos)} feito pelo ${name}`, at));
      recordPayment('estornado');
      return true;
    });
  }

  /**
   * A cancellation asked after the withdrawal window: no monthly charge from the effective
   * day on (the subscription ends the day before), and the fine charged once on its own reference.
   */
  async function afterCancel(enrolmentId: number, now = new Date()): Promise<void> {
    const e = await repo.byId(enrolmentId);
    if (e?.status !== 'cancelamento_solicitado') return;
    if (e.assinatura_provedor_id && !isMark(e.assinatura_provedor_id) && e.cancelamento_efetivo_em) {
      await asaas!.endSubscription(e.assinatura_provedor_id, addDays(e.cancelamento_efetivo_em, -1));
      // Charges Asaas already made for a month after the paid period go too.
      for (const p of await asaas!.subscriptionPayments(e.assinatura_provedor_id))
        if (p.dueDate && p.dueDate >= e.cancelamento_efetivo_em && chargeState(p) === 'pendente')
          await asaas!.deletePayment(p.id);
    }
    // An annual fee charged ahead for a year that starts once the contract has ended goes too.
    const at = nowIso(now);
    for (const fee of await repo.payments(e.id))
      if (
        fee.tipo === 'anuidade' &&
        fee.status === 'pendente' &&
        e.cancelamento_efetivo_em &&
        fee.vencimento &&
        fee.vencimento >= e.cancelamento_efetivo_em
      ) {
        if (fee.provedor_id) await asaas!.deletePayment(fee.provedor_id);
        if (await move(fee, ['pendente'], 'cancelado', {}, at))
          await repo.addHistory(historyRow(e, `taxa anual ${fee.referencia} cancelada com o contrato`, at));
      }
    const fine = (await repo.payments(e.id)).find((p) => p.tipo === 'multa' && p.status === 'pendente');
    if (fine && !fine.provedor_id) {
      const charge = await asaas!.charge({
        customer: await customerOf(e),
        reference: fine.referencia,
        valueCents: fine.valor_centavos,
        dueDate: addDays(saoPauloDay(now), 3),
        description: `Multa de cancelamento, protocolo ${e.protocolo ?? ''}`.trim(),
        successUrl: `${config.publicUrl}/matricula/${e.codigo}`,
      });
      await repo.pay.setProviderId(fine.id, charge.id);
    }
  }

  /**
   * Compares the provider's payments received on São Paulo `day` with ours; returns the new
   * differences. A payment received for one of our charges but not yet paid here (every event
   * about it lost) is applied first, as its webhook would have been: only money that matches
   * nothing of ours, or a different amount, is left for staff.
   */
  async function compareDay(day: string, now = new Date()): Promise<number> {
    const received = (await asaas!.receivedBetween(day, day)).filter((p) => !p.deleted);
    const from = saoPauloDayStartIso(day);
    const to = saoPauloDayStartIso(addDays(day, 1));
    const ids = received.map((p) => p.id);
    const before = new Map((await repo.pay.paidBetween(name, from, to, ids)).map((o) => [o.provedor_id, o.status]));
    for (const p of received) {
      const status = before.get(p.id);
      if (status === 'pago' || status === 'estornado') continue;
      try {
        await applyPayment(p, null, now);
      } catch (err) {
        log?.warn({ err, providerPayment: p.id }, 'daily comparison could not apply a received payment; listed');
      }
    }
    const ours = await repo.pay.paidBetween(name, from, to, ids);
    const byProvider = new Map(ours.filter((o) => o.provedor_id).map((o) => [o.provedor_id as string, o]));
    const at = nowIso(now);
    let found = 0;
    const add = async (row: Parameters<ProviderPaymentsRepository['addDifference']>[0]) => {
      await repo.pay.addDifference(row);
      found++;
    };
    for (const p of received) {
      const o = byProvider.get(p.id);
      if (!o || (o.status !== 'pago' && o.status !== 'estornado'))
        await add({
          dia: day,
          provedor_id: p.id,
          referencia: p.externalReference ?? o?.referencia ?? null,
          tipo: 'so_no_provedor',
          valor_provedor_centavos: toCents(p.value),
          valor_site_centavos: o?.valor_centavos ?? null,
          criado_em: at,
        });
      else if (o.valor_centavos !== toCents(p.value))
        await add({
          dia: day,
          provedor_id: p.id,
          referencia: o.referencia,
          tipo: 'valor',
          valor_provedor_centavos: toCents(p.value),
          valor_site_centavos: o.valor_centavos,
          criado_em: at,
        });
    }
    const receivedIds = new Set(received.map((p) => p.id));
    for (const o of ours)
      if (
        o.status === 'pago' &&
        o.pago_em &&
        o.pago_em >= from &&
        o.pago_em < to &&
        !receivedIds.has(o.provedor_id ?? '')
      )
        await add({
          dia: day,
          provedor_id: o.provedor_id ?? `sem-id:${o.referencia}`,
          referencia: o.referencia,
          tipo: 'so_no_site',
          valor_provedor_centavos: null,
          valor_site_centavos: o.valor_centavos,
          criado_em: at,
        });
    return found;
  }

  /**
   * The charges of subscriptions whose paid period has ended with no monthly row here (the
   * provider's events about them lost): each is read from the provider and applied as its
   * events would have been, so a payment activates the month and an overdue one counts toward
   * inadimplência. Returns how many enrolments were checked.
   */
  async function sweepSubscriptions(now = new Date()): Promise<number> {
    const today = saoPauloDay(now);
    let checked = 0;
    let afterId = 0;
    for (;;) {
      const rows = await repo.pay.lapsedSubscriptions(name, today, afterId, BATCH);
      for (const e of rows) {
        afterId = e.id;
        try {
          for (const p of await asaas!.subscriptionPayments(e.assinatura_provedor_id as string))
            if (!p.deleted && (!p.dueDate || !e.pago_ate || p.dueDate >= e.pago_ate)) await applyPayment(p, null, now);
          checked++;
        } catch (err) {
          log?.warn({ err, enrolmentId: e.id }, 'subscription charges could not be read; next sweep tries again');
        }
      }
      if (rows.length < BATCH) return checked;
    }
  }

  /**
   * The contract's annual fee after the first year: a charge of its own each year, made
   * ANNUAL_FEE_AHEAD_DAYS before the billing day of its month, on the reference MAT<id>A<year>
   * (stored once whatever the instance; created at the provider looked up by it first). Returns
   * how many were charged at the provider now.
   */
  async function billAnnualFees(now = new Date()): Promise<number> {
    const today = saoPauloDay(now);
    const at = nowIso(now);
    const months = annualFeeMonths(today);
    let afterId = 0;
    for (;;) {
      const rows = await repo.pay.annualFeeEnrolments(name, months, afterId, BATCH);
      const made = await repo.pay.annualFeeReferences(rows.map((r) => r.id));
      for (const e of rows) {
        afterId = e.id;
        for (const due of annualFeesDue(e, today)) {
          const referencia = `MAT${e.id}A${due.slice(0, 4)}`;
          if (made.has(referencia)) continue;
          await repo.transaction(async (tx) => {
            const added = await tx.pay.addOnce({
              matricula_id: e.id,
              tipo: 'anuidade',
              valor_centavos: e.taxa_anual_centavos,
              status: 'pendente',
              provedor: name,
              referencia,
              vencimento: due,
              criado_em: at,
              atualizado_em: at,
            });
            if (added)
              await tx.addHistory(
                historyRow(
                  e,
                  `taxa anual de ${formatBRL(e.taxa_anual_centavos)} lançada, vence em ${formatDay(due)}`,
                  at,
                ),
              );
          });
        }
      }
      if (rows.length < BATCH) break;
    }
    let charged = 0;
    for (const row of await repo.pay.unchargedAnnualFees(name, BATCH)) {
      const e = await repo.byId(row.matricula_id);
      if (!e) continue;
      try {
        const charge = await asaas!.charge({
          customer: await customerOf(e),
          reference: row.referencia,
          valueCents: row.valor_centavos,
          dueDate: row.vencimento ?? today,
          description: `Taxa anual ${e.plano_nome} · ${e.unidade_nome}`,
          successUrl: `${config.publicUrl}/matricula/${e.codigo}`,
        });
        if (await repo.pay.setProviderId(row.id, charge.id)) charged++;
      } catch (err) {
        log?.warn({ err, payment: row.id }, 'annual fee could not be charged at the provider; next run tries again');
      }
    }
    return charged;
  }

  /**
   * Once a day (after 01:00 São Paulo), one instance of all compares the day before, sweeps
   * the subscriptions whose charge never reached us and charges the annual fees due.
   */
  async function dailyComparison(now: Date): Promise<boolean> {
    const today = saoPauloDay(now);
    const nextRun = (day: string) => nowIso(new Date(Date.parse(saoPauloDayStartIso(day)) + 3_600_000));
    await repo.pay.ensureTask(nextRun(today));
    const owner = `${process.pid}:${Math.random().toString(36).slice(2, 10)}`;
    if (!(await repo.pay.claimTask(nowIso(now), nowIso(new Date(now.getTime() + 10 * 60_000)), owner))) return false;
    let error: string | null = null;
    try {
      await compareDay(addDays(today, -1), now);
      await sweepSubscriptions(now);
      await billAnnualFees(now);
    } catch (err) {
      error = err instanceof Error ? err.message : String(err);
      log?.error({ err }, 'daily payment comparison failed; tried again in an hour');
    }
    await repo.pay.finishTask(owner, {
      at: nowIso(now),
      next: error ? nowIso(new Date(now.getTime() + 3_600_000)) : nextRun(addDays(today, 1)),
      error,
    });
    return !error;
  }

  return {
    applyPayment,
    chooseCard,
    ensureSubscription,
    refundWithdrawal,
    afterCancel,
    compareDay,
    sweepSubscriptions,
    billAnnualFees,

    /** One stored webhook event: a payment's events act on it; any other type is acknowledged. */
    async handleEvent(event: { tipo: string; body: unknown }, now = new Date()): Promise<void> {
      const authorization = (event.body as { authorization?: AsaasAuthorization } | null)?.authorization;
      if (AUTHORIZATION_EVENT.test(event.tipo) && authorization && typeof authorization.id === 'string') {
        // The state carried may be older than the authorization's now: read it again.
        await applyAuthorization(await asaas!.authorizationById(authorization.id), now);
        return;
      }
      const payment = (event.body as { payment?: AsaasPayment } | null)?.payment;
      if (!PAYMENT_EVENT.test(event.tipo) || !payment || typeof payment.id !== 'string') return;
      // The state carried by the event may be older than another already applied: rows only
      // move forward, so applying it is safe; a payment event is applied as it says.
      await applyPayment(payment, event.tipo, now);
    },

    /**
     * The reconciliation: first payments pending for RECONCILE_AFTER_MS, and other charges once
     * due every RECONCILE_DUE_AFTER_MS, are asked about (a lost webhook still activates or
     * pays), refunds and subscriptions left undone are done, members past the overdue days are
     * marked, and once a day the day before is compared.
     */
    async reconcile(now = new Date()) {
      const at = nowIso(now);
      const result = { checked: 0, refunds: 0, subscriptions: 0, defaulting: 0, daily: false };
      for (const row of await repo.pay.stale(name, staleCutoffs(now), BATCH)) {
        if (!(await repo.pay.claimCheck(row.id, row.conferido_em, at))) continue;
        try {
          const p = row.provedor_id?.startsWith(QR)
            ? await paymentOfAuthorization(row.matricula_id, row.provedor_id.slice(QR.length))
            : row.provedor_id
              ? await asaas!.payment(row.provedor_id)
              : (await asaas!.paymentsByReference(row.referencia))[0];
          result.checked++;
          if (p) await applyPayment(p, p.deleted ? 'PAYMENT_DELETED' : null, now);
        } catch (err) {
          log?.warn({ err, payment: row.id }, 'reconciliation could not check a payment; next round tries again');
        }
      }
      // First charges of enrolments that expired unpaid: removed at Asaas (or applied when paid meanwhile).
      for (const row of await repo.pay.expiredCharges(name, BATCH)) {
        if (!row.provedor_id || !(await repo.pay.claimCheck(row.id, row.conferido_em, at))) continue;
        try {
          if (row.provedor_id.startsWith(QR)) {
            const e = await repo.byId(row.matricula_id);
            const paidMeanwhile = await paymentOfAuthorization(row.matricula_id, row.provedor_id.slice(QR.length));
            if (paidMeanwhile) await applyPayment(paidMeanwhile, null, now);
            else if (e?.assinatura_provedor_id?.startsWith(AUTO))
              await asaas!.cancelAuthorization(e.assinatura_provedor_id.slice(AUTO.length));
            continue;
          }
          const p = await asaas!.payment(row.provedor_id);
          if (chargeState(p) === 'pago') await applyPayment(p, null, now);
          else if (!p.deleted) await asaas!.deletePayment(p.id);
        } catch (err) {
          log?.warn({ err, payment: row.id }, 'expired charge could not be removed at the provider; retried later');
        }
      }
      for (const id of await repo.pay.pendingRefundEnrolments(name, BATCH))
        try {
          if (await refundWithdrawal(id, now)) result.refunds++;
        } catch (err) {
          log?.warn({ err, enrolmentId: id }, 'refund at the provider failed; next round tries again');
        }
      for (const id of await repo.pay.withoutSubscription(name, staleClaim(now), BATCH))
        try {
          await ensureSubscription(id, now);
          result.subscriptions++;
        } catch (err) {
          log?.warn({ err, enrolmentId: id }, 'subscription at the provider failed; next round tries again');
        }
      // The daily comparison first: the charges it recovers count toward inadimplência below.
      result.daily = await dailyComparison(now);
      const cutoff = addDays(saoPauloDay(now), -config.payments.overdueDays);
      for (const id of await repo.pay.overdueEnrolments(cutoff, BATCH)) {
        const e = await repo.byId(id);
        if (e) {
          await judgeDefault(e, now);
          result.defaulting++;
        }
      }
      await deps.events.prune(nowIso(new Date(now.getTime() - EVENTS_KEPT_MS)));
      return result;
    },

    /** The operator's page: events, pending reconciliations, differences, what needs attention, the daily task. */
    async overview(now = new Date()) {
      return {
        provider: name === 'asaas' ? 'Asaas' : name,
        webhookUrl: deps.webhookUrl,
        events: await deps.events.overview(),
        unsettled: await deps.events.unsettled(50),
        stale: await repo.pay.countStale(name, staleCutoffs(now)),
        differences: await repo.pay.differences(100),
        attention: await repo.pay.attention(50),
        task: (await repo.pay.task()) ?? null,
      };
    },

    /** An admin's "processar de novo" of an event that failed for good. */
    retryEvent: (id: string, now = new Date()) => deps.events.retry(id, nowIso(now)),

    /** The payment page showed a charge: its ids kept; paid at the provider, applied now. */
    async seen(
      enrolmentId: number,
      paymentId: number,
      ids: { providerId?: string; customerId?: string; authorizationId?: string },
      paid: boolean,
      now = new Date(),
    ) {
      if (ids.customerId) await repo.pay.setCustomer(enrolmentId, ids.customerId);
      if (ids.authorizationId) await repo.pay.markSubscription(enrolmentId, `${AUTO}${ids.authorizationId}`);
      if (ids.providerId) {
        const row = (await repo.payments(enrolmentId)).find((p) => p.id === paymentId);
        if (row?.provedor_id && row.provedor_id !== ids.providerId)
          await repo.pay.replaceProviderId(paymentId, row.provedor_id, ids.providerId);
        else await repo.pay.setProviderId(paymentId, ids.providerId);
      }
      if (paid && ids.providerId) await applyPayment(await asaas!.payment(ids.providerId), null, now);
    },
  };
}

export type ProviderPaymentsService = ReturnType<typeof createProviderPaymentsService>;

// Payments: one interface, providers behind it (PAYMENT_PROVIDER). A feature asks for the
// charge of a reference it keeps (an enrolment's first payment, a fine) and for a refund; a
// provider answers how the person pays. The default, `pix`, needs no account: a static Pix
// code from PIX_KEY, confirmed by staff against the bank statement, refunds made by staff.
// `asaas`: a dynamic Pix code and the card on Asaas's hosted page, confirmed by its webhook.
import type { AsaasConfig, PaymentsConfig, PixConfig } from '../../config';
import { type AsaasLog, createAsaasClient, type AsaasClient } from './asaas/client';
import { qrSvg } from '../../lib/qr';
import { pixCopyPaste, pixTxid } from './pix/brcode';

export interface ChargeRequest {
  /** our reference, unique per charge: the provider keeps it, so a retry finds the same charge */
  reference: string;
  amountCents: number;
  description: string;
  /** who pays (the provider keeps a customer per CPF) */
  payer?: { name: string; cpf: string; email: string; phone: string | null };
  /** the provider's customer and charge ids when already known: no lookup */
  customerId?: string | null;
  providerId?: string | null;
  /** São Paulo day the charge falls due */
  dueDate?: string;
  /** where the provider's hosted page sends the person after paying */
  successUrl?: string;
  /** Pix Automático (ASAAS_PIX_AUTOMATICO): the monthly debits this first payment authorises */
  recurring?: { startDate: string; valueCents: number; description: string; expiresAt: string };
}

/** How the person pays a charge, as the payment page shows it. */
export type PaymentInstructions = {
  kind: 'pix';
  copyPaste: string;
  /** inline SVG of the QR code */
  qrSvg: string;
  /** the demo key: nothing can really be paid */
  demo: boolean;
  /** the provider's hosted page, where the person may pay by card instead (Asaas) */
  cardUrl?: string | null;
  /** the provider's ids of the charge and customer, for the caller to keep */
  providerId?: string;
  customerId?: string;
  /** the provider already has it paid */
  paid?: boolean;
  /** Pix Automático: the authorization this QR code creates; the card is chosen on our page first */
  authorizationId?: string;
};

export interface PaymentProvider {
  readonly name: 'pix' | 'asaas';
  /** false: a staff member confirms each payment after seeing it in the bank statement */
  readonly confirmsAutomatically: boolean;
  /** false: a refund enters the staff queue and is made by hand */
  readonly refundsAutomatically: boolean;
  /** The instructions of a charge; the same request gives the same charge (idempotent by reference). */
  instructions(charge: ChargeRequest): Promise<PaymentInstructions>;
  /** the provider's API, for what only it does (subscriptions, refunds, reconciliation) */
  readonly asaas?: AsaasClient;
}

/** The static-Pix provider: the BR Code carries the exact amount and a txid per charge. */
export function createPixProvider(pix: PixConfig): PaymentProvider {
  return {
    name: 'pix',
    confirmsAutomatically: false,
    refundsAutomatically: false,
    async instructions(charge) {
      const copyPaste = pixCopyPaste({
        key: pix.key,
        merchantName: pix.merchantName,
        merchantCity: pix.merchantCity,
        amountCents: charge.amountCents,
        txid: pixTxid(charge.reference),
      });
      return { kind: 'pix', copyPaste, qrSvg: await qrSvg(copyPaste), demo: pix.demo };
    },
  };
}

/** Our mark for a first payment still only a Pix Automático QR code: `qr:` and its conciliation id. */
export const QR = 'qr:';

/** Asaas: the charge made once per reference (UNDEFINED: Pix here, or card on its page). */
export function createAsaasProvider(config: AsaasConfig, log?: AsaasLog): PaymentProvider {
  const asaas = createAsaasClient(config, log);
  return {
    name: 'asaas',
    confirmsAutomatically: true,
    refundsAutomatically: true,
    asaas,
    async instructions(charge) {
      if (!charge.payer && !charge.customerId) throw new Error('Asaas: a charge needs its payer');
      const customerId = charge.customerId ?? (await asaas.customer(charge.payer!));
      const recurring = charge.recurring;
      if (config.pixAutomatico && recurring && (!charge.providerId || charge.providerId.startsWith(QR))) {
        const auth = await asaas.authorization({
          customer: customerId,
          contractId: charge.reference,
          startDate: recurring.startDate,
          valueCents: recurring.valueCents,
          firstCents: charge.amountCents,
          expirationSeconds: Math.max(600, Math.floor((Date.parse(recurring.expiresAt) - Date.now()) / 1000)),
          description: recurring.description,
        });
        const qrId = auth.immediateQrCode?.conciliationIdentifier ?? '';
        const paidBy = auth.status === 'ACTIVE' && qrId ? await asaas.paymentOfQrCode(customerId, qrId) : undefined;
        const payload = auth.status === 'CREATED' ? (auth.immediateQrCode?.payload ?? '') : '';
        return {
          kind: 'pix',
          copyPaste: payload,
          qrSvg: payload ? await qrSvg(payload) : '',
          demo: false,
          cardUrl: null,
          providerId: paidBy?.id ?? `${QR}${qrId}`,
          customerId,
          paid: Boolean(paidBy && /^(RECEIVED|CONFIRMED|RECEIVED_IN_CASH)$/.test(paidBy.status)),
          authorizationId: auth.id,
        };
      }
      const known =
        charge.providerId && !charge.providerId.startsWith(QR) ? await asaas.payment(charge.providerId) : null;
      // A charge removed at Asaas (a duplicate, or by hand): the one of the reference is looked up.
      const payment =
        known && !known.deleted
          ? known
          : await asaas.charge({
              customer: customerId,
              reference: charge.reference,
              valueCents: charge.amountCents,
              dueDate: charge.dueDate ?? new Date().toISOString().slice(0, 10),
              description: charge.description,
              successUrl: charge.successUrl,
            });
      const paid = /^(RECEIVED|CONFIRMED|RECEIVED_IN_CASH)$/.test(payment.status);
      // A card charge (a monthly payment of a card subscription) has no Pix: its page only.
      const qr = paid || payment.billingType === 'CREDIT_CARD' ? null : await asaas.pixQrCode(payment.id);
      return {
        kind: 'pix',
        copyPaste: qr?.payload ?? '',
        qrSvg: qr?.payload ? await qrSvg(qr.payload) : '',
        demo: false,
        cardUrl: payment.invoiceUrl ?? null,
        providerId: payment.id,
        customerId,
        paid,
      };
    },
  };
}

/** The configured provider, or null when nothing can be paid online (production without PIX_KEY). */
export function createPaymentProvider(config: PaymentsConfig, log?: AsaasLog): PaymentProvider | null {
  if (config.provider === 'asaas') return config.asaas ? createAsaasProvider(config.asaas, log) : null;
  return config.pix ? createPixProvider(config.pix) : null;
}

export { pixTxid };

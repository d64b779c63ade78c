// Payments: one interface, providers behind it (PAYMENT_PROVIDER). A feature asks for the
// charge of a reference it keeps (an enrolment's first payment, a fine) and for a refund; a
// provider answers how the person pays. The default, `pix`, needs no account: a static Pix
// code from PIX_KEY, confirmed by staff against the bank statement, refunds made by staff.
import type { PaymentsConfig, PixConfig } from '../../config';
import { pixCopyPaste, pixQrSvg, pixTxid } from './pix/brcode';

export interface ChargeRequest {
  /** our reference, unique per charge: the provider keeps it, so a retry finds the same charge */
  reference: string;
  amountCents: number;
  description: string;
}

/** How the person pays a charge, as the payment page shows it. */
export type PaymentInstructions = {
  kind: 'pix';
  copyPaste: string;
  /** inline SVG of the QR code */
  qrSvg: string;
  /** the demo key: nothing can really be paid */
  demo: boolean;
};

export interface PaymentProvider {
  readonly name: 'pix';
  /** false: a staff member confirms each payment after seeing it in the bank statement */
  readonly confirmsAutomatically: boolean;
  /** false: a refund enters the staff queue and is made by hand */
  readonly refundsAutomatically: boolean;
  /** The instructions of a charge; the same request gives the same charge (idempotent by reference). */
  instructions(charge: ChargeRequest): Promise<PaymentInstructions>;
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
      return { kind: 'pix', copyPaste, qrSvg: await pixQrSvg(copyPaste), demo: pix.demo };
    },
  };
}

/** The configured provider, or null when nothing can be paid online (production without PIX_KEY). */
export function createPaymentProvider(config: PaymentsConfig): PaymentProvider | null {
  return config.pix ? createPixProvider(config.pix) : null;
}

export { pixTxid };

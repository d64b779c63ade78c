// An Asaas charge's status as our payment rows name it. Our rows only ever move forward
// (pendente → atrasado → pago → estornado), so an event that arrives late never undoes a later one.
import type { AsaasPayment } from './client';

export type ChargeState = 'pendente' | 'atrasado' | 'pago' | 'estornado' | 'cancelado' | 'contestado';

export function chargeState(p: Pick<AsaasPayment, 'status' | 'deleted'>): ChargeState {
  switch (p.status) {
    case 'RECEIVED':
    case 'CONFIRMED':
    case 'RECEIVED_IN_CASH':
    case 'DUNNING_RECEIVED':
      return 'pago';
    case 'OVERDUE':
    case 'DUNNING_REQUESTED':
      return p.deleted ? 'cancelado' : 'atrasado';
    case 'REFUNDED':
    case 'REFUND_REQUESTED':
    case 'REFUND_IN_PROGRESS':
      return 'estornado';
    case 'CHARGEBACK_REQUESTED':
    case 'CHARGEBACK_DISPUTE':
    case 'AWAITING_CHARGEBACK_REVERSAL':
      return 'contestado';
    default:
      return p.deleted ? 'cancelado' : 'pendente';
  }
}

/** Value in reais (a JSON number) to integer centavos. */
export const toCents = (value: number) => Math.round(value * 100);

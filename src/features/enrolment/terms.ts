// The arithmetic of an enrolment, in integer centavos and São Paulo calendar days: the first
// payment, the billing day, the paid period, the withdrawal window (CDC art. 49) and the
// cancellation fine. Pure functions: the service and the views share them.
import { addDays, saoPauloDay } from '../../lib/time';

/** The prices and terms of a plan at a unit, as sold. */
export interface Terms {
  mensalidade_centavos: number;
  taxa_matricula_centavos: number;
  taxa_anual_centavos: number;
  /** 1–12, or null without an annual fee */
  taxa_anual_mes: number | null;
  fidelidade_meses: number;
  multa_percentual: number;
}

export interface FirstPayment {
  /** the first month */
  monthCents: number;
  enrolmentFeeCents: number;
  /** the annual fee when it falls due in the month of acceptance, else 0 */
  annualFeeCents: number;
  totalCents: number;
  /** 1–28: the day of the month the next payments fall due */
  billingDay: number;
}

/** The calendar days a person has to withdraw, counted from the day of acceptance (CDC art. 49). */
export const WITHDRAWAL_DAYS = 7;

/** The days staff have to make a refund entered in their queue. */
export const REFUND_DAYS = 7;

/** The first payment: first month, enrolment fee, and the annual fee when due in this month. */
export function firstPayment(terms: Terms, now: Date): FirstPayment {
  const day = saoPauloDay(now);
  const month = Number(day.slice(5, 7));
  const annualFeeCents = terms.taxa_anual_mes === month ? terms.taxa_anual_centavos : 0;
  const totalCents = terms.mensalidade_centavos + terms.taxa_matricula_centavos + annualFeeCents;
  return {
    monthCents: terms.mensalidade_centavos,
    enrolmentFeeCents: terms.taxa_matricula_centavos,
    annualFeeCents,
    totalCents,
    billingDay: billingDayOf(day),
  };
}

/** The billing day: the day of acceptance, kept within 1–28 so every month has it. */
export function billingDayOf(day: string): number {
  return Math.min(Number(day.slice(8, 10)), 28);
}

/** The same day `months` later (the billing day is ≤ 28, so it always exists). */
export function addMonths(day: string, months: number, billingDay: number): string {
  const y = Number(day.slice(0, 4));
  const m = Number(day.slice(5, 7)) - 1 + months;
  const year = y + Math.floor(m / 12);
  const month = (((m % 12) + 12) % 12) + 1;
  return `${year}-${String(month).padStart(2, '0')}-${String(billingDay).padStart(2, '0')}`;
}

/** Days before its due day that a year's annual fee is charged, so the member can pay it in time. */
export const ANNUAL_FEE_AHEAD_DAYS = 10;
/** A year's fee missed (the daily task down) is still charged up to this many days after its due day. */
const ANNUAL_FEE_LATE_DAYS = 30;

/**
 * The due days of the annual fees to charge on `today`: each year's billing day in the fee's
 * month, after the day of acceptance (the first payment took the fee of the month of acceptance),
 * from ANNUAL_FEE_LATE_DAYS back to ANNUAL_FEE_AHEAD_DAYS ahead, and before a cancellation takes
 * effect. The service charges each once, on its own reference.
 */
export function annualFeesDue(
  e: Pick<Terms, 'taxa_anual_centavos' | 'taxa_anual_mes'> & {
    dia_vencimento: number;
    aceito_em: string;
    cancelamento_efetivo_em: string | null;
  },
  today: string,
): string[] {
  if (!e.taxa_anual_centavos || !e.taxa_anual_mes) return [];
  const accepted = saoPauloDay(new Date(e.aceito_em));
  const from = addDays(today, -ANNUAL_FEE_LATE_DAYS);
  const to = addDays(today, ANNUAL_FEE_AHEAD_DAYS);
  const month = String(e.taxa_anual_mes).padStart(2, '0');
  const day = String(e.dia_vencimento).padStart(2, '0');
  const year = Number(today.slice(0, 4));
  return [year - 1, year, year + 1]
    .map((y) => `${y}-${month}-${day}`)
    .filter(
      (due) =>
        due > accepted && due >= from && due <= to && (!e.cancelamento_efetivo_em || due < e.cancelamento_efetivo_em),
    );
}

/** The months (1–12) whose annual fees `annualFeesDue` may charge on `today`. */
export function annualFeeMonths(today: string): number[] {
  const months = new Set<number>();
  for (let d = addDays(today, -ANNUAL_FEE_LATE_DAYS); d <= addDays(today, ANNUAL_FEE_AHEAD_DAYS); d = addDays(d, 1))
    months.add(Number(d.slice(5, 7)));
  return [...months];
}

/** Whole months from `from` to `to` (aaaa-mm-dd), counting a month once its day is reached. */
export function monthsBetween(from: string, to: string): number {
  const months =
    (Number(to.slice(0, 4)) - Number(from.slice(0, 4))) * 12 + Number(to.slice(5, 7)) - Number(from.slice(5, 7));
  return Number(to.slice(8, 10)) >= Number(from.slice(8, 10)) ? months : months - 1;
}

/** The last São Paulo day on which "Desistir" still refunds everything: acceptance day + 7. */
export function withdrawalDeadline(acceptedAt: string): string {
  return addDays(saoPauloDay(new Date(acceptedAt)), WITHDRAWAL_DAYS);
}

export function canWithdraw(acceptedAt: string, now: Date): boolean {
  return saoPauloDay(now) <= withdrawalDeadline(acceptedAt);
}

/**
 * A cancellation asked for on `requestDay`: it takes effect at the end of the period paid,
 * the next billing date after that day; the fine is the contract's percentage of the
 * monthly price for each month of the minimum term still left then.
 */
export function cancellation(
  enrolment: Terms & { dia_vencimento: number; start: string },
  requestDay: string,
): { effectiveDay: string; monthsLeft: number; fineCents: number } {
  let effectiveDay = addMonths(requestDay, 0, enrolment.dia_vencimento);
  if (effectiveDay <= requestDay) effectiveDay = addMonths(requestDay, 1, enrolment.dia_vencimento);
  const served = monthsBetween(enrolment.start, effectiveDay);
  const monthsLeft = Math.max(0, enrolment.fidelidade_meses - served);
  const fineCents = Math.round((monthsLeft * enrolment.mensalidade_centavos * enrolment.multa_percentual) / 100);
  return { effectiveDay, monthsLeft, fineCents };
}

/** Age in whole years on `day` of someone born on `birth` (both aaaa-mm-dd). */
export function ageOn(birth: string, day: string): number {
  const years = Number(day.slice(0, 4)) - Number(birth.slice(0, 4));
  return day.slice(5) >= birth.slice(5) ? years : years - 1;
}

export const MONTH_NAMES = [
  'janeiro',
  'fevereiro',
  'março',
  'abril',
  'maio',
  'junho',
  'julho',
  'agosto',
  'setembro',
  'outubro',
  'novembro',
  'dezembro',
] as const;

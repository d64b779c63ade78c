// Calls to action: the fixed list of actions, the counted link for each, and where each
// one leads. Pure functions, shared by the public views and the redirect endpoint. The
// target is always computed from catalog data, never taken from the request, so /ir/ can
// never be used as an open redirect.
import { normalizePhone } from '../../lib/form/index';
import { saoPauloDay, saoPauloWeekStart } from '../../lib/time';
import { safeExternalUrl } from '../../lib/url';
import { whatsappHref } from '../../brand/index';

export const CTA_ACTIONS = ['matricula', 'aula_experimental', 'whatsapp', 'beneficio'] as const;
export type CtaAction = (typeof CTA_ACTIONS)[number];

export const CTA_LABELS: Record<CtaAction, string> = {
  matricula: 'Matricule-se',
  aula_experimental: 'Aula experimental',
  whatsapp: 'WhatsApp',
  beneficio: 'Benefício',
};

export function isCtaAction(value: string): value is CtaAction {
  return (CTA_ACTIONS as readonly string[]).includes(value);
}

/** The trial-class booking page (built by its own feature). */
export const TRIAL_CLASS_PATH = '/aula-experimental';

/** The counted link for an action ("/ir/matricula?unidade=3&plano=2"). */
export function ctaHref(acao: CtaAction, unidadeId: number, planoId?: number): string {
  return `/ir/${acao}?unidade=${unidadeId}${planoId ? `&plano=${planoId}` : ''}`;
}

export interface CtaUnit {
  id: number;
  nome: string;
  whatsapp: string | null;
  beneficio_url: string | null;
}

function digits(phone: string | null): string | null {
  const e164 = phone ? normalizePhone(phone) : null;
  return e164 ? e164.replace(/\D/g, '') : null;
}

/** The prefilled WhatsApp message of "Matricule-se": names the unit and, from a plan's button, the plan. */
export function enrolmentMessage(unit: { nome: string }, plan?: { nome: string } | null): string {
  return plan
    ? `Olá! Quero me matricular na ${unit.nome} no ${plan.nome}. Pode me ajudar?`
    : `Olá! Quero me matricular na ${unit.nome}. Pode me ajudar?`;
}

/**
 * Where an action leads, or null when the unit has nothing to offer for it (then the
 * page shows no such button and /ir/ answers 404). `brandWhatsapp`: the chain's number,
 * used when a unit has none.
 */
export function ctaTarget(
  acao: CtaAction,
  unit: CtaUnit,
  plan: { nome: string } | null,
  brandWhatsapp: string | null,
  /** is the trial-class booking page there? Until it is, the trial class is asked for on WhatsApp */
  bookingAvailable = true,
): string | null {
  const wa = digits(unit.whatsapp) ?? brandWhatsapp;
  switch (acao) {
    case 'matricula':
      return wa ? whatsappHref(wa, enrolmentMessage(unit, plan)) : null;
    case 'aula_experimental':
      if (bookingAvailable) return `${TRIAL_CLASS_PATH}?unidade=${unit.id}`;
      return wa ? whatsappHref(wa, `Olá! Quero agendar uma aula experimental na ${unit.nome}.`) : null;
    case 'whatsapp':
      return wa ? whatsappHref(wa, `Olá! Tenho uma dúvida sobre a ${unit.nome}.`) : null;
    case 'beneficio':
      return safeExternalUrl(unit.beneficio_url);
  }
}

/** Monday (aaaa-mm-dd) of the São Paulo week an instant falls in: the funnel's week too. */
export function weekOf(date: Date): string {
  return saoPauloWeekStart(saoPauloDay(date));
}

/** The Mondays of the last `count` weeks, newest first. */
export function lastWeeks(count: number, now: Date = new Date()): string[] {
  const start = new Date(`${weekOf(now)}T12:00:00Z`);
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(start);
    d.setUTCDate(d.getUTCDate() - 7 * i);
    return d.toISOString().slice(0, 10);
  });
}

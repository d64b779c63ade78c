// Rules of the franchise form: validation, normalisation, storing the lead and queuing
// the staff notification in one transaction. Never sees HTTP.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { cleanText, foldText, formatBrazilianPhone } from '../../lib/text';
import { formatDateTime } from '../../lib/time';
import { enqueueMail } from '../mail/outbox.repository';
import { notificationTarget } from '../mail/configured';
import { createLeadsRepository, type NewLead } from './leads.repository';
import { CONSENT_VALUE, isOption, LIMITS, OPTION_FIELD_NAMES, OPTION_FIELDS, optionLabel, TEXT_FIELD_LABELS, type OptionField } from './options';

export const LEAD_FIELDS = ['nome_completo', 'whatsapp', 'email', 'cidade_regiao', ...OPTION_FIELD_NAMES] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];
export type LeadValues = Partial<Record<LeadField, string>>;
export type LeadErrors = Partial<Record<LeadField, string>>;

const EMAIL_RE = /^[^\s@<>(),;:"[\]\\]+@[^\s@<>(),;:"[\]\\]+\.[^\s@<>(),;:"[\]\\]+$/;
// Control characters (other than none) never belong in a one-line field.
const CONTROL_RE = /[\u0000-\u001f\u007f]/;

/**
 * A Brazilian WhatsApp number → "+55DDXXXXXXXXX", or null. Accepts the usual ways of
 * typing it ("(11) 98765-4321", "+55 11 …", "011 …"); refuses foreign numbers, invalid
 * area codes, and mobiles without the leading 9.
 */
export function normalizeWhatsapp(value: string): string | null {
  const trimmed = value.trim();
  if (/^\+(?!\s*55)/.test(trimmed)) return null;
  if (/[^\d\s()+.\-]/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.startsWith('0')) digits = digits.slice(1);
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) digits = digits.slice(2);
  if (!/^[1-9][1-9]/.test(digits)) return null;
  if (digits.length === 11 && digits[2] === '9') return `+55${digits}`;
  if (digits.length === 10 && /[2-8]/.test(digits[2]!)) return `+55${digits}`;
  return null;
}

/** The submitted strings, trimmed and NFC-normalised, for re-rendering the form. */
export function leadValuesFrom(body: Record<string, unknown>): LeadValues {
  const values: LeadValues = {};
  for (const f of LEAD_FIELDS) {
    const v = body[f];
    values[f] = cleanText(Array.isArray(v) ? v[0] : v).slice(0, 1000);
  }
  return values;
}

export type Validation = { ok: true; lead: Omit<NewLead, 'busca'> } | { ok: false; errors: LeadErrors };

export function validateLead(values: LeadValues): Validation {
  const errors: LeadErrors = {};
  const text = (field: 'nome_completo' | 'cidade_regiao', min: number, missing: string) => {
    const v = values[field] ?? '';
    if (!v) errors[field] = missing;
    else if (v.length > LIMITS[field]) errors[field] = `Use no máximo ${LIMITS[field]} caracteres (você digitou ${v.length}).`;
    else if (v.length < min) errors[field] = `Digite pelo menos ${min} caracteres.`;
    else if (CONTROL_RE.test(v)) errors[field] = 'Remova os caracteres inválidos.';
  };
  text('nome_completo', 3, 'Informe o seu nome completo.');
  text('cidade_regiao', 2, 'Informe a cidade ou região de interesse.');

  const email = values.email ?? '';
  if (!email) errors.email = 'Informe o seu e-mail.';
  else if (email.length > LIMITS.email) errors.email = `Use no máximo ${LIMITS.email} caracteres.`;
  else if (!EMAIL_RE.test(email) || CONTROL_RE.test(email)) errors.email = 'Informe um e-mail válido, por exemplo nome@exemplo.com.br.';

  const rawPhone = values.whatsapp ?? '';
  const phone = rawPhone.length <= LIMITS.whatsapp ? normalizeWhatsapp(rawPhone) : null;
  if (!rawPhone) errors.whatsapp = 'Informe o seu WhatsApp com DDD.';
  else if (!phone) errors.whatsapp = 'Informe um número brasileiro com DDD, por exemplo (11) 98765-4321.';

  for (const field of OPTION_FIELD_NAMES) {
    const v = values[field] ?? '';
    if (field === 'aceita_contato') {
      if (v !== CONSENT_VALUE) {
        errors.aceita_contato = isOption(field, v) || !v
          ? 'Para receber o contato da equipe de expansão, marque a autorização.'
          : 'Escolha uma das opções da lista.';
      }
      continue;
    }
    if (!v) errors[field] = 'Escolha uma opção.';
    else if (!isOption(field, v)) errors[field] = 'Escolha uma das opções da lista.';
  }

  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    lead: {
      nome_completo: values.nome_completo!,
      whatsapp: phone!,
      email: email,
      cidade_regiao: values.cidade_regiao!,
      investimento_parceria: values.investimento_parceria!,
      faixa_investimento: values.faixa_investimento!,
      prazo_proximo_passo: values.prazo_proximo_passo!,
      experiencia_negocio: values.experiencia_negocio!,
      motivo_interesse: values.motivo_interesse!,
      aceita_contato: values.aceita_contato!,
    },
  };
}

/** The accent-free text the panel's free-text filter searches: name, e-mail, WhatsApp, city. */
export function searchText(lead: Pick<NewLead, 'nome_completo' | 'email' | 'whatsapp' | 'cidade_regiao'>): string {
  return foldText([lead.nome_completo, lead.email, lead.whatsapp, formatBrazilianPhone(lead.whatsapp), lead.cidade_regiao].join(' ')).slice(0, 700);
}

export function notificationText(id: number, lead: Omit<NewLead, 'busca'>, at: string): string {
  const lines = [
    `Um novo lead de franquia chegou pelo site em ${formatDateTime(at)} (horário de Brasília).`,
    '',
    `${TEXT_FIELD_LABELS.nome_completo}: ${lead.nome_completo}`,
    `${TEXT_FIELD_LABELS.whatsapp}: ${formatBrazilianPhone(lead.whatsapp)}`,
    `${TEXT_FIELD_LABELS.email}: ${lead.email}`,
    `${TEXT_FIELD_LABELS.cidade_regiao}: ${lead.cidade_regiao}`,
    ...OPTION_FIELD_NAMES.map((f: OptionField) => `${OPTION_FIELDS[f].label} ${optionLabel(f, lead[f])}`),
    '',
    `Abra o lead no painel: /pages/Franquia/admin.php?lead=${id}`,
  ];
  return lines.join('\n');
}

export interface LeadContext {
  db: Db;
  config: Pick<Config, 'smtp' | 'notificationEmail' | 'franchiseNotificationEmail'>;
  log: Pick<FastifyBaseLogger, 'info'>;
}

/** Stores a validated lead (and its notification, when configured) in one transaction. */
export async function storeLead(ctx: LeadContext, lead: Omit<NewLead, 'busca'>): Promise<number> {
  const to = notificationTarget(ctx.config, ctx.log, 'franchise');
  const at = new Date().toISOString();
  return ctx.db.transaction().execute(async (trx) => {
    const id = await createLeadsRepository(trx).insert({ ...lead, busca: searchText(lead) }, at);
    if (to) {
      await enqueueMail(trx, {
        to,
        // The name is user text: enqueueMail keeps header values on one line.
        subject: `Novo lead de franquia: ${lead.nome_completo} (${lead.cidade_regiao})`,
        text: notificationText(id, lead, at),
        origin: `franquia_leads:${id}`,
      });
    }
    return id;
  });
}

// Rules of the franchise form: validation, normalisation, storing the lead and queuing
// the staff notification in one transaction. Never sees HTTP.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Transactional } from '../../db/transactional';
import { foldText } from '../../lib/text';
import {
  formatPhone as formatBrazilianPhone,
  echoValue,
  keptEnvioId,
  oneLine,
  parseEmail,
  parsePhone,
  rawString,
  takeFields,
} from '../../lib/form/index';
import { quoteCustomerText } from '../../platform/mail/quote';
import { formatDateTime } from '../../lib/time';
import { enqueueMail } from '../../platform/mail/outbox.repository';
import { readEnvioKey, storeOnce, type OnceResult } from '../../platform/envio/index';
import { notificationTarget } from '../../platform/mail/configured';
import { emitWebhook } from '../../platform/webhooks/webhooks.repository';
import type { LeadsRepository, NewLead } from './leads.repository';
import {
  CONSENT_CHANNEL_FIELD,
  CONSENT_VERSION_FIELD,
  postedConsentVersion,
  readConsentChannel,
  type ConsentChannel,
} from '../privacy/consent';
import { recordConsent } from '../privacy/consent.repository';
import {
  CONSENT_VALUE,
  isOption,
  LIMITS,
  OPTION_FIELD_NAMES,
  OPTION_FIELDS,
  optionLabel,
  TEXT_FIELD_LABELS,
  type OptionField,
} from './options';

export const LEAD_FIELDS = ['nome_completo', 'whatsapp', 'email', 'cidade_regiao', ...OPTION_FIELD_NAMES] as const;
export type LeadField = (typeof LEAD_FIELDS)[number];
export type LeadValues = Partial<Record<LeadField, string>>;
export type LeadErrors = Partial<Record<LeadField, string>>;

/** The submitted strings, for re-rendering the form (never stored as they are). */
export function leadValuesFrom(body: Record<string, unknown>): LeadValues {
  const values: LeadValues = {};
  for (const f of LEAD_FIELDS) values[f] = echoValue(body[f]).trim();
  return values;
}

/** The consent text version the form showed and the channel it came through (proof, LGPD art. 8 §2). */
export interface LeadConsent {
  versao: number;
  canal: ConsentChannel;
}

export type Validation =
  | { ok: true; lead: Omit<NewLead, 'busca'>; consent: LeadConsent }
  | { ok: false; errors: LeadErrors };

/** Every field goes through the form kit; the raw body, not the re-render values, is checked. */
export function validateLead(body: Record<string, unknown>): Validation {
  const errors: LeadErrors = {};
  const {
    nome_completo: nome,
    cidade_regiao: cidade,
    email,
    whatsapp: phone,
  } = takeFields(errors, {
    nome_completo: oneLine(body.nome_completo, {
      max: LIMITS.nome_completo,
      min: 3,
      required: 'Informe o seu nome completo.',
    }),
    cidade_regiao: oneLine(body.cidade_regiao, {
      max: LIMITS.cidade_regiao,
      min: 2,
      required: 'Informe a cidade ou região de interesse.',
    }),
    email: parseEmail(body.email, { required: 'Informe o seu e-mail.' }),
    whatsapp: parsePhone(body.whatsapp, { required: 'Informe o seu WhatsApp com DDD.' }),
  });

  const options: Partial<Record<OptionField, string>> = {};
  for (const field of OPTION_FIELD_NAMES) {
    const v = rawString(body[field]);
    if (field === 'aceita_contato') {
      if (v !== CONSENT_VALUE) {
        errors.aceita_contato =
          isOption(field, v) || !v
            ? 'Para receber o contato da equipe de expansão, marque a autorização.'
            : 'Escolha uma das opções da lista.';
      }
    } else if (!v) errors[field] = 'Escolha uma opção.';
    else if (!isOption(field, v)) errors[field] = 'Escolha uma das opções da lista.';
    options[field] = v;
  }

  if (Object.keys(errors).length) return { ok: false, errors };
  return {
    ok: true,
    lead: {
      nome_completo: nome,
      whatsapp: phone,
      email,
      cidade_regiao: cidade,
      investimento_parceria: options.investimento_parceria!,
      faixa_investimento: options.faixa_investimento!,
      prazo_proximo_passo: options.prazo_proximo_passo!,
      experiencia_negocio: options.experiencia_negocio!,
      motivo_interesse: options.motivo_interesse!,
      aceita_contato: options.aceita_contato!,
    },
    consent: {
      versao: postedConsentVersion('franquia', body[CONSENT_VERSION_FIELD]),
      canal: readConsentChannel(body[CONSENT_CHANNEL_FIELD]),
    },
  };
}

/** The accent-free text the panel's free-text filter searches: name, e-mail, WhatsApp, city. */
export function searchText(lead: Pick<NewLead, 'nome_completo' | 'email' | 'whatsapp' | 'cidade_regiao'>): string {
  return foldText(
    [lead.nome_completo, lead.email, lead.whatsapp, formatBrazilianPhone(lead.whatsapp), lead.cidade_regiao].join(' '),
  ).slice(0, 700);
}

export function notificationText(id: number, lead: Omit<NewLead, 'busca'>, at: string): string {
  const lines = [
    `Um novo lead de franquia chegou pelo site em ${formatDateTime(at)} (horário de Brasília).`,
    '',
    // What the person typed is quoted ("> "), so it can never pass for a line of ours.
    `${TEXT_FIELD_LABELS.nome_completo}:`,
    quoteCustomerText(lead.nome_completo),
    `${TEXT_FIELD_LABELS.whatsapp}: ${formatBrazilianPhone(lead.whatsapp)}`,
    `${TEXT_FIELD_LABELS.email}:`,
    quoteCustomerText(lead.email),
    `${TEXT_FIELD_LABELS.cidade_regiao}:`,
    quoteCustomerText(lead.cidade_regiao),
    ...OPTION_FIELD_NAMES.map((f: OptionField) => `${OPTION_FIELDS[f].label} ${optionLabel(f, lead[f])}`),
    '',
    `Abra o lead no painel: /pages/Franquia/admin.php?lead=${id}`,
  ];
  return lines.join('\n');
}

/** The lead as webhook subscribers get it (a lead belongs to no unit). */
export function leadEventData(id: number, lead: Omit<NewLead, 'busca'>, at: string, publicUrl: string) {
  return {
    id,
    ...lead,
    status: 'novo',
    criado_em: at,
    unidade: { id: null, nome: null },
    url_equipe: `${publicUrl}/pages/Franquia/admin.php?lead=${id}`,
  };
}

/** A posted lead form: stored (or a repeat of a stored one), or refused with what to show again. */
export type LeadSubmission =
  | OnceResult
  | { status: 'invalid'; errors: LeadErrors; values: LeadValues; envioId: string };

export interface LeadDeps {
  repo: Transactional<LeadsRepository>;
  config: Pick<Config, 'smtp' | 'notificationEmail' | 'franchiseNotificationEmail' | 'publicUrl'>;
}

export function createLeadService(deps: LeadDeps) {
  const service = {
    /**
     * A posted lead form: checked, then stored once per envio_id and content (`store`). A
     * refused form keeps its envio_id (nothing was stored for it), or gets one when it came
     * without.
     */
    async submit(body: Record<string, unknown>, log: Pick<FastifyBaseLogger, 'info'>): Promise<LeadSubmission> {
      const result = validateLead(body);
      if (!result.ok) {
        return {
          status: 'invalid',
          errors: result.errors,
          values: leadValuesFrom(body),
          envioId: keptEnvioId(body),
        };
      }
      return service.store(result.lead, body, log, result.consent);
    },

    /**
     * Stores a validated lead (and its notification, when configured) in one transaction,
     * once per envio_id and content: a second POST of the same form with the same lead
     * returns the first lead's id; a different lead under that envio_id (a page restored
     * by the back button) is stored too (docs/decisions/183). The envio_id is read from the
     * `posted` form (null: a caller outside HTTP, stored every time).
     * `log` is the request's: where a missing notification address is reported. The proof
     * of consent (the text version shown, when, the channel) is stored with the lead.
     */
    async store(
      lead: Omit<NewLead, 'busca'>,
      posted: Record<string, unknown> | null,
      log: Pick<FastifyBaseLogger, 'info'>,
      consent: LeadConsent = { versao: postedConsentVersion('franquia', undefined), canal: 'site' },
    ): Promise<OnceResult> {
      const to = notificationTarget(deps.config, log, 'franchise');
      const at = new Date().toISOString();
      return deps.repo.transaction((tx, trx) =>
        storeOnce(trx, 'franquia', readEnvioKey(posted ?? undefined, lead), async () => {
          const id = await tx.insert({ ...lead, busca: searchText(lead) }, at);
          await emitWebhook(trx, {
            type: 'lead.criado',
            origin: `franquia_leads:${id}`,
            at: new Date(at),
            data: leadEventData(id, lead, at, deps.config.publicUrl),
          });
          await recordConsent(trx, {
            finalidade: 'franquia',
            ...consent,
            email: lead.email.toLowerCase(),
            telefone: lead.whatsapp,
            tabela: 'franquia_leads',
            registroId: id,
            aceitoEm: at,
          });
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
        }),
      );
    },
  };
  return service;
}
export type LeadService = ReturnType<typeof createLeadService>;

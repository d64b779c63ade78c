// The consent texts of the public forms, versioned in code (LGPD art. 8 §2: the chain must
// prove what the person agreed to). A text never changes in place: a new wording is a new
// version with its date, appended to its purpose's list; the last one is current. Each
// submission stores the version shown next to its checkbox (table consentimentos).

import { toId } from '../../lib/form/index';
import { formatDay } from '../../lib/time';

export const CONSENT_PURPOSES = ['franquia', 'aula_experimental', 'fale_aqui', 'matricula_ofertas'] as const;
export type ConsentPurpose = (typeof CONSENT_PURPOSES)[number];

export interface ConsentVersion {
  versao: number;
  /** aaaa-mm-dd: when this wording went on the site */
  desde: string;
  texto: string;
}

export interface ConsentPurposeInfo {
  /** what the form is, as /privacidade and the staff screen name it */
  nome: string;
  /** the table the submission is stored in */
  tabela: string;
  versions: readonly ConsentVersion[];
}

export const CONSENT_TEXTS: Record<ConsentPurpose, ConsentPurposeInfo> = {
  franquia: {
    nome: 'Seja um franqueado',
    tabela: 'franquia_leads',
    versions: [
      {
        versao: 1,
        desde: '2026-11-22',
        texto: 'Aceito ser contatado(a) pela equipe de expansão por WhatsApp, e-mail ou telefone',
      },
    ],
  },
  aula_experimental: {
    nome: 'Aula experimental',
    tabela: 'aulas_experimentais',
    versions: [
      {
        versao: 1,
        desde: '2026-11-23',
        texto:
          'Autorizo a unidade a falar comigo pelo WhatsApp (e pelo e-mail, se informado) sobre esta aula experimental.',
      },
    ],
  },
  fale_aqui: {
    nome: 'Fale aqui (mensagem com contato)',
    tabela: 'fale_aqui',
    versions: [
      {
        versao: 1,
        desde: '2026-11-23',
        texto: 'Aceito que a equipe da unidade entre em contato comigo sobre esta mensagem.',
      },
    ],
  },
  matricula_ofertas: {
    nome: 'Matrícula online (ofertas e novidades, opcional)',
    tabela: 'matriculas',
    versions: [
      {
        versao: 1,
        desde: '2026-11-28',
        texto:
          'Quero receber ofertas e novidades da rede por e-mail e WhatsApp (opcional; posso cancelar quando quiser).',
      },
    ],
  },
};

/**
 * The `finalidade` of a row that records a revocation with no consent of its own to revoke
 * (versao 0): the contact had records from before consents were kept.
 */
export const REVOCATION_MARK = 'revogacao';

/** The version shown on the forms now: the last of its purpose's list. */
export function currentConsent(purpose: ConsentPurpose): ConsentVersion {
  const versions = CONSENT_TEXTS[purpose].versions;
  return versions[versions.length - 1]!;
}

export function consentVersion(purpose: ConsentPurpose, versao: number): ConsentVersion | undefined {
  return CONSENT_TEXTS[purpose].versions.find((v) => v.versao === versao);
}

/**
 * The version a form posted (hidden field `versao_consentimento`, the one its page showed):
 * a known version of the purpose, or the current one when absent or unknown (an old page,
 * a client without the field).
 */
export function postedConsentVersion(purpose: ConsentPurpose, posted: unknown): number {
  const n = toId(posted) ?? Number.NaN;
  return consentVersion(purpose, n)?.versao ?? currentConsent(purpose).versao;
}

/** "versão 1, de 22/11/2026": what the forms print under the checkbox. */
export function consentLabel(v: ConsentVersion): string {
  return `versão ${v.versao}, de ${formatDay(v.desde)}`;
}

/** The channels a consent may come through (the survey's origins: site, poster QR code, kiosk). */
export const CONSENT_CHANNELS = ['site', 'cartaz', 'quiosque'] as const;
export type ConsentChannel = (typeof CONSENT_CHANNELS)[number];

/** Anything unknown counts as the site: never an error. */
export function readConsentChannel(value: unknown): ConsentChannel {
  return typeof value === 'string' && (CONSENT_CHANNELS as readonly string[]).includes(value)
    ? (value as ConsentChannel)
    : 'site';
}

/** The hidden fields a form with a consent checkbox carries. */
export const CONSENT_VERSION_FIELD = 'versao_consentimento';
export const CONSENT_CHANNEL_FIELD = 'origem';

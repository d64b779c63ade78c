// How long each kind of personal data is kept: the periods come from the configuration
// (RETENTION_*_MONTHS), and both the retention job and /privacidade read them from here,
// so the notice can never promise what the job does not do.
import type { RetentionConfig } from '../../config';

export type RetentionKind = 'leads' | 'messages' | 'surveyContacts' | 'bookings';

export interface RetentionRule {
  kind: RetentionKind;
  /** the setting that holds the period */
  setting: string;
  months: number;
  /** what is kept, as /privacidade says it */
  what: string;
  /** from when the period counts, after "a partir": "da data da aula" */
  from: string;
  /** what happens at the end of it */
  after: string;
}

/** Incidents are kept this many years from their registration (ANPD Resolution 15/2024). */
export const INCIDENT_RETENTION_YEARS = 5;

/**
 * Online enrolments are not a RETENTION_* setting: the contract, its acceptance proof and the
 * payments must outlive an erasure request for as long as either side may still go to court
 * over them — five years after the contract ends (Código Civil art. 206 §5º I for what a
 * written contract owes, CDC art. 27 for damages), longer only while a claim is open.
 */
export const ENROLMENT_RETENTION_YEARS = 5;

/** What /privacidade, "Meus dados" and the staff erasure screen say about it, in one sentence. */
export const ENROLMENT_RETENTION_TEXT =
  'o contrato aceito (com nome, CPF, data de nascimento, e-mail e, se houver, o responsável), a prova do aceite ' +
  '(data, hora, endereço IP e navegador) e os pagamentos ficam guardados enquanto o contrato vigorar e por ' +
  `${ENROLMENT_RETENTION_YEARS} anos depois do fim dele — o prazo para cobrar valores de um contrato escrito ` +
  '(Código Civil, art. 206, § 5º, I) e para pedir reparação por defeito do serviço (Código de Defesa do ' +
  'Consumidor, art. 27) — e, se houver cobrança, reclamação ou processo sobre ele, até que termine ' +
  '(LGPD, arts. 7º, VI, e 16, I). Passado esse prazo, seu nome, CPF, nascimento, e-mail, WhatsApp, os dados do ' +
  'responsável, o texto do contrato com eles e a prova do aceite são apagados; ficam só o plano, os valores e as ' +
  'datas, sem identificar você';

/** The rules in the order /privacidade lists them. */
export function retentionRules(r: RetentionConfig): RetentionRule[] {
  return [
    {
      kind: 'surveyContacts',
      setting: 'RETENTION_SURVEY_CONTACT_MONTHS',
      months: r.surveyContactMonths,
      what: 'Nome e contato deixados na pesquisa de satisfação',
      from: 'da data da resposta',
      after: 'nome e contato são apagados; as notas e respostas ficam, sem identificar você, nas estatísticas',
    },
    {
      kind: 'messages',
      setting: 'RETENTION_MESSAGES_MONTHS',
      months: r.messagesMonths,
      what: 'Mensagens do Fale aqui, com as fotos e as respostas da equipe',
      from: 'da data da mensagem',
      after:
        'o texto, o nome e o contato são apagados e as fotos são excluídas; ' +
        'fica só o registro de que houve uma mensagem',
    },
    {
      kind: 'leads',
      setting: 'RETENTION_LEADS_MONTHS',
      months: r.leadsMonths,
      what: 'Contatos de franquia (nome, WhatsApp, e-mail e anotações da equipe)',
      from: 'da última movimentação do contato',
      after: 'nome, WhatsApp, e-mail e anotações são apagados; ficam a cidade e as respostas de múltipla escolha',
    },
    {
      kind: 'bookings',
      setting: 'RETENTION_BOOKINGS_MONTHS',
      months: r.bookingsMonths,
      what: 'Agendamentos de aula experimental (nome, WhatsApp e e-mail)',
      from: 'da data da aula',
      after: 'nome, WhatsApp e e-mail são apagados; o agendamento fica só como número nas estatísticas',
    },
  ];
}

/** "12 meses", "1 mês", "24 meses (2 anos)" */
export function monthsLabel(months: number): string {
  const base = months === 1 ? '1 mês' : `${months} meses`;
  if (months >= 12 && months % 12 === 0) {
    const years = months / 12;
    return `${base} (${years === 1 ? '1 ano' : `${years} anos`})`;
  }
  return base;
}

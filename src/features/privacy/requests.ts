// What a data subject may ask (LGPD art. 18) and the queue's statuses. Part of the
// interface: the values are stored in privacidade_solicitacoes.tipo / .status.
import { nowIso } from '../../db/index';
import { maskSubject, type Subject } from './registry';
import type { NewPrivacyRequest } from './requests.repository';

export const REQUEST_KINDS = {
  acesso: 'Confirmação e acesso aos dados',
  portabilidade: 'Cópia dos dados (portabilidade)',
  correcao: 'Correção',
  eliminacao: 'Eliminação',
  informacao: 'Informação sobre compartilhamento',
  revogacao: 'Revogação do consentimento',
} as const satisfies Record<string, string>;
export type RequestKind = keyof typeof REQUEST_KINDS;

/**
 * What staff open for someone at the front desk: a revocation is not among them, because
 * staff revoke at once on the consents screen (the person does it in "Meus dados").
 */
export const STAFF_REQUEST_KINDS = Object.keys(REQUEST_KINDS).filter((k) => k !== 'revogacao') as RequestKind[];
export const isStaffRequestKind = (v: string): v is RequestKind => (STAFF_REQUEST_KINDS as string[]).includes(v);

export const REQUEST_STATUSES = { aberta: 'Aberta', concluida: 'Concluída', recusada: 'Recusada' } as const;

/** The chain answers within 15 days (LGPD art. 19 II). */
export const DEADLINE_DAYS = 15;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A request row: the person, the deadline; `done` = answered by the site at once (access, a copy). */
export function requestRow(input: {
  tipo: RequestKind;
  canal: 'site' | 'equipe';
  subject: Subject;
  texto?: string | null;
  envioId?: string | null;
  openedBy?: number | null;
  done?: boolean;
  now?: Date;
}): NewPrivacyRequest {
  const now = input.now ?? new Date();
  const at = nowIso(now);
  return {
    tipo: input.tipo,
    status: input.done ? 'concluida' : 'aberta',
    canal: input.canal,
    email: input.subject.email,
    telefone: input.subject.phones[0] ?? null,
    titular: maskSubject(input.subject),
    texto: input.texto ?? null,
    envio_id: input.envioId ?? null,
    prazo_em: nowIso(new Date(now.getTime() + DEADLINE_DAYS * DAY_MS)),
    aberta_por: input.openedBy ?? null,
    concluida_em: input.done ? at : null,
    criado_em: at,
    atualizado_em: at,
  };
}

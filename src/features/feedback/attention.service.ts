// The staff home's attention queue: per unit the user can see, detractor answers (0–6)
// with a comment that nobody has dealt with yet, free messages still unanswered after 48
// hours, and online enrolments waiting for staff (a Pix first payment to confirm, a refund
// due soon or overdue: the enrolment feature's rule), oldest first.
import type { EnrolmentReadsService } from '../enrolment/reads.service';
import type { FaleAquiRepository } from './messages/fale-aqui.repository';
import type { SurveyRepository } from './survey/survey.repository';

export const UNANSWERED_AFTER_MS = 48 * 60 * 60 * 1000;
/** Detractors older than this are history, not a queue (the report still lists them). */
export const DETRACTOR_WINDOW_DAYS = 90;
const LIMIT = 200;

export type AttentionItem =
  | {
      kind: 'detrator';
      id: number;
      criadoEm: string;
      nota: number;
      nome: string | null;
      contato: string | null;
      texto: string;
    }
  | {
      kind: 'mensagem';
      id: number;
      criadoEm: string;
      nome: string;
      contato: string | null;
      texto: string;
      status: string;
    }
  | {
      /** an enrolment whose Pix first payment waits for staff to see it in the bank statement */
      kind: 'pagamento';
      /** the enrolment */
      id: number;
      criadoEm: string;
      nome: string;
      valorCentavos: number;
      expiraEm: string | null;
    }
  | {
      /** a refund of an enrolment due soon or overdue */
      kind: 'reembolso';
      /** the refund (a row of matriculas_pagamentos) */
      id: number;
      matriculaId: number;
      criadoEm: string;
      nome: string;
      valorCentavos: number;
      prazo: string | null;
    };

type PaymentItem = Extract<AttentionItem, { kind: 'pagamento' }>;
type RefundItem = Extract<AttentionItem, { kind: 'reembolso' }>;
/** What an enrolment item takes from the enrolment's row as it is. */
type Shared = 'id' | 'criadoEm' | 'nome';
interface EnrolmentRow {
  unidade_id: number;
  unidade_nome: string;
  id: number;
  criado_em: string;
  nome: string;
}

export interface AttentionGroup {
  unidadeId: number | null;
  unidade: string;
  items: AttentionItem[];
}

export interface AttentionQueue {
  groups: AttentionGroup[];
  /** a kind reached its limit: more items wait than were read (the oldest were) */
  partial: boolean;
}

export function createAttentionService(
  surveyRepo: SurveyRepository,
  messagesRepo: FaleAquiRepository,
  enrolmentReads: Pick<EnrolmentReadsService, 'attention'>,
) {
  return {
    async queue(unitIds: number[] | null, now = new Date()): Promise<AttentionQueue> {
      const since = new Date(now.getTime() - DETRACTOR_WINDOW_DAYS * 86_400_000).toISOString();
      const before = new Date(now.getTime() - UNANSWERED_AFTER_MS).toISOString();
      const [detractors, unanswered, enrolments] = await Promise.all([
        surveyRepo.detractorsToHandle(unitIds, since, LIMIT),
        messagesRepo.unansweredBefore(unitIds, before, LIMIT),
        enrolmentReads.attention(unitIds, now),
      ]);
      const groups = new Map<string, AttentionGroup>();
      const group = (unidadeId: number | null, unidade: string) => {
        const key = unidadeId === null ? `t:${unidade}` : `u:${unidadeId}`;
        let g = groups.get(key);
        if (!g) groups.set(key, (g = { unidadeId, unidade, items: [] }));
        return g;
      };
      for (const d of detractors) {
        group(d.unidade_id, d.unidade).items.push({
          kind: 'detrator',
          id: d.id,
          criadoEm: d.criado_em,
          nota: d.nota_nps ?? 0,
          nome: d.nome_cliente,
          contato: d.contato_cliente,
          texto: d.comentario ?? '',
        });
      }
      for (const m of unanswered) {
        group(m.unidade_id, m.unidade).items.push({
          kind: 'mensagem',
          id: m.id,
          criadoEm: m.criado_em,
          nome: m.anonimo ? 'Anônimo' : m.nome_completo,
          contato: [m.contato_email, m.contato_telefone].filter(Boolean).join(' · ') || null,
          texto: m.mensagem,
          status: m.status,
        });
      }
      // Both enrolment kinds read the unit, id, start and person from the enrolment's row.
      const addEnrolment = (row: EnrolmentRow, item: Omit<PaymentItem, Shared> | Omit<RefundItem, Shared>) =>
        group(row.unidade_id, row.unidade_nome).items.push({
          id: row.id,
          criadoEm: row.criado_em,
          nome: row.nome,
          ...item,
        });
      for (const p of enrolments.payments)
        addEnrolment(p, { kind: 'pagamento', valorCentavos: p.primeiro_pagamento_centavos, expiraEm: p.expira_em });
      for (const r of enrolments.refunds)
        addEnrolment(r, {
          kind: 'reembolso',
          matriculaId: r.matricula_id,
          valorCentavos: r.valor_centavos,
          prazo: r.prazo,
        });
      const list = [...groups.values()];
      for (const g of list) g.items.sort((a, b) => a.criadoEm.localeCompare(b.criadoEm) || a.id - b.id);
      // The unit with the oldest waiting item first.
      list.sort((a, b) => a.items[0]!.criadoEm.localeCompare(b.items[0]!.criadoEm));
      return {
        groups: list,
        partial: detractors.length >= LIMIT || unanswered.length >= LIMIT || enrolments.partial,
      };
    },
  };
}
export type AttentionService = ReturnType<typeof createAttentionService>;

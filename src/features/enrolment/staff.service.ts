// What staff do with enrolments: the list (a manager sees their units), the detail with
// the acceptance proof, payments and history, the actions (confirm a payment, register a
// refund, mark as registered at the front desk), the CSV export and the contract's versions.
import type { Transactional } from '../../db/transactional';
import type { EnrolmentStatus } from '../../db/types';
import { nowIso } from '../../db/index';
import { keysetBatches } from '../../lib/batches';
import { csvDate } from '../../db/csv/index';
import { isDay } from '../../lib/form/index';
import { pageWindow } from '../../lib/pagination';
import { addDays, saoPauloDayStartIso } from '../../lib/time';
import { ForbiddenError, NotFoundError } from '../../staff/errors';
import { canAccessUnit, scopeUnits, type StaffUser } from '../../staff/access';
import { formatCpfDigits, unknownPlaceholders } from './contract';
import type { EnrolmentFilter, EnrolmentRepository } from './enrolment.repository';
import { STATUS_LABELS, type Enrolment, type EnrolmentRepos, type EnrolmentService } from './enrolment.service';

export const PAGE_SIZE = 50;
/** The list filter's value for members with a monthly payment overdue. */
export const DEFAULTING = 'inadimplente';
export const CONTRACT_MAX = 60_000;

export const isEnrolmentStatus = (s: unknown): s is EnrolmentStatus => typeof s === 'string' && s in STATUS_LABELS;

export interface ListParams {
  unidade_id?: number | null;
  status?: string;
  de?: string;
  ate?: string;
  pagina?: string;
}

type Staff = Pick<StaffUser, 'id' | 'papel' | 'unidadeIds'>;

export function createEnrolmentStaffService(
  enrolments: EnrolmentService,
  repo: Transactional<EnrolmentRepos>,
  reads: EnrolmentRepository,
) {
  /** The filter a staff member may apply; a unit outside their scope is refused. */
  function filterOf(staff: Staff, p: ListParams): EnrolmentFilter {
    if (p.unidade_id && !canAccessUnit(staff, p.unidade_id)) throw new ForbiddenError();
    return {
      unitIds: p.unidade_id ? [p.unidade_id] : scopeUnits(staff),
      status: isEnrolmentStatus(p.status) ? p.status : null,
      defaulting: p.status === DEFAULTING,
      from: p.de && isDay(p.de) ? saoPauloDayStartIso(p.de) : null,
      to: p.ate && isDay(p.ate) ? saoPauloDayStartIso(addDays(p.ate, 1)) : null,
    };
  }

  /** An enrolment the staff member may see, or the error the scope answers (404 / 403). */
  async function visible(staff: Staff, id: number): Promise<Enrolment> {
    const e = await repo.byId(id);
    if (!e) throw new NotFoundError();
    if (!canAccessUnit(staff, e.unidade_id)) throw new ForbiddenError();
    return e;
  }

  return {
    async list(staff: Staff, p: ListParams) {
      const filter = filterOf(staff, p);
      const total = await reads.count(filter);
      const window = pageWindow(total, PAGE_SIZE, p.pagina);
      const rows = await reads.list(filter, PAGE_SIZE, window.offset);
      const refunds = await reads.pendingRefunds(filter.unitIds);
      return { rows, total, window, refunds };
    },

    async detail(staff: Staff, id: number) {
      const enrolment = await visible(staff, id);
      return { enrolment, payments: await repo.payments(id), history: await repo.history(id) };
    },

    async confirmPayment(staff: Staff, id: number, paymentId: number, now = new Date()) {
      const e = await visible(staff, id);
      // Withdrawn before staff saw the Pix: it is recorded and refunded, not activated.
      if (e.status === 'desistencia') return enrolments.receivedAfterWithdrawal(e, paymentId, staff.id, now);
      return enrolments.confirmPayment(e, paymentId, staff.id, now);
    },
    async registerRefund(staff: Staff, id: number, paymentId: number, now = new Date()) {
      return enrolments.registerRefund(await visible(staff, id), paymentId, staff.id, now);
    },
    async markFrontDesk(staff: Staff, id: number, now = new Date()) {
      return enrolments.markFrontDesk(await visible(staff, id), staff.id, now);
    },

    /** The export: every enrolment of the filter, a keyset batch at a time. */
    exportRows(staff: Staff, p: ListParams) {
      const filter = filterOf(staff, p);
      const batches = keysetBatches({
        size: 1000,
        fetch: (after: number | null) => repo.exportBatch(filter, after ?? 0, 1000),
        cursorOf: (row: Enrolment) => row.id,
      });
      return (async function* () {
        for await (const batch of batches)
          yield batch.map((e) => [
            e.id,
            csvDate(e.criado_em),
            e.unidade_nome,
            e.plano_nome,
            STATUS_LABELS[e.status],
            e.nome,
            formatCpfDigits(e.cpf),
            e.email,
            e.whatsapp ?? '',
            (e.mensalidade_centavos / 100).toFixed(2).replace('.', ','),
            (e.primeiro_pagamento_centavos / 100).toFixed(2).replace('.', ','),
            e.contrato_versao,
            e.ativada_em ? csvDate(e.ativada_em) : '',
            e.protocolo ?? '',
            e.recepcao_em ? csvDate(e.recepcao_em) : '',
          ]);
      })();
    },

    /** Enrolments per status, every status present (0 when none): the metrics gauge reads it at each scrape. */
    async countByStatus(): Promise<Record<EnrolmentStatus, number>> {
      const out = Object.fromEntries(Object.keys(STATUS_LABELS).map((s) => [s, 0])) as Record<EnrolmentStatus, number>;
      for (const r of await reads.countByStatus()) if (isEnrolmentStatus(r.status)) out[r.status] = r.n;
      return out;
    },

    /** Attention queue of the staff home. */
    attention: (staff: Staff) => reads.attention(scopeUnits(staff)),

    contractVersions: () => repo.contractVersions(),
    contractVersion: (versao: number) => repo.contractVersion(versao),

    /** Saves the text as a new version; the old ones stay readable. */
    async saveContract(
      staffId: number,
      raw: string,
      now = new Date(),
    ): Promise<{ ok: true; versao: number } | { ok: false; error: string }> {
      const texto = raw.replace(/\r\n?/g, '\n').trim();
      if (texto.length < 200)
        return { ok: false, error: 'O contrato precisa ter o texto completo (pelo menos 200 caracteres).' };
      if (texto.length > CONTRACT_MAX)
        return { ok: false, error: `O contrato pode ter até ${CONTRACT_MAX} caracteres.` };
      if (texto.includes('\u0000')) return { ok: false, error: 'O texto contém um caractere inválido (NUL).' };
      const unknown = unknownPlaceholders(texto);
      if (unknown.length)
        return {
          ok: false,
          error: `Campo desconhecido: ${unknown.map((u) => `{{${u}}}`).join(', ')}. Use só os da lista.`,
        };
      const at = nowIso(now);
      for (let attempt = 0; ; attempt++) {
        try {
          const saved = await repo.transaction(async (tx) => {
            const v = await tx.insertContractVersion(texto, staffId, at);
            await tx.audit.record(
              {
                usuarioId: staffId,
                acao: 'nova_versao',
                entidade: 'contrato',
                entidadeId: v.versao,
                depois: { versao: v.versao, caracteres: texto.length },
              },
              at,
            );
            return v;
          });
          return { ok: true, versao: saved.versao };
        } catch (err) {
          // Two saves at the same moment took the same number: the second goes after it.
          if (
            attempt < 3 &&
            /unique|UNIQUE|23505/.test(String((err as { code?: string }).code ?? (err as Error).message))
          )
            continue;
          throw err;
        }
      }
    },
  };
}

export type EnrolmentStaffService = ReturnType<typeof createEnrolmentStaffService>;

export const EXPORT_HEADER = [
  'id',
  'criada_em',
  'unidade',
  'plano',
  'situacao',
  'nome',
  'cpf',
  'email',
  'whatsapp',
  'mensalidade',
  'primeiro_pagamento',
  'contrato_versao',
  'ativada_em',
  'protocolo_cancelamento',
  'recepcao_em',
];

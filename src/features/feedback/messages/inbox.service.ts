// What staff see of the free messages: the inbox, a message with its photos and thread,
// reading, replying (e-mail through the outbox, or WhatsApp), status changes, the time
// to first reply per unit, the CSV export. Photos are read through the storage module.
import { nowIso } from '../../../db/index';
import type { FileStorage } from '../../../platform/storage/index';
import { MAIL_PRIORITY, type OutgoingMail } from '../../../platform/mail/outbox.repository';
import { databaseCsv } from '../../../db/csv/index';
import { formatPhone as formatBrazilianPhone } from '../../../lib/form/index';
import { pageWindow } from '../../../lib/pagination';
import { cleanText } from '../../../lib/text';
import { formatDateTime } from '../../../lib/time';
import {
  MESSAGE_STATUSES,
  type FaleAquiRepository,
  type MessageFilter,
  type MessageStatus,
  type StatusChangeHook,
} from './fale-aqui.repository';
import { IMAGE_TYPES } from './images';
import { emitWebhook } from '../../../platform/webhooks/webhooks.repository';
import { messageEventData } from './webhook-events';
import { whatsappHref } from '../../../brand/index';
import type { ConsentService } from '../../privacy/consent.service';

export const INBOX_PAGE_SIZE = 25;
export const REPLY_MAX = 5000;
export const STATUS_LABEL: Record<MessageStatus, string> = {
  nova: 'Nova',
  lida: 'Lida',
  respondida: 'Respondida',
  resolvida: 'Resolvida',
};
/** Statuses before the four-step pipeline, still accepted from bookmarks and old forms. */
const LEGACY_STATUS: Record<string, MessageStatus> = { novo: 'nova', lido: 'lida', resolvido: 'resolvida' };
export const isStatus = (s: unknown): s is MessageStatus =>
  typeof s === 'string' && (MESSAGE_STATUSES as readonly string[]).includes(s);
export function toStatus(s: unknown): MessageStatus | null {
  if (isStatus(s)) return s;
  return typeof s === 'string' ? (LEGACY_STATUS[s] ?? null) : null;
}

const SAFE_TYPES = new Set(Object.values(IMAGE_TYPES).map((t) => t.mime));

export interface ReplySettings {
  /** mail can be queued (SMTP_HOST set) */
  mailConfigured: boolean;
  brandName: string;
  publicUrl: string;
}

export interface StaffRef {
  id: number;
  nome: string;
}

type Message = NonNullable<Awaited<ReturnType<FaleAquiRepository['byId']>>>;

const firstName = (m: Pick<Message, 'anonimo' | 'nome_completo'>) =>
  m.anonimo ? '' : (m.nome_completo.split(/\s+/)[0] ?? '');

/** wa.me link with a greeting the staff member can edit before sending. */
export function whatsappLink(
  m: Pick<Message, 'anonimo' | 'nome_completo' | 'unidade' | 'contato_telefone'>,
  staff: StaffRef,
  brandName: string,
): string | null {
  if (!m.contato_telefone) return null;
  const name = firstName(m);
  const greeting =
    `Olá${name ? `, ${name}` : ''}! Aqui é ${staff.nome}, da ${brandName} ${m.unidade}. ` +
    'Recebemos sua mensagem pelo “Fale aqui” e queremos ajudar.';
  return whatsappHref(m.contato_telefone.replace(/\D/g, ''), greeting);
}

export function replyMail(m: Message, texto: string, staff: StaffRef, s: ReplySettings): OutgoingMail {
  const name = firstName(m);
  const quoted = m.mensagem
    .split(/\r?\n/)
    .map((l) => `> ${l}`)
    .join('\n');
  return {
    to: m.contato_email!,
    subject: `Resposta à sua mensagem · ${s.brandName} ${m.unidade}`,
    text: [
      `Olá${name ? `, ${name}` : ''}!`,
      '',
      texto,
      '',
      `${staff.nome}`,
      `Equipe ${s.brandName} · ${m.unidade}`,
      '',
      `Sua mensagem de ${formatDateTime(m.criado_em)}:`,
      quoted,
      '',
      `${s.brandName} · ${s.publicUrl}/`,
    ].join('\n'),
    replyTo: m.unidade_email || null,
    // A person waits for it: ahead of bulk mail (lead notices, weekly digests).
    priority: MAIL_PRIORITY.chain,
    origin: `fale_aqui_resposta:${m.id}`,
  };
}

/** "45 min", "3 h 20 min", "2 dias e 4 h" */
export function formatDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return `${days} ${days === 1 ? 'dia' : 'dias'}${rest ? ` e ${rest} h` : ''}`;
}

export function median(values: number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export type ReplyResult = { ok: true } | { ok: false; errors: Record<string, string> };

export function createMessagesAdminService(
  repo: FaleAquiRepository,
  storage: FileStorage,
  settings: ReplySettings,
  consents: Pick<ConsentService, 'revocationFor'>,
  /** the same repository over `app.readDb`: the list, its counts and reply times (long reads) */
  reads: Pick<FaleAquiRepository, 'countByStatus' | 'list' | 'replyTimes'> = repo,
  /** the same over the connection the export's batches are written on (`exportDb`, src/db/index.ts) */
  lines: Pick<FaleAquiRepository, 'csvBefore' | 'csvBatchRows'> = repo,
) {
  /** When the sender revoked consent to be contacted about this message (null: not revoked). */
  const revokedAt = (m: Pick<Message, 'id' | 'contato_email' | 'contato_telefone' | 'criado_em'>) =>
    consents.revocationFor({
      tabela: 'fale_aqui',
      registroId: m.id,
      email: m.contato_email,
      telefone: m.contato_telefone,
      criadoEm: m.criado_em,
    });

  /**
   * The hook that queues "mensagem.status" in the change's transaction. The message's
   * fields are read before (they do not change with the status; the statuses come from
   * the change itself).
   */
  async function statusEvent(id: number): Promise<StatusChangeHook | undefined> {
    const [message, files] = await Promise.all([repo.byId(id), repo.filesOf(id)]);
    if (!message) return undefined;
    return async (trx, from, to) => {
      const at = new Date();
      await emitWebhook(trx, {
        type: 'mensagem.status',
        origin: `fale_aqui:${id}`,
        at,
        data: {
          ...messageEventData(
            { ...message, status: to },
            files.map((f) => f.id),
            settings.publicUrl,
          ),
          status_anterior: from,
          alterado_em: at.toISOString(),
        },
      });
    };
  }

  return {
    /** `page`: `pagina` as asked (src/lib/pagination.ts reads it). */
    async inbox(filter: MessageFilter, page: unknown) {
      // The counts per status cover every status, so the list's total is one of them or their sum.
      const counts = await reads.countByStatus(filter);
      const total = filter.status
        ? (counts[filter.status] ?? 0)
        : Object.values(counts).reduce<number>((sum, n) => sum + (n ?? 0), 0);
      const { page: current, pages, size, offset } = pageWindow(total, INBOX_PAGE_SIZE, page);
      const rows = await reads.list(filter, size, offset);
      return { rows: rows.map((r) => ({ ...r, fotos: Number(r.fotos ?? 0) })), total, page: current, pages, counts };
    },

    /** Per unit, over the messages received in the filter's period: median time to first reply. */
    async replyTimes(filter: MessageFilter) {
      const { counts, middles } = await reads.replyTimes(filter);
      const middleTimes = new Map<string, number[]>();
      for (const m of middles) {
        const list = middleTimes.get(m.chave);
        const ms = Math.round(Number(m.ms));
        if (list) list.push(ms);
        else middleTimes.set(m.chave, [ms]);
      }
      return counts
        .map((u) => ({
          unidade: u.unidade ?? '',
          recebidas: Number(u.recebidas),
          respondidas: Number(u.respondidas),
          abertas: Number(u.abertas ?? 0),
          mediana: median(middleTimes.get(u.chave) ?? []),
        }))
        .sort((a, b) => a.unidade.localeCompare(b.unidade, 'pt-BR'));
    },

    /** Opening a new message marks it read by `reader` (call after the scope check). */
    async markRead(id: number, reader: StaffRef) {
      await repo.markRead(id, reader.id, nowIso(), await statusEvent(id));
      return this.message(id);
    },

    async message(id: number) {
      const message = await repo.byId(id);
      if (!message) return null;
      const [files, replies, history, revogadoEm] = await Promise.all([
        repo.filesOf(id),
        repo.repliesOf(id),
        repo.historyOf(id),
        revokedAt(message),
      ]);
      return {
        message: {
          ...message,
          telefone_formatado: message.contato_telefone ? formatBrazilianPhone(message.contato_telefone) : null,
        },
        files,
        replies,
        history,
        /** the sender revoked consent to be contacted: no reply may go out */
        consentimentoRevogadoEm: revogadoEm,
      };
    },

    /**
     * Sends the staff member's text to the customer by e-mail (through the outbox) or
     * records a reply given on WhatsApp; either way the message becomes "respondida".
     * Refused once the sender revoked consent to be contacted.
     */
    async reply(id: number, canal: unknown, rawText: unknown, staff: StaffRef): Promise<ReplyResult> {
      const message = await repo.byId(id);
      if (!message) return { ok: false, errors: { texto: 'Esta mensagem não existe.' } };
      const texto = cleanText(typeof rawText === 'string' ? rawText : '');
      const errors: Record<string, string> = {};
      if (canal !== 'email' && canal !== 'whatsapp') errors.canal = 'Escolha como a resposta foi dada.';
      if (texto === '')
        errors.texto = canal === 'whatsapp' ? 'Escreva o que foi dito ao cliente.' : 'Escreva a resposta.';
      else if ([...texto].length > REPLY_MAX) errors.texto = `A resposta pode ter no máximo ${REPLY_MAX} caracteres.`;
      if (canal === 'email') {
        if (!message.contato_email) errors.texto = 'O cliente não deixou e-mail: responda pelo telefone.';
        else if (!settings.mailConfigured)
          errors.texto = 'O envio de e-mail não está configurado neste servidor (SMTP_HOST). Nada foi enviado.';
      }
      if (canal === 'whatsapp' && !message.contato_telefone) errors.texto = 'O cliente não deixou telefone.';
      if (!errors.canal && (await revokedAt(message)))
        errors.texto =
          'A pessoa revogou o consentimento de contato: nenhuma resposta pode ser enviada. Nada foi enviado.';
      if (Object.keys(errors).length) return { ok: false, errors };
      const email = canal === 'email';
      await repo.addReply(
        {
          messageId: id,
          userId: staff.id,
          canal: email ? 'email' : 'whatsapp',
          destinatario: email ? message.contato_email : message.contato_telefone,
          texto,
          now: nowIso(),
        },
        email ? replyMail(message, texto, staff, settings) : null,
        await statusEvent(id),
      );
      return { ok: true };
    },

    async setStatus(id: number, status: MessageStatus, staff: StaffRef) {
      return repo.setStatus(id, status, staff.id, nowIso(), await statusEvent(id));
    },

    /** The stored file of a photo, with a content type from our own list (never the client's). */
    async photo(fileId: number) {
      const file = await repo.fileById(fileId);
      if (!file) return null;
      const stored = await storage.get(file.caminho);
      if (!stored) return { file, missing: true as const };
      return {
        file,
        missing: false as const,
        size: stored.size,
        contentType: SAFE_TYPES.has(file.tipo) ? file.tipo : 'application/octet-stream',
        open: () => stored.open(),
      };
    },

    exportRows(filter: MessageFilter) {
      const header = [
        'id',
        'data',
        'unidade',
        'nome',
        'anonimo',
        'status',
        'mensagem',
        'fotos',
        'contato_email',
        'contato_telefone',
        'primeira_resposta',
      ];
      const rows = databaseCsv(
        (after: { id: number } | null, size) => lines.csvBefore(filter, after?.id ?? null, size, STATUS_LABEL),
        lines.csvBatchRows,
      );
      return { header, rows };
    },
  };
}
export type MessagesAdminService = ReturnType<typeof createMessagesAdminService>;

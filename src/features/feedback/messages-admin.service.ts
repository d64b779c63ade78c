// What staff see of the free messages: the inbox, a message with its photos, status
// changes, the CSV export. Photos are read through the storage module, never from public/.
import { nowIso } from '../../db/index';
import type { FileStorage } from '../storage/index';
import { csvDate } from '../../lib/csv';
import { MESSAGE_STATUSES, type FaleAquiRepository, type MessageFilter, type MessageStatus } from './fale-aqui.repository';
import { IMAGE_TYPES } from './images';

export const INBOX_PAGE_SIZE = 25;
export const STATUS_LABEL: Record<MessageStatus, string> = { novo: 'Novo', lido: 'Lido', resolvido: 'Resolvido' };
export const isStatus = (s: unknown): s is MessageStatus => typeof s === 'string' && (MESSAGE_STATUSES as readonly string[]).includes(s);

const SAFE_TYPES = new Set(Object.values(IMAGE_TYPES).map((t) => t.mime));

export function createMessagesAdminService(repo: FaleAquiRepository, storage: FileStorage) {
  return {
    async inbox(filter: MessageFilter, page: number) {
      const [total, counts] = await Promise.all([repo.count(filter), repo.countByStatus(filter)]);
      const pages = Math.max(1, Math.ceil(total / INBOX_PAGE_SIZE));
      const current = Math.min(Math.max(1, page), pages);
      const rows = await repo.list(filter, INBOX_PAGE_SIZE, (current - 1) * INBOX_PAGE_SIZE);
      return { rows: rows.map((r) => ({ ...r, fotos: Number(r.fotos ?? 0) })), total, page: current, pages, counts };
    },

    async message(id: number) {
      const message = await repo.byId(id);
      if (!message) return null;
      return { message, files: await repo.filesOf(id) };
    },

    async setStatus(id: number, status: MessageStatus) {
      return repo.setStatus(id, status, nowIso());
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
      const header = ['id', 'data', 'unidade', 'nome', 'anonimo', 'status', 'mensagem', 'fotos'];
      async function* rows() {
        let before: number | null = null;
        for (;;) {
          const batch = await repo.before(filter, before, 500);
          if (!batch.length) return;
          for (const m of batch) {
            yield [m.id, csvDate(m.criado_em), m.unidade, m.nome_completo, m.anonimo ? 'sim' : 'não', STATUS_LABEL[m.status as MessageStatus] ?? m.status, m.mensagem, Number(m.fotos ?? 0)];
          }
          before = batch[batch.length - 1]!.id;
        }
      }
      return { header, rows: rows() };
    },
  };
}

// Reading the audit log: one page of entries for a filter (the writes happen inside each
// change's own transaction, through the repository content and identity are handed).
import { pageWindow } from '../../lib/pagination';
import { LIST_PAGE_SIZE } from '../../staff/list';
import type { AuditFilter, AuditRepository } from './audit.repository';

export function createAuditService(repo: AuditRepository) {
  return {
    /** Page `pagina` of the entries matching `filter`; past the end, the last real page. */
    async page(filter: AuditFilter, pagina: unknown) {
      const info = pageWindow(await repo.count(filter), LIST_PAGE_SIZE, pagina);
      return { info, rows: await repo.list(filter, info.size, info.offset) };
    },
  };
}
export type AuditService = ReturnType<typeof createAuditService>;

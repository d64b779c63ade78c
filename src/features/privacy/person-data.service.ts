// One person's data across the whole site, through the registry: what the site holds (per
// kind), the ZIP of all of it, and erasure (one transaction: the request closed, every
// registered row anonymised or deleted, the audit row; the photos deleted from storage
// after the commit). Used by "Meus dados" (the person) and the staff queue.
import { brand } from '../../brand/index';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import { normalizePhone } from '../../lib/form/index';
import type { FileStorage } from '../../platform/storage/index';
import type { AuditRepository } from '../audit/audit.repository';
import { buildExportZip, type ExportPhoto } from './export';
import type { Located, PersonDataRepository, Row } from './person-data.repository';
import { EXPORT_LABELS, type ExportKind, PERSONAL_DATA, type Subject, type TableEntry } from './registry';
import type { ConsentRepository } from './consent.repository';
import type { RequestsRepository } from './requests.repository';

export interface PrivacyRepos {
  person: PersonDataRepository;
  requests: RequestsRepository;
  consents: ConsentRepository;
  audit: AuditRepository;
}

export interface KindSummary {
  kind: ExportKind;
  label: string;
  rows: Row[];
}

/** The columns of an entry the person gets: its id, its personal columns and the context ones. */
export function exportColumns(entry: TableEntry): string[] {
  const personal = Object.entries(entry.columns)
    .filter(([, c]) => !c.noExport)
    .map(([name]) => name);
  return [...new Set([entry.id ?? 'id', ...personal, ...(entry.exportAlso ?? [])])];
}

export function createPersonDataService(deps: {
  repos: Transactional<PrivacyRepos>;
  storage: FileStorage;
  log: { warn(obj: object, msg: string): void };
}) {
  const { repos, storage } = deps;

  async function kinds(located: Located): Promise<KindSummary[]> {
    const out: KindSummary[] = [];
    for (const entry of PERSONAL_DATA) {
      const ids = located.get(entry.table);
      if (!entry.exportAs || !ids?.length) continue;
      out.push({
        kind: entry.exportAs,
        label: EXPORT_LABELS[entry.exportAs],
        rows: await repos.person.rows(entry.table, ids, exportColumns(entry)),
      });
    }
    return out;
  }

  async function readFile(key: string): Promise<Uint8Array | null> {
    const file = await storage.get(key);
    if (!file) return null;
    const chunks: Buffer[] = [];
    for await (const c of file.open()) chunks.push(c as Buffer);
    return Buffer.concat(chunks);
  }

  return {
    locate(subject: Subject): Promise<Located> {
      return repos.person.locate(subject);
    },

    /**
     * The subject plus the phones found in the rows of its e-mail (the same person gave both
     * on one form): erasure reaches the rows that carry only the phone.
     */
    async expand(subject: Subject): Promise<Subject> {
      const located = await repos.person.locate(subject);
      const phones = new Set(subject.phones);
      for (const entry of PERSONAL_DATA) {
        const ids = located.get(entry.table);
        const phoneColumns = Object.entries(entry.columns)
          .filter(([, c]) => c.kind === 'phone' && c.match === 'phone')
          .map(([name]) => name);
        if (!ids?.length || !phoneColumns.length) continue;
        for (const row of await repos.person.rows(entry.table, ids, phoneColumns))
          for (const v of Object.values(row)) {
            const phone = typeof v === 'string' ? normalizePhone(v) : null;
            if (phone) phones.add(phone);
          }
      }
      return { email: subject.email, phones: [...phones] };
    },

    /** What the site holds for the subject, per kind (the rows as the export gives them). */
    async overview(subject: Subject): Promise<KindSummary[]> {
      return kinds(await repos.person.locate(subject));
    },

    /** Everything as one ZIP: JSON and CSV per kind, and the photos. */
    async exportZip(subject: Subject): Promise<Uint8Array> {
      const summary = await kinds(await repos.person.locate(subject));
      const photos: ExportPhoto[] = [];
      const fotos = summary.find((k) => k.kind === 'fotos');
      const fileEntry = PERSONAL_DATA.find((e) => e.exportAs === 'fotos')!;
      if (fotos) {
        const keys = await repos.person.rows(
          fileEntry.table,
          fotos.rows.map((r) => Number(r.id)),
          ['id', fileEntry.files!.keyColumn],
        );
        for (const row of keys) {
          const key = String(row[fileEntry.files!.keyColumn]);
          const bytes = await readFile(key);
          if (!bytes) {
            deps.log.warn({ key }, 'privacy export: a photo row without its file');
            continue;
          }
          photos.push({ name: `fotos/foto-${row.id}.${key.split('.').pop()}`, bytes });
        }
      }
      const data = Object.fromEntries(summary.map((k) => [k.kind, k.rows]));
      return buildExportZip(data, photos, {
        email: subject.email ?? subject.phones.join(', '),
        generatedAt: nowIso(),
        site: brand().name,
      });
    },

    /**
     * Erases the subject everywhere the registry lists. With `requestId`, the request is
     * concluded in the same transaction (false = it was no longer open: nothing done).
     */
    async erase(
      subject: Subject,
      by: { staffId: number; requestId: number | null; note: string | null },
    ): Promise<{ ok: false } | { ok: true; counts: Record<string, number>; files: number }> {
      const now = nowIso();
      const result = await repos.transaction(async (tx) => {
        if (by.requestId !== null) {
          const closed = await tx.requests.closeRequest(by.requestId, {
            status: 'concluida',
            by: by.staffId,
            now,
            motivo: by.note,
          });
          if (!closed) return null;
        }
        const located = await tx.person.locate(subject);
        const { counts, fileKeys } = await tx.person.erase(subject, located, now);
        const summary = { tabelas: counts, arquivos: fileKeys.length };
        if (by.requestId !== null) await tx.requests.setResult(by.requestId, JSON.stringify(summary));
        await tx.audit.record(
          {
            usuarioId: by.staffId,
            acao: 'eliminar',
            entidade: 'titular',
            entidadeId: by.requestId,
            depois: summary,
          },
          now,
        );
        return { counts, fileKeys };
      });
      if (!result) return { ok: false };
      // After the commit: a failed delete leaves a file no row points to, which the orphan sweep removes.
      for (const key of result.fileKeys) {
        await storage.delete(key).catch((err) => deps.log.warn({ err, key }, 'privacy erasure: file not deleted'));
      }
      return { ok: true, counts: result.counts, files: result.fileKeys.length };
    },
  };
}
export type PersonDataService = ReturnType<typeof createPersonDataService>;

// Rules of the lead panel: reading filters from the query string, paging, the CSV
// export, status changes, notes and deletion. Never sees HTTP.
import type { Readable } from 'node:stream';
import { csvStream, databaseCsv } from '../../db/csv/index';
import { foldText } from '../../lib/text';
import { phoneDigits, isDay, multiLine, oneLine, rawString } from '../../lib/form/index';
import { pageWindow } from '../../lib/pagination';
import { addDays, saoPauloDayStartIso } from '../../lib/time';
import type { LeadCursor, LeadFilters, LeadsRepository } from './leads.repository';
import {
  isOption,
  isStatus,
  LIMITS,
  OPTION_FIELD_NAMES,
  OPTION_FIELDS,
  TEXT_FIELD_LABELS,
  type OptionField,
} from './options';

export const PAGE_SIZE = 25;

/** The filters as the person typed them (for the form and the page links). */
export interface PanelFilters {
  q: string;
  status: string;
  de: string;
  ate: string;
  options: Partial<Record<OptionField, string>>;
}

/** A filter value through the form kit: one line, or "" (a bad filter is dropped, never an error). */
const str = (v: unknown, max = 100) => {
  const r = oneLine(rawString(v).slice(0, max), { max });
  return r.ok ? r.value : '';
};

/** Reads the filters from the query; invalid values are dropped, never an error. */
export function parseFilters(query: Record<string, unknown>): PanelFilters {
  const options: Partial<Record<OptionField, string>> = {};
  for (const f of OPTION_FIELD_NAMES) {
    const v = str(query[f]);
    if (isOption(f, v)) options[f] = v;
  }
  const status = str(query.status);
  const de = str(query.de);
  const ate = str(query.ate);
  return {
    q: str(query.q).slice(0, 100),
    status: isStatus(status) ? status : '',
    de: isDay(de) ? de : '',
    ate: isDay(ate) ? ate : '',
    options,
  };
}

/** Panel filters → repository filters (São Paulo calendar days, folded text). */
export function toLeadFilters(f: PanelFilters): LeadFilters {
  let text = foldText(f.q);
  // A phone number typed with punctuation matches the stored digits.
  if (/^[\d\s()+.-]+$/.test(text) && phoneDigits(text).length >= 4) text = phoneDigits(text);
  return {
    text: text || undefined,
    status: f.status || undefined,
    options: f.options,
    from: f.de ? saoPauloDayStartIso(f.de) : undefined,
    to: f.ate ? saoPauloDayStartIso(addDays(f.ate, 1)) : undefined,
  };
}

/** The filters as query-string pairs (page links and the export link keep them). */
export function filterParams(f: PanelFilters): [string, string][] {
  const pairs: [string, string][] = [];
  if (f.q) pairs.push(['q', f.q]);
  if (f.status) pairs.push(['status', f.status]);
  for (const field of OPTION_FIELD_NAMES) if (f.options[field]) pairs.push([field, f.options[field]!]);
  if (f.de) pairs.push(['de', f.de]);
  if (f.ate) pairs.push(['ate', f.ate]);
  return pairs;
}

/**
 * `reads`: the same repository over `app.readDb`, for the list (long reads); `lines`: over the
 * connection the export's batches are written on (`exportDb`, src/db/index.ts).
 */
export function createPanelService(
  repo: LeadsRepository,
  reads: Pick<LeadsRepository, 'count' | 'list'> = repo,
  lines: Pick<LeadsRepository, 'csvAfter' | 'csvBatchRows' | 'readAheadForExport'> = repo,
) {
  return {
    /** One page of leads, newest first; a page past the end shows the last page. */
    async list(filters: PanelFilters, requestedPage: unknown) {
      const where = toLeadFilters(filters);
      const total = await reads.count(where);
      const { page, pages, size: limit, offset, outOfRange } = pageWindow(total, PAGE_SIZE, requestedPage);
      const rows = await reads.list(where, limit, offset);
      return { rows, total, page, pages, offset, limit, outOfRange };
    },

    async detail(id: number) {
      const lead = await repo.findById(id);
      if (!lead) return null;
      const [history, notes] = await Promise.all([repo.history(id), repo.notes(id)]);
      return { lead, history, notes };
    },

    async setStatus(id: number, status: unknown, userId: number): Promise<'ok' | 'invalid' | 'not-found'> {
      if (!isStatus(status)) return 'invalid';
      return (await repo.setStatus(id, status, userId)) ? 'ok' : 'not-found';
    },

    async addNote(id: number, texto: unknown, userId: number): Promise<'ok' | 'not-found' | string> {
      const note = multiLine(texto, { max: LIMITS.nota, required: 'Escreva a anotação antes de salvar.' });
      if (!note.ok) return note.error;
      const text = note.value;
      return (await repo.addNote(id, text, userId)) ? 'ok' : 'not-found';
    },

    delete(id: number) {
      return repo.delete(id);
    },

    /**
     * The filtered leads as CSV for a pt-BR spreadsheet: UTF-8 BOM, ";" separator, São
     * Paulo dates, pt-BR labels. Read in keyset batches, so memory stays flat whatever
     * the number of rows; the stream pulls the next batch only when the client reads.
     */
    exportCsv(filters: PanelFilters): Readable {
      const where = toLeadFilters(filters);
      const header = [
        'ID',
        'Recebido em',
        TEXT_FIELD_LABELS.nome_completo,
        TEXT_FIELD_LABELS.whatsapp,
        TEXT_FIELD_LABELS.email,
        TEXT_FIELD_LABELS.cidade_regiao,
        ...OPTION_FIELD_NAMES.map((f) => OPTION_FIELDS[f].label),
        'Status',
      ];
      const rows = databaseCsv(async (cursor: LeadCursor | null, size) => {
        // On SQLite the table's pages first, read forward (see readAheadForExport).
        if (cursor === null) await lines.readAheadForExport();
        return lines.csvAfter(where, cursor, size);
      }, lines.csvBatchRows);
      return csvStream(header, rows);
    },
  };
}

export type PanelService = ReturnType<typeof createPanelService>;

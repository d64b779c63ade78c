// The timetable upload: ";" (pt-BR spreadsheets) or "," separated, double-quoted cells,
// a UTF-8 BOM, any line ending. Parsing is csv-parse's; writing is
// src/db/csv/index.ts. This file maps columns and reports problems in pt-BR.
import { createRequire } from 'node:module';
import type * as CsvParseLib from 'csv-parse/sync';
import { foldText } from '../../../lib/text';

export const CSV_COLUMNS = ['dia_semana', 'inicio', 'fim', 'modalidade', 'professor', 'sala'] as const;
export const MAX_CSV_ROWS = 500;

export interface CsvParse {
  rows: { line: number; values: Record<string, string> }[];
  /** file-level problems (missing columns, too many rows...) */
  problems: string[];
}

const HEADER_ALIASES: Record<string, (typeof CSV_COLUMNS)[number]> = {
  dia_semana: 'dia_semana',
  dia: 'dia_semana',
  'dia da semana': 'dia_semana',
  inicio: 'inicio',
  'hora inicio': 'inicio',
  comeco: 'inicio',
  fim: 'fim',
  termino: 'fim',
  'hora fim': 'fim',
  modalidade: 'modalidade',
  aula: 'modalidade',
  professor: 'professor',
  professora: 'professor',
  sala: 'sala',
  local: 'sala',
};

export function parseTimetableCsv(input: string): CsvParse {
  const text = input.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const sep = (firstLine.match(/;/g)?.length ?? 0) >= (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  let records: string[][];
  // Loaded on the first upload (staff only), not at start.
  const { parse, CsvError } = createRequire(import.meta.url)('csv-parse/sync') as typeof CsvParseLib;
  try {
    records = parse(text, { delimiter: sep, relax_column_count: true, record_delimiter: ['\r\n', '\n', '\r'] });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = (err as CsvParseLib.CsvError & { lines?: number }).lines;
    return {
      rows: [],
      problems: [`O arquivo CSV está malformado${line ? ` perto da linha ${line}` : ''} (aspas sem fechar?).`],
    };
  }
  const header = (records[0] ?? []).map(
    (h) =>
      HEADER_ALIASES[foldText(h).replace(/_/g, ' ').replace('dia semana', 'dia da semana')] ??
      HEADER_ALIASES[foldText(h)],
  );
  const problems: string[] = [];
  const missing = CSV_COLUMNS.filter(
    (c) => ['dia_semana', 'inicio', 'fim', 'modalidade'].includes(c) && !header.includes(c),
  );
  if (!records.length) return { rows: [], problems: ['O arquivo está vazio.'] };
  if (missing.length) {
    problems.push(`Cabeçalho sem as colunas obrigatórias: ${missing.join(', ')}. Use: ${CSV_COLUMNS.join(';')}.`);
    return { rows: [], problems };
  }
  const rows: CsvParse['rows'] = [];
  for (let i = 1; i < records.length; i++) {
    const rec = records[i]!;
    if (rec.every((c) => c.trim() === '')) continue;
    const values: Record<string, string> = {};
    header.forEach((col, j) => {
      if (col) values[col] = (rec[j] ?? '').trim();
    });
    rows.push({ line: i + 1, values });
  }
  if (rows.length > MAX_CSV_ROWS)
    return { rows: [], problems: [`O arquivo tem ${rows.length} aulas; o máximo é ${MAX_CSV_ROWS}.`] };
  if (!rows.length) problems.push('O arquivo não tem nenhuma aula abaixo do cabeçalho.');
  return { rows, problems };
}

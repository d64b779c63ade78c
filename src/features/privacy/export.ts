// The person's data as one ZIP (portability, LGPD art. 18 V): per kind a JSON file and a
// CSV file (";" and UTF-8 with BOM, as the staff exports), and the message photos. Pure: the
// rows and the photos' bytes come in, the ZIP's bytes go out.
import { strToU8, zipSync, type Zippable } from 'fflate';
import { csvLines } from '../../db/csv/index';
import { EXPORT_LABELS, type ExportKind } from './registry';

export interface ExportPhoto {
  /** name inside the ZIP, e.g. "fotos/mensagem-12-1.jpg" */
  name: string;
  bytes: Uint8Array;
}

/** One kind's rows as a CSV file, by the staff exports' writer: the columns are every key the rows have. */
export function toCsv(rows: Record<string, unknown>[]): string {
  const header = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return `\uFEFF${csvLines([header, ...rows.map((r) => header.map((h) => r[h]))])}`;
}

export function buildExportZip(
  data: Partial<Record<ExportKind, Record<string, unknown>[]>>,
  photos: ExportPhoto[],
  meta: { email: string; generatedAt: string; site: string },
): Uint8Array {
  const files: Zippable = {};
  const index: string[] = [
    `Dados guardados por ${meta.site} ligados a ${meta.email}`,
    `Gerado em ${meta.generatedAt} (UTC).`,
    '',
    'Cada tipo de dado está em um arquivo JSON e em um CSV (abre em planilhas).',
    '',
  ];
  for (const [kind, rows] of Object.entries(data) as [ExportKind, Record<string, unknown>[]][]) {
    if (!rows.length) continue;
    files[`${kind}.json`] = strToU8(JSON.stringify(rows, null, 2));
    files[`${kind}.csv`] = strToU8(toCsv(rows));
    index.push(`- ${kind}.json / ${kind}.csv: ${EXPORT_LABELS[kind]} (${rows.length})`);
  }
  for (const p of photos) files[p.name] = [p.bytes, { level: 0 }];
  if (photos.length) index.push(`- fotos/: ${photos.length} foto(s) enviada(s) com as mensagens`);
  files['LEIA-ME.txt'] = strToU8(`${index.join('\r\n')}\r\n`);
  return zipSync(files, { level: 6 });
}

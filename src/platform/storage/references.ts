// Which rows point at stored files. The orphan sweep removes a final file only when its
// key starts with a registered prefix AND no registered column holds it; files under
// other prefixes are never touched. A feature that stores files adds its table here
// (unit photos: one row per stored copy in unidade_fotos_arquivos).
import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

export interface FileReference {
  /** keys of this feature start with it, e.g. "fale_aqui/" */
  prefix: string;
  table: string;
  column: string;
}

export const FILE_REFERENCES: FileReference[] = [
  { prefix: 'fale_aqui/', table: 'fale_aqui_arquivos', column: 'caminho' },
  { prefix: 'unidade_fotos/', table: 'unidade_fotos_arquivos', column: 'chave' },
];

/** The keys (among `keys`) that some registered row references. */
export async function referencedKeys(
  db: Kysely<Database>,
  keys: string[],
  references = FILE_REFERENCES,
): Promise<Set<string>> {
  const found = new Set<string>();
  if (!keys.length) return found;
  for (const ref of references) {
    const mine = keys.filter((k) => k.startsWith(ref.prefix));
    for (let i = 0; i < mine.length; i += 500) {
      const batch = mine.slice(i, i + 500);
      const rows = await (db as Kysely<any>)
        .selectFrom(ref.table)
        .select(sql.ref<string>(ref.column).as('chave'))
        .where(sql.ref(ref.column), 'in', batch)
        .execute();
      for (const r of rows) found.add(String(r.chave));
    }
  }
  return found;
}

export function isManagedKey(key: string, references = FILE_REFERENCES): boolean {
  return references.some((r) => r.prefix !== '' && key.startsWith(r.prefix));
}

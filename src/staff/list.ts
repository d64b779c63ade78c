// Staff lists at chain scale (hundreds of units, thousands of plans): a `q` text filter
// (accents and case ignored, every word must match) and pages of LIST_PAGE_SIZE rows.
import Type from 'typebox';
import { pageRows, type PageWindow } from '../lib/pagination';
import { compareText, foldText } from '../lib/text';

export const LIST_PAGE_SIZE = 50;

/**
 * Units in the order a staff list shows them, the same on both engines (SQL's ORDER BY is
 * binary on SQLite and follows the collation on PostgreSQL): by name as a reader expects
 * ("Água Verde" among the A's), then by city and id, since names repeat across cities.
 */
export function byUnitName(
  a: { nome: string; cidade: string; id: number },
  b: { nome: string; cidade: string; id: number },
): number {
  return compareText(a.nome, b.nome) || compareText(a.cidade, b.cidade) || a.id - b.id;
}

export const ListQuery = Type.Object({
  ok: Type.Optional(Type.String({ maxLength: 40 })),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

/** What a list page shows around its table: the filter and the page links. */
export interface ListState extends PageWindow {
  /** the list's own path, for the filter form and page links */
  path: string;
  q: string;
  /** other filters the page links keep (e.g. the audit log's entidade) */
  params?: Record<string, string>;
}

/** Rows whose text contains every word of `q` (folded); all rows when `q` is empty. */
export function filterRows<T>(rows: readonly T[], q: string, text: (row: T) => string): T[] {
  const words = foldText(q).split(' ').filter(Boolean);
  if (!words.length) return [...rows];
  return rows.filter((row) => {
    const hay = foldText(text(row));
    return words.every((w) => hay.includes(w));
  });
}

/** Filter then page rows already loaded (catalog-sized tables). */
export function listPage<T>(
  rows: readonly T[],
  query: { q?: string; pagina?: string },
  path: string,
  text: (row: T) => string,
) {
  const q = (query.q ?? '').trim();
  const { items, ...info } = pageRows(filterRows(rows, q, text), query.pagina, LIST_PAGE_SIZE);
  return { items, list: { ...info, path, q } satisfies ListState };
}

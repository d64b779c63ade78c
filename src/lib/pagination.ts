// The one home of paging: the page number read from `pagina`, the window a SQL
// query pages with (LIMIT/OFFSET), and a page of rows already in memory (catalog-sized
// lists). No other file in src/ does paging arithmetic (test/project/no-duplicate-parsers.test.ts).
import { toId } from './form/index';

export const PAGE_MAX = 100_000;

/** `pagina` (or a per-page count) from a query: a positive integer, anything else → `fallback`. */
export function parsePage(value: unknown, fallback = 1, max = PAGE_MAX): number {
  const id = toId(typeof value === 'string' ? value.trim() : Array.isArray(value) ? value[0] : value);
  return id === null ? fallback : Math.min(id, max);
}

export interface PageWindow {
  /** 1-based, clamped to [1, pages] */
  page: number;
  pages: number;
  total: number;
  /** rows per page: the query's LIMIT */
  size: number;
  /** the page's first row (0-based): the query's OFFSET */
  offset: number;
  /** the page asked for was past the end (the last page is shown instead) */
  outOfRange: boolean;
}

export interface Paged<T> extends PageWindow {
  items: T[];
}

/** Where page `raw` of `total` rows starts, for a query's LIMIT/OFFSET; a page past the end shows the last one. */
export function pageWindow(total: number, size: number, raw: unknown): PageWindow {
  const pages = Math.max(1, Math.ceil(total / size));
  const asked = parsePage(raw);
  const page = Math.min(asked, pages);
  return { page, pages, total, size, offset: (page - 1) * size, outOfRange: asked > pages };
}

/** Page `raw` of rows already loaded (same window rule as pageWindow). */
export function pageRows<T>(rows: readonly T[], raw: unknown, size: number): Paged<T> {
  const window = pageWindow(rows.length, size, raw);
  return { ...window, items: rows.slice(window.offset, window.offset + size) };
}

// Staff lists page through the form kit's one paging rule (src/lib/form: parsePage,
// paginate); this file only adapts it to the lists' shape: `size`, and a slice of rows
// already in memory (catalog-sized lists). No paging arithmetic of its own.
import { paginate as pageWindow, parsePage } from './form/index';

export interface PageInfo {
  /** 1-based, clamped to [1, pages] */
  page: number;
  pages: number;
  total: number;
  size: number;
  offset: number;
}

export interface Paged<T> extends PageInfo {
  items: T[];
}

/** `pagina` from a query string: a positive integer, otherwise 1. */
export function pageNumber(raw: unknown): number {
  return parsePage(raw);
}

/** Where page `raw` of `total` rows starts; a page past the end shows the last one. */
export function pageInfo(total: number, raw: unknown, size: number): PageInfo {
  const w = pageWindow(total, size, raw);
  return { page: w.page, pages: w.pages, total: w.total, size, offset: w.offset };
}

/** One page of rows already loaded. */
export function paginate<T>(rows: readonly T[], raw: unknown, size: number): Paged<T> {
  const info = pageInfo(rows.length, raw, size);
  return { ...info, items: rows.slice(info.offset, info.offset + size) };
}

// One way to page a staff list: `pagina` parsed strictly (anything else is page 1), the page
// clamped to the last one, and either a slice of rows already in memory (catalog-sized
// lists) or the LIMIT/OFFSET for a query (logs).

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
  const s = Array.isArray(raw) ? raw[0] : raw;
  if (typeof s !== 'string' || !/^[1-9]\d{0,8}$/.test(s)) return 1;
  return Number(s);
}

/** Where page `raw` of `total` rows starts; a page past the end shows the last one. */
export function pageInfo(total: number, raw: unknown, size: number): PageInfo {
  const pages = Math.max(1, Math.ceil(total / size));
  const page = Math.min(pageNumber(raw), pages);
  return { page, pages, total, size, offset: (page - 1) * size };
}

/** One page of rows already loaded. */
export function paginate<T>(rows: readonly T[], raw: unknown, size: number): Paged<T> {
  const info = pageInfo(rows.length, raw, size);
  return { ...info, items: rows.slice(info.offset, info.offset + size) };
}

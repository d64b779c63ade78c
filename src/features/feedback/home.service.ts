// What the staff home shows at chain scale (hundreds of units): the attention queue cut to
// the units waiting longest, each with its oldest items and links to the full paged lists;
// the per-unit survey tools (poster, kiosk) filtered by name/city and paged.
import { pageRows, type PageWindow } from '../../lib/pagination';
import { byUnitName, filterRows } from '../../staff/list';
import type { AttentionGroup, AttentionQueue } from './attention.service';

/** Units of the attention queue shown on the home (the ones waiting longest). */
export const QUEUE_UNITS = 10;
/** Items shown per unit; the rest are one link away. */
export const QUEUE_ITEMS = 5;
/** Units of the survey-tools list per page: a home, not a list page. */
export const TOOLS_PAGE_SIZE = 20;

export interface HomeQueue {
  groups: (AttentionGroup & { total: number; detractors: number; messages: number; enrolments: number })[];
  /** units and items waiting beyond the units shown */
  moreUnits: number;
  moreItems: number;
  /** every item read, and whether more wait than were read */
  total: number;
  partial: boolean;
}

export function homeQueue(queue: AttentionQueue): HomeQueue {
  const shown = queue.groups.slice(0, QUEUE_UNITS);
  const rest = queue.groups.slice(QUEUE_UNITS);
  return {
    groups: shown.map((g) => ({
      ...g,
      items: g.items.slice(0, QUEUE_ITEMS),
      total: g.items.length,
      detractors: g.items.filter((i) => i.kind === 'detrator').length,
      messages: g.items.filter((i) => i.kind === 'mensagem').length,
      enrolments: g.items.filter((i) => i.kind === 'pagamento' || i.kind === 'reembolso').length,
    })),
    moreUnits: rest.length,
    moreItems: rest.reduce((n, g) => n + g.items.length, 0),
    total: queue.groups.reduce((n, g) => n + g.items.length, 0),
    partial: queue.partial,
  };
}

// Units by name as a reader expects ("Água Verde" among the A's) on both engines, whose
// collations differ; then by city and id, since names repeat across cities.

export interface ToolUnit {
  id: number;
  nome: string;
  cidade: string;
}

export interface ToolsPage<T extends ToolUnit = ToolUnit> {
  items: T[];
  /** the matching units' paging; `all`: the account's units before the filter */
  list: PageWindow & { q: string; all: number };
  /** show the name/city filter */
  filterable: boolean;
}

/**
 * One page of the units whose name or city contains every word of `q` (accents ignored);
 * the filter is offered once the units no longer fit on one page (or one is in use).
 */
export function toolUnits<T extends ToolUnit>(units: readonly T[], q: string, pagina: unknown): ToolsPage<T> {
  const matching = filterRows(units, q, (u) => `${u.nome} ${u.cidade}`).sort(byUnitName);
  const { items, ...info } = pageRows(matching, pagina, TOOLS_PAGE_SIZE);
  return { items, list: { ...info, q, all: units.length }, filterable: units.length > TOOLS_PAGE_SIZE || q !== '' };
}

// NPS arithmetic and the São Paulo calendar used by the staff views.
import { addDays, saoPauloDay, saoPauloDayStartIso } from '../../../lib/time';
import { isDay } from '../../../lib/form/index';

export { addDays, saoPauloDay };
/** A calendar day that exists (the form kit's date rule). */
export const isValidDay = isDay;

export interface NpsCounts {
  total: number;
  promotores: number;
  detratores: number;
}

/** % promoters (9–10) minus % detractors (0–6), one decimal; null without scored answers. */
export function computeNps({ total, promotores, detratores }: NpsCounts): number | null {
  if (!total) return null;
  return Math.round(((promotores - detratores) / total) * 1000) / 10;
}

export function percent(part: number, total: number): number | null {
  if (!total) return null;
  return Math.round((part / total) * 1000) / 10;
}

const pct = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
// A chain-wide report formats thousands of cells from a few hundred values (one decimal, from
// -100 to 100), each call to Intl costing more than the rest of its cell: each value is
// formatted once. -0 ("-0") is not cached, as a Map would take it for 0.
const pctTexts = new Map<number, string>();
const PCT_TEXTS_MAX = 4096;
function pctText(value: number): string {
  if (Object.is(value, -0)) return pct.format(value);
  let text = pctTexts.get(value);
  if (text === undefined) {
    text = pct.format(value);
    if (pctTexts.size >= PCT_TEXTS_MAX) pctTexts.clear();
    pctTexts.set(value, text);
  }
  return text;
}
export function formatNps(value: number | null): string {
  return value === null ? '—' : pctText(value);
}
export function formatPercent(value: number | null): string {
  return value === null ? '—' : `${pctText(value)}%`;
}

export type NpsCategory = 'promotores' | 'neutros' | 'detratores';
/**
 * What the report's list can be narrowed to: a score category, or the detractors still waiting (the start page's
 * queue).
 */
export type ResponseListFilter = NpsCategory | 'pendentes';
export function categoryOf(nota: number | null): NpsCategory | null {
  if (nota === null || nota === undefined) return null;
  if (nota >= 9) return 'promotores';
  if (nota >= 7) return 'neutros';
  return 'detratores';
}
export const CATEGORY_LABEL: Record<NpsCategory, string> = {
  promotores: 'Promotor',
  neutros: 'Neutro',
  detratores: 'Detrator',
};

export interface Period {
  de: string;
  ate: string;
  fromIso: string;
  /** exclusive: the start of the day after `ate` */
  toIso: string;
}

/** A period of São Paulo days, both ends included; default the last `defaultDays` days. */
export function resolvePeriod(
  de: string | undefined,
  ate: string | undefined,
  defaultDays = 90,
  today = saoPauloDay(),
): Period {
  let end = ate && isValidDay(ate) ? ate : today;
  let start = de && isValidDay(de) ? de : addDays(end, -(defaultDays - 1));
  if (start > end) [start, end] = [end, start];
  return { de: start, ate: end, fromIso: saoPauloDayStartIso(start), toIso: saoPauloDayStartIso(addDays(end, 1)) };
}

const monthLabel = new Intl.DateTimeFormat('pt-BR', { month: 'short', year: 'numeric', timeZone: 'UTC' });

/** The São Paulo months a period touches, as [start, end) instants clipped to the period. */
export function monthsOf(
  period: Period,
  max = 60,
): { label: string; title: string; startIso: string; endIso: string }[] {
  const out: { label: string; title: string; startIso: string; endIso: string }[] = [];
  let [y, m] = period.de.split('-').map(Number) as [number, number];
  const [ey, em] = period.ate.split('-').map(Number) as [number, number];
  while ((y < ey || (y === ey && m <= em)) && out.length < max) {
    const first = `${y}-${String(m).padStart(2, '0')}-01`;
    const ny = m === 12 ? y + 1 : y;
    const nm = m === 12 ? 1 : m + 1;
    const next = `${ny}-${String(nm).padStart(2, '0')}-01`;
    const startIso = saoPauloDayStartIso(first);
    const endIso = saoPauloDayStartIso(next);
    out.push({
      label: first.slice(0, 7),
      title: monthLabel.format(new Date(`${first}T12:00:00Z`)),
      startIso: startIso < period.fromIso ? period.fromIso : startIso,
      endIso: endIso > period.toIso ? period.toIso : endIso,
    });
    [y, m] = [ny, nm];
  }
  return out;
}

const integer = new Intl.NumberFormat('pt-BR');
/** "1 promotor", "2 promotores", "1.234 notas": pt-BR singular only for exactly one. */
export function countLabel(n: number, singular: string, plural: string): string {
  // Below a thousand pt-BR has no separator: the digits are what Intl would write.
  const digits = Number.isInteger(n) && n >= 0 && n < 1000 ? String(n) : integer.format(n);
  return `${digits} ${n === 1 ? singular : plural}`;
}

/** "12 notas: 5 promotores, 1 neutro, 6 detratores" */
export function npsCountsText(c: { total: number; promotores: number; neutros: number; detratores: number }): string {
  return (
    `${countLabel(c.total, 'nota', 'notas')}: ${countLabel(c.promotores, 'promotor', 'promotores')}, ` +
    `${countLabel(c.neutros, 'neutro', 'neutros')}, ${countLabel(c.detratores, 'detrator', 'detratores')}`
  );
}

/** The 12 São Paulo months ending with the month of `day` (aaaa-mm-dd), as a period. */
export function lastTwelveMonths(day: string): Period {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(y, m - 1 - 11, 1, 12));
  const end = new Date(Date.UTC(y, m, 0, 12)); // last day of `day`'s month
  const de = start.toISOString().slice(0, 10);
  const ate = end.toISOString().slice(0, 10);
  return { de, ate, fromIso: saoPauloDayStartIso(de), toIso: saoPauloDayStartIso(addDays(ate, 1)) };
}

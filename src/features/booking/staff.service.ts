// The staff side of trial classes: bookings by day, attendance/enrolment marks, the
// per-unit capacity, and the funnel (CTA clicks → bookings → attended → enrolled, and the
// online enrolments started and activated, which the enrolment feature counts).
import { canAccessUnit, scopeUnits, type StaffUser } from '../../staff/access';
import type { Transactional } from '../../db/transactional';
import { STATUSES, type BookingRepository, type BookingStatus } from './booking.repository';
import { isDay, parseInteger, toId } from '../../lib/form/index';
import { pageRows, pageWindow, type PageWindow } from '../../lib/pagination';
import { byUnitName, filterRows, LIST_PAGE_SIZE, listPage, type ListState } from '../../staff/list';
import { addDays, dayLabel, mondayOf, spDay } from './slots';
import { emitWebhook } from '../../platform/webhooks/webhooks.repository';
import { bookingEventData } from './webhook-events';
import type { EnrolmentFunnelWeek } from '../enrolment/reads.service';

export { STATUSES };

export const STATUS_LABEL: Record<BookingStatus, string> = {
  agendado: 'Agendado',
  compareceu: 'Compareceu',
  nao_compareceu: 'Não compareceu',
  matriculou: 'Matriculou',
};
export function isStatus(v: unknown): v is BookingStatus {
  return typeof v === 'string' && (STATUSES as readonly string[]).includes(v);
}

/** The bookings list's window: the past days and the coming days around today (22 days). */
export const LIST_PAST_DAYS = 14;
export const LIST_FUTURE_DAYS = 7;
export const MAX_CAPACITY = 50;
export const DEFAULT_FUNNEL_WEEKS = 8;
/**
 * Units per funnel page: fewer than the capacity list's LIST_PAGE_SIZE, since each unit
 * also brings up to one row per week to the weekly table (decision 177).
 */
export const FUNNEL_PAGE_SIZE = 25;

export type StaffUnit = Awaited<ReturnType<BookingRepository['units']>>[number];
/** What the `q` filter of the unit lists searches: name, neighbourhood, city and state. */
export const unitText = (u: Pick<StaffUnit, 'nome' | 'bairro' | 'cidade' | 'uf'>) =>
  `${u.nome} ${u.bairro} ${u.cidade} ${u.uf}`;

/** A unit list's text filter and page, as asked (the query string or the capacity form). */
export interface UnitListQuery {
  q?: string;
  pagina?: string;
}

/** The capacity fields of a posted page: `vagas[<unit id>]`, one per unit shown. */
export function capacityFields(body: Record<string, unknown>): { id: number; name: string; raw: unknown }[] {
  const fields: { id: number; name: string; raw: unknown }[] = [];
  for (const [name, raw] of Object.entries(body)) {
    const m = /^vagas\[(\w{1,10})\]$/.exec(name);
    const id = m ? toId(m[1]) : null;
    if (id !== null) fields.push({ id, name, raw });
  }
  return fields;
}
export const capacityField = (unitId: number) => `vagas[${unitId}]`;

export type BookingListRow = Awaited<ReturnType<BookingRepository['listDay']>>[number];
/** A day of the list's window, as its navigation links it. */
export interface BookingDayLink {
  day: string;
  label: string;
  when: 'hoje' | 'proximos' | 'anteriores';
  count: number;
}
/** What the bookings list asks for: the day, the page of it and the unit text filter. */
export interface BookingListQuery {
  dia?: string;
  pagina?: string;
  q?: string;
}
/** The bookings list: the window's days with their counts, and one page of the chosen day. */
export interface BookingDayList {
  today: string;
  /** the day shown */
  day: BookingDayLink;
  /** why the day shown is not the one asked: not a date (today instead) or outside the window (its nearest end) */
  dayFallback: 'invalida' | 'fora' | null;
  /** today, the coming days, then the past days (most recent first) */
  days: BookingDayLink[];
  bookings: BookingListRow[];
  page: PageWindow;
  q: string;
}

export interface FunnelCounts {
  cliques: number;
  agendamentos: number;
  compareceram: number;
  matricularam: number;
  /** online enrolments started in the week (any visitor, not only trial-class ones) */
  matriculas_iniciadas: number;
  /** online enrolments activated in the week (first payment confirmed) */
  matriculas_ativadas: number;
}
const noCounts = (): FunnelCounts => ({
  cliques: 0,
  agendamentos: 0,
  compareceram: 0,
  matricularam: 0,
  matriculas_iniciadas: 0,
  matriculas_ativadas: 0,
});
const COUNT_KEYS = Object.keys(noCounts()) as (keyof FunnelCounts)[];
/** A unit as the funnel names it (names repeat across cities: the city goes along). */
export interface FunnelUnit {
  unidade_id: number;
  unidade: string;
  cidade: string;
  uf: string;
}
export interface FunnelRow extends FunnelCounts, FunnelUnit {
  semana: string;
}

/** part / whole in %, or null when there is nothing to divide. */
export function conversion(part: number, whole: number): number | null {
  return whole > 0 ? (part / whole) * 100 : null;
}
// One formatter for every cell: toLocaleString built a new one per call (a 12-month page has ~5,000).
const percent = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });
export function formatConversion(value: number | null): string {
  if (value === null) return '—';
  return `${percent.format(value)}%`;
}

/** The form kit's calendar day, for the funnel's optional `de`/`ate` (anything else: the default). */
export function isValidDay(day: unknown): day is string {
  return typeof day === 'string' && isDay(day);
}

/** Weeks (Mondays) from `de` to `ate`; default the last 8 weeks including this one. */
export function resolveWeeks(de: unknown, ate: unknown, today: string): { de: string; ate: string; weeks: string[] } {
  let end = mondayOf(isValidDay(ate) ? ate : today);
  let start = mondayOf(isValidDay(de) ? de : addDays(end, -7 * (DEFAULT_FUNNEL_WEEKS - 1)));
  if (start > end) [start, end] = [end, start];
  // At most two years of weeks on one page.
  if (start < addDays(end, -7 * 104)) start = addDays(end, -7 * 104);
  const weeks: string[] = [];
  for (let w = start; w <= end; w = addDays(w, 7)) weeks.push(w);
  return { de: start, ate: end, weeks };
}

/**
 * `reads`: the same repository over `app.readDb`, for the day list and the funnel (long reads).
 * `options.enrolments`: the enrolment feature's counts per unit and week (absent: those steps are 0).
 */
export function createStaffService(
  repo: Transactional<BookingRepository>,
  options: {
    publicUrl?: string;
    enrolments?: {
      funnelWeeks(unitIds: number[] | null, firstWeek: string, lastWeek: string): Promise<EnrolmentFunnelWeek[]>;
    };
  } = {},
  reads: Pick<BookingRepository, 'countByDay' | 'listDay' | 'funnelRows'> = repo,
) {
  // In the staff lists' order, the same on both engines (page 2 holds the same units).
  const unitsOf = async (unitIds: number[] | null) => (await repo.units(unitIds)).sort(byUnitName);
  /**
   * The funnel's counts per unit and week of the units `q` keeps: each unit's sums and the
   * total, and `rowsOf` for the weekly rows of the units a page or the CSV shows (a page of a
   * year builds 1,300 rows, not the chain's 15,600).
   */
  async function funnelCounts(unitIds: number[] | null, weeks: string[], q: string) {
    const units = filterRows(await unitsOf(unitIds), q.trim(), unitText);
    const [{ clicks, bookings }, enrolments] = await Promise.all([
      reads.funnelRows(unitIds, weeks[0]!, weeks.at(-1)!),
      options.enrolments?.funnelWeeks(unitIds, weeks[0]!, weeks.at(-1)!) ?? [],
    ]);
    // Per unit, then per week: no key string built for each of a year's ~30,000 counted rows.
    const cells = new Map<number, Map<string, FunnelCounts>>();
    const cell = (u: number, w: string) => {
      let weeksOf = cells.get(u);
      if (!weeksOf) cells.set(u, (weeksOf = new Map()));
      let c = weeksOf.get(w);
      if (!c) weeksOf.set(w, (c = noCounts()));
      return c;
    };
    for (const c of clicks) cell(c.unidade_id, c.semana).cliques += c.n;
    for (const b of bookings) {
      const c = cell(b.unidade_id, b.semana);
      c.agendamentos = b.agendamentos;
      c.compareceram = b.compareceram;
      c.matricularam = b.matricularam;
    }
    for (const e of enrolments) {
      const c = cell(e.unidade_id, e.semana);
      c.matriculas_iniciadas = e.iniciadas;
      c.matriculas_ativadas = e.ativadas;
    }
    const perUnit: (FunnelCounts & FunnelUnit)[] = [];
    const total = noCounts();
    for (const u of units) {
      const sum = noCounts();
      const weeksOf = cells.get(u.id);
      for (const w of weeks) {
        const c = weeksOf?.get(w);
        if (!c) continue;
        for (const k of COUNT_KEYS) {
          sum[k] += c[k];
          total[k] += c[k];
        }
      }
      perUnit.push({ unidade_id: u.id, unidade: u.nome, cidade: u.cidade, uf: u.uf, ...sum });
    }
    const rowsOf = (shown: FunnelUnit[]): FunnelRow[] =>
      shown.flatMap(({ unidade_id, unidade, cidade, uf }) =>
        weeks.map((semana) => ({
          unidade_id,
          unidade,
          cidade,
          uf,
          semana,
          ...(cells.get(unidade_id)?.get(semana) ?? noCounts()),
        })),
      );
    return { perUnit, total, rowsOf };
  }

  const service = {
    /**
     * One day of the window (`dia`, default today) and one page of its bookings, by start
     * time; the day links' counts come from one GROUP BY. `q` narrows the units (name,
     * neighbourhood, city, UF) before the queries, as the other unit lists filter.
     */
    async dayList(unitIds: number[] | null, query: BookingListQuery, now: Date): Promise<BookingDayList> {
      const today = spDay(now);
      const first = addDays(today, -LIST_PAST_DAYS);
      const last = addDays(today, LIST_FUTURE_DAYS);
      const q = (query.q ?? '').trim();
      const ids = q ? filterRows(await unitsOf(unitIds), q, unitText).map((u) => u.id) : unitIds;
      const asked = query.dia?.trim() || today;
      const valid = isValidDay(asked);
      // Outside the window: its nearest end (a list left open past midnight comes back to a day still shown).
      const day = !valid ? today : asked < first ? first : asked > last ? last : asked;
      const counts = await reads.countByDay(ids, first, last);
      const link = (d: string): BookingDayLink => ({
        day: d,
        label: dayLabel(d),
        when: d === today ? 'hoje' : d > today ? 'proximos' : 'anteriores',
        count: counts.get(d) ?? 0,
      });
      const days = [
        today,
        ...Array.from({ length: LIST_FUTURE_DAYS }, (_, i) => addDays(today, i + 1)),
        ...Array.from({ length: LIST_PAST_DAYS }, (_, i) => addDays(today, -i - 1)),
      ].map(link);
      const page = pageWindow(counts.get(day) ?? 0, LIST_PAGE_SIZE, query.pagina);
      const bookings = page.total ? await reads.listDay(ids, day, page.size, page.offset) : [];
      return {
        today,
        day: link(day),
        dayFallback: !valid ? 'invalida' : day !== asked ? 'fora' : null,
        days,
        bookings,
        page,
        q,
      };
    },

    /** Marks a booking; 'forbidden' for another unit's booking, 'missing' when gone. */
    async setStatus(
      staff: StaffUser,
      id: number,
      status: BookingStatus,
      now: Date,
    ): Promise<'ok' | 'forbidden' | 'missing'> {
      const booking = await repo.findById(id);
      if (!booking) return 'missing';
      if (!canAccessUnit(staff, booking.unidade_id)) return 'forbidden';
      if (booking.status === status) return 'ok';
      const unitName = (await repo.units([booking.unidade_id]))[0]?.nome ?? null;
      // The change and its "aula_experimental.status" event: one transaction.
      await repo.transaction(async (tx, trx) => {
        await tx.setStatus(id, status, staff.id, now.toISOString());
        await emitWebhook(trx, {
          type: 'aula_experimental.status',
          origin: `aulas_experimentais:${id}`,
          at: now,
          data: {
            ...bookingEventData({ ...booking, status }, unitName, options.publicUrl ?? ''),
            status_anterior: booking.status,
            alterado_em: now.toISOString(),
          },
        });
      });
      return 'ok';
    },

    units: unitsOf,

    /** One page of this staff member's units for the capacity form, after the `q` filter. */
    async capacityList(
      staff: StaffUser,
      query: UnitListQuery,
      path: string,
    ): Promise<{ items: StaffUnit[]; list: ListState }> {
      return listPage(await unitsOf(scopeUnits(staff)), query, path, unitText);
    },

    /**
     * Saves the capacities of one posted page: only the units whose field was posted, and of
     * those only the ones whose value changed (one audit row each). Any refused value: nothing
     * is saved and `units` are the posted units, for the form to show again.
     */
    async setCapacities(
      staff: StaffUser,
      fields: { id: number; name: string; raw: unknown }[],
      now: Date,
    ): Promise<
      | 'forbidden'
      | 'missing'
      | { ok: true; changed: number }
      | { ok: false; errors: Record<string, string>; units: StaffUnit[] }
    > {
      if (fields.some((f) => !canAccessUnit(staff, f.id))) return 'forbidden';
      const units = fields.length ? await unitsOf(fields.map((f) => f.id)) : [];
      if (units.length !== new Set(fields.map((f) => f.id)).size) return 'missing';
      const errors: Record<string, string> = {};
      const values = new Map<number, number>();
      for (const f of fields) {
        const parsed = parseInteger(f.raw, 1, MAX_CAPACITY, 0);
        if (!parsed.ok || parsed.value === 0) errors[f.name] = `Informe um número inteiro de 1 a ${MAX_CAPACITY}.`;
        else values.set(f.id, parsed.value);
      }
      if (Object.keys(errors).length) return { ok: false, errors, units };
      const at = now.toISOString();
      // The page's new capacities and their audit rows, together or not at all.
      return repo.transaction(async (tx) => {
        let changed = 0;
        for (const [unitId, vagas] of values) {
          const before = await tx.capacityOf(unitId);
          if (before === undefined || before === vagas) continue;
          await tx.setCapacity(unitId, vagas, at);
          await tx.audit({
            usuario_id: staff.id,
            entidade_id: unitId,
            antes: { vagas_experimentais: before },
            depois: { vagas_experimentais: vagas },
            criado_em: at,
          });
          changed++;
        }
        return { ok: true as const, changed };
      });
    },

    /**
     * One row per unit and week (weeks without any activity included), plus totals; `q`
     * keeps the units whose name, neighbourhood, city or state contain it.
     */
    async funnel(unitIds: number[] | null, weeks: string[], q = '') {
      const { perUnit, total, rowsOf } = await funnelCounts(unitIds, weeks, q);
      return { rows: rowsOf(perUnit), perUnit, total };
    },

    /**
     * The funnel page: FUNNEL_PAGE_SIZE units of the filtered ones (their totals and their
     * weekly rows); `total` stays the sum over every filtered unit, not just this page.
     */
    async funnelPage(unitIds: number[] | null, weeks: string[], query: UnitListQuery) {
      const q = (query.q ?? '').trim();
      const { perUnit, total, rowsOf } = await funnelCounts(unitIds, weeks, q);
      const { items, ...page } = pageRows(perUnit, query.pagina, FUNNEL_PAGE_SIZE);
      return { rows: rowsOf(items), perUnit: items, total, page: { ...page, q } };
    },
  };
  return service;
}
export type StaffService = ReturnType<typeof createStaffService>;

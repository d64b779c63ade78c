// The staff side of trial classes: bookings by day, attendance/enrolment marks, the
// per-unit capacity, and the funnel (CTA clicks → bookings → attended → enrolled).
import { canAccessUnit, type StaffUser } from '../identity/access';
import type { Transactional } from '../../db/transactional';
import { STATUSES, type BookingRepository, type BookingStatus } from './booking.repository';
import { isDay, parseInteger } from '../../lib/form/index';
import { addDays, dayLabel, mondayOf, spDay } from './slots';

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

/** Past days the list shows below today and the coming days. */
export const LIST_PAST_DAYS = 14;
export const LIST_FUTURE_DAYS = 7;
export const MAX_CAPACITY = 50;
export const DEFAULT_FUNNEL_WEEKS = 8;

export type BookingListRow = Awaited<ReturnType<BookingRepository['listByDays']>>[number];
export interface BookingDay {
  day: string;
  label: string;
  when: 'hoje' | 'proximos' | 'anteriores';
  bookings: BookingListRow[];
}

export interface FunnelCounts {
  cliques: number;
  agendamentos: number;
  compareceram: number;
  matricularam: number;
}
export interface FunnelRow extends FunnelCounts {
  unidade_id: number;
  unidade: string;
  semana: string;
}

/** part / whole in %, or null when there is nothing to divide. */
export function conversion(part: number, whole: number): number | null {
  return whole > 0 ? (part / whole) * 100 : null;
}
export function formatConversion(value: number | null): string {
  if (value === null) return '—';
  return `${value.toLocaleString('pt-BR', { maximumFractionDigits: 1 })}%`;
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

export function createStaffService(repo: Transactional<BookingRepository>) {
  return {
    /** Today first, then the coming days, then the past days (most recent first). */
    async days(unitIds: number[] | null, now: Date): Promise<BookingDay[]> {
      const today = spDay(now);
      const rows = await repo.listByDays(unitIds, addDays(today, -LIST_PAST_DAYS), addDays(today, LIST_FUTURE_DAYS));
      const byDay = new Map<string, BookingListRow[]>();
      for (const r of rows) byDay.set(r.dia, [...(byDay.get(r.dia) ?? []), r]);
      if (!byDay.has(today)) byDay.set(today, []);
      const rank = (d: string) => (d === today ? 0 : d > today ? 1 : 2);
      return [...byDay.keys()]
        .sort((a, b) => rank(a) - rank(b) || (rank(a) === 2 ? b.localeCompare(a) : a.localeCompare(b)))
        .map((day) => ({ day, label: dayLabel(day), when: day === today ? 'hoje' : day > today ? 'proximos' : 'anteriores', bookings: byDay.get(day)! }));
    },

    /** Marks a booking; 'forbidden' for another unit's booking, 'missing' when gone. */
    async setStatus(staff: StaffUser, id: number, status: BookingStatus, now: Date): Promise<'ok' | 'forbidden' | 'missing'> {
      const booking = await repo.findById(id);
      if (!booking) return 'missing';
      if (!canAccessUnit(staff, booking.unidade_id)) return 'forbidden';
      await repo.setStatus(id, status, staff.id, now.toISOString());
      return 'ok';
    },

    units: (unitIds: number[] | null) => repo.units(unitIds),

    async setCapacity(staff: StaffUser, unitId: number, raw: unknown, now: Date): Promise<{ ok: true } | { ok: false; error: string } | 'forbidden'> {
      if (!canAccessUnit(staff, unitId)) return 'forbidden';
      const parsed = parseInteger(raw, 1, MAX_CAPACITY, 0);
      if (!parsed.ok || parsed.value === 0) return { ok: false, error: `Informe um número inteiro de 1 a ${MAX_CAPACITY}.` };
      const vagas = parsed.value;
      const at = now.toISOString();
      // The new capacity and its audit row, together or not at all.
      await repo.transaction(async (tx) => {
        const before = await tx.capacityOf(unitId);
        if (before === undefined) return;
        await tx.setCapacity(unitId, vagas, at);
        await tx.audit({ usuario_id: staff.id, entidade_id: unitId, antes: { vagas_experimentais: before }, depois: { vagas_experimentais: vagas }, criado_em: at });
      });
      return { ok: true };
    },

    /** One row per unit and week (weeks without any activity included), plus totals. */
    async funnel(unitIds: number[] | null, weeks: string[]) {
      const units = await repo.units(unitIds);
      const { clicks, bookings } = await repo.funnelRows(unitIds, weeks[0]!, weeks.at(-1)!);
      const key = (u: number, w: string) => `${u}|${w}`;
      const cells = new Map<string, FunnelCounts>();
      const cell = (u: number, w: string) => {
        let c = cells.get(key(u, w));
        if (!c) cells.set(key(u, w), (c = { cliques: 0, agendamentos: 0, compareceram: 0, matricularam: 0 }));
        return c;
      };
      for (const c of clicks) cell(c.unidade_id, c.semana).cliques += c.n;
      for (const b of bookings) Object.assign(cell(b.unidade_id, b.semana), { agendamentos: b.agendamentos, compareceram: b.compareceram, matricularam: b.matricularam });
      const rows: FunnelRow[] = [];
      const perUnit: (FunnelCounts & { unidade_id: number; unidade: string })[] = [];
      const total: FunnelCounts = { cliques: 0, agendamentos: 0, compareceram: 0, matricularam: 0 };
      for (const u of units) {
        const sum: FunnelCounts = { cliques: 0, agendamentos: 0, compareceram: 0, matricularam: 0 };
        for (const w of weeks) {
          const c = cells.get(key(u.id, w)) ?? { cliques: 0, agendamentos: 0, compareceram: 0, matricularam: 0 };
          rows.push({ unidade_id: u.id, unidade: u.nome, semana: w, ...c });
          for (const k of Object.keys(sum) as (keyof FunnelCounts)[]) {
            sum[k] += c[k];
            total[k] += c[k];
          }
        }
        perUnit.push({ unidade_id: u.id, unidade: u.nome, ...sum });
      }
      return { rows, perUnit, total };
    },
  };
}
export type StaffService = ReturnType<typeof createStaffService>;

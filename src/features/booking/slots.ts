// Which trial slots a unit offers: its timetable's classes of the next 7 days plus hourly
// "treino livre" slots within its opening hours. Pure functions of the rows and the clock.
import { isDay, toId } from '../../lib/form/index';
import { addDays, saoPauloDay, saoPauloInstant, saoPauloWeekStart, WEEKDAYS, weekdayOf } from '../../lib/time';
import type { ClassRow } from '../../db/types';

/** Days ahead that can be booked, today included. */
export const BOOKING_DAYS = 7;
/** Length of a free-training slot. */
export const FREE_SLOT_MINUTES = 60;
export const FREE_TRAINING = 'Treino livre';

// São Paulo days, weeks and wall-clock instants come from src/lib/time.ts (the one clock);
// the short names stay because the booking files read better with them.
export { addDays, weekdayOf };
/** São Paulo calendar day (aaaa-mm-dd) of an instant. */
export const spDay = (at: Date): string => saoPauloDay(at);
/** Monday of the day's week (aaaa-mm-dd): the funnel's week key, as in cliques_cta.semana. */
export const mondayOf = saoPauloWeekStart;
/** The instant of a São Paulo wall-clock time. */
export const spInstant = saoPauloInstant;

const labelFormatter = new Intl.DateTimeFormat('pt-BR', { timeZone: 'UTC', day: '2-digit', month: '2-digit' });
/** "Terça-feira, 24/11" */
export function dayLabel(day: string): string {
  return `${WEEKDAYS[weekdayOf(day)]}, ${labelFormatter.format(new Date(`${day}T12:00:00Z`))}`;
}

export type { ClassRow };
export interface HoursRow {
  dia_semana: number;
  abre: string;
  fecha: string;
}

export interface Slot {
  /** form value and counter key: aula:<id>:<day> | livre:<day>:<HH:MM> */
  value: string;
  kind: 'aula' | 'livre';
  aulaId: number | null;
  day: string;
  inicio: string;
  fim: string;
  startsAt: Date;
  endsAt: Date;
  atividade: string;
  professor: string | null;
  sala: string | null;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const toHhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

function endOf(day: string, inicio: string, fim: string): Date {
  // A class that ends at or before it starts runs past midnight.
  return fim > inicio ? spInstant(day, fim) : spInstant(addDays(day, 1), fim);
}

/** Every slot of one São Paulo day, classes first then free training, by start time. */
export function slotsOfDay(day: string, classes: ClassRow[], hours: HoursRow[]): Slot[] {
  const weekday = weekdayOf(day);
  const slots: Slot[] = classes
    .filter((c) => c.dia_semana === weekday)
    .map((c) => ({
      value: `aula:${c.id}:${day}`,
      kind: 'aula' as const,
      aulaId: c.id,
      day,
      inicio: c.inicio,
      fim: c.fim,
      startsAt: spInstant(day, c.inicio),
      endsAt: endOf(day, c.inicio, c.fim),
      atividade: c.modalidade,
      professor: c.professor,
      sala: c.sala,
    }));
  const starts = new Set<number>();
  for (const h of hours.filter((x) => x.dia_semana === weekday)) {
    const open = toMinutes(h.abre);
    let close = toMinutes(h.fecha);
    if (close <= open) close += 24 * 60; // open past midnight
    // Whole hours only, a full slot before closing, starting on this day.
    for (let m = Math.ceil(open / 60) * 60; m + FREE_SLOT_MINUTES <= close && m < 24 * 60; m += 60) starts.add(m);
  }
  for (const m of [...starts].sort((a, b) => a - b)) {
    const inicio = toHhmm(m);
    const fim = toHhmm((m + FREE_SLOT_MINUTES) % (24 * 60));
    slots.push({
      value: `livre:${day}:${inicio}`,
      kind: 'livre',
      aulaId: null,
      day,
      inicio,
      fim,
      startsAt: spInstant(day, inicio),
      endsAt: endOf(day, inicio, fim),
      atividade: FREE_TRAINING,
      professor: null,
      sala: null,
    });
  }
  return slots.sort(
    (a, b) => a.startsAt.getTime() - b.startsAt.getTime() || (a.kind === b.kind ? 0 : a.kind === 'aula' ? -1 : 1),
  );
}

/** The bookable window's days: today (São Paulo) and the next six. */
export function windowDays(now: Date): string[] {
  const today = spDay(now);
  return Array.from({ length: BOOKING_DAYS }, (_, i) => addDays(today, i));
}

/** A slot value's parts, or null when it is not one of our two shapes. */
export function parseSlotValue(
  value: string,
): { kind: 'aula'; aulaId: number; day: string } | { kind: 'livre'; day: string; time: string } | null {
  let m = /^aula:(\d+):(\d{4}-\d{2}-\d{2})$/.exec(value);
  const aulaId = m ? toId(m[1]) : null;
  if (m && aulaId !== null && isDay(m[2]!)) return { kind: 'aula', aulaId, day: m[2]! };
  m = /^livre:(\d{4}-\d{2}-\d{2}):([01]\d|2[0-3]):([0-5]\d)$/.exec(value);
  if (m && isDay(m[1]!)) return { kind: 'livre', day: m[1]!, time: `${m[2]}:${m[3]}` };
  return null;
}

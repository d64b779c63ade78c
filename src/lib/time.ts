// The chain lives in Brazil: "today", "open now" and exported dates are in São Paulo time.
export const TIME_ZONE = 'America/Sao_Paulo';

export const WEEKDAYS = [
  'Domingo',
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
] as const;

const partsFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: TIME_ZONE,
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
const WEEKDAY_INDEX: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Weekday (0 = domingo) and "HH:MM" in São Paulo for an instant. */
export function saoPauloClock(date: Date = new Date()): { weekday: number; time: string } {
  const parts = Object.fromEntries(partsFormatter.formatToParts(date).map((p) => [p.type, p.value]));
  return { weekday: WEEKDAY_INDEX[parts.weekday as string] ?? 0, time: `${parts.hour}:${parts.minute}` };
}

/** "22/11/2026 09:15" in São Paulo: also given to SQLite's CSV functions (src/db/csv/sqlite-functions.ts). */
export const DATE_TIME_FORMAT: Intl.DateTimeFormatOptions = {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
};
const dateTimeFormatter = new Intl.DateTimeFormat('pt-BR', DATE_TIME_FORMAT);
/** "22/11/2026 09:15" in São Paulo time, from a stored ISO timestamp. */
export function formatDateTime(iso: string): string {
  return dateTimeFormatter.format(new Date(iso));
}

/** "2026-11-22" → "22/11/2026": a calendar day as people read it. */
export function formatDay(day: string): string {
  return `${day.slice(8, 10)}/${day.slice(5, 7)}/${day.slice(0, 4)}`;
}

const dayFormatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** "2026-11-22": the São Paulo calendar day of an instant. */
export function saoPauloDay(date: Date = new Date()): string {
  return dayFormatter.format(date);
}

/** ["2026", "11"]: the São Paulo year and month of an instant. */
export function saoPauloYearMonth(date: Date = new Date()): [string, string] {
  const [year, month] = saoPauloDay(date).split('-');
  return [year!, month!];
}

/** A calendar day "AAAA-MM-DD" plus `n` days (calendar arithmetic, no time zone involved). */
export function addDays(day: string, n: number): string {
  const d = new Date(`${day}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

// São Paulo's last daylight-saving period ended on 2019-02-17; from then on it is UTC-3 all year.
const FIXED_OFFSET_SINCE = '2019-02-17T03:00:00.000Z';
const STORED_INSTANT = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):\d\d(?:\.\d+)?Z$/;

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * "22/11/2026 09:15" for CSV cells (no comma: it would look like a separator to some readers).
 * An export formats millions of these, so instants of the fixed-offset years skip Intl: at
 * 03:00 UTC or later the São Paulo time is read off the stored text, before it from a Date.
 */
export function formatDateTimeCsv(iso: string): string {
  const m = iso >= FIXED_OFFSET_SINCE ? STORED_INSTANT.exec(iso) : null;
  if (!m) return formatDateTime(iso).replace(',', '');
  const hour = Number(m[4]) - 3;
  if (hour >= 0) return `${m[3]}/${m[2]}/${m[1]} ${two(hour)}:${m[5]}`;
  const d = new Date(Date.parse(iso) - 3 * 3600_000);
  return `${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()} ${two(d.getUTCHours())}:${m[5]}`;
}

/**
 * Start of a São Paulo calendar day ("2026-11-22") as an ISO UTC instant.
 * Brazil has had no DST since 2019, so the offset is a fixed -03:00.
 */
export function saoPauloDayStartIso(day: string): string {
  return new Date(`${day}T00:00:00-03:00`).toISOString();
}

/** 0 = domingo … 6 = sábado, of a calendar day "AAAA-MM-DD". */
export function weekdayOf(day: string): number {
  return new Date(`${day}T12:00:00Z`).getUTCDay();
}

/**
 * Monday of a São Paulo calendar day's week ("AAAA-MM-DD"): the one week key of the site
 * (trial-class funnel and cliques_cta.semana, the weekly digest). Pass saoPauloDay(now)
 * for the current week.
 */
export function saoPauloWeekStart(day: string): string {
  return addDays(day, -((weekdayOf(day) + 6) % 7));
}

/** The instant of a São Paulo wall-clock time ("2026-11-24", "07:00"); fixed -03:00 as above. */
export function saoPauloInstant(day: string, hhmm: string): Date {
  return new Date(`${day}T${hhmm}:00-03:00`);
}

const timeFormatter = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TIME_ZONE,
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** "07:00": the São Paulo time of an instant. */
export function formatTime(iso: string | Date): string {
  return timeFormatter.format(typeof iso === 'string' ? new Date(iso) : iso);
}

const dayMonthTimeFormatter = new Intl.DateTimeFormat('pt-BR', {
  timeZone: TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});
/** "23/11, 08:00" in São Paulo time. */
export function formatDayMonthTime(date: Date): string {
  return dayMonthTimeFormatter.format(date);
}

/** The instant `months` calendar months (UTC) before `now`: the retention cutoff (older rows are past their period). */
export function cutoffMonths(now: Date, months: number): Date {
  const d = new Date(now);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d;
}

/** The instant `years` before `now`. */
export function cutoffYears(now: Date, years: number): Date {
  const d = new Date(now);
  d.setUTCFullYear(d.getUTCFullYear() - years);
  return d;
}

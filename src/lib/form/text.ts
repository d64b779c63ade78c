// Text kinds of the form kit. Every text a person types goes through oneLine or
// multiLine before any rule of a feature sees it (docs/decisions/080).
import type { Parsed } from './result';

/** Refused everywhere: PostgreSQL cannot store it and C programs stop reading at it. */
export const NUL_MESSAGE = 'Este campo contém um caractere inválido (NUL). Apague-o e digite de novo.';
export const CONTROL_ONE_LINE_MESSAGE = 'Use uma linha só, sem quebras de linha nem caracteres de controle.';
export const CONTROL_MULTI_LINE_MESSAGE =
  'O texto contém caracteres de controle não permitidos. Apague-os e digite de novo.';

// C0 and C1 controls, DEL, and the Unicode line/paragraph separators (some mail readers
// break lines there).
const ONE_LINE_FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
// The same minus LF and TAB (kept in multi-line text); CR is allowed only as part of CRLF,
// which is turned into LF first.
const MULTI_LINE_FORBIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

export interface TextRule {
  /** most characters (Unicode code points) accepted */
  max: number;
  /** fewest characters accepted when not empty */
  min?: number;
  /** the message when empty; without it an empty value is accepted as "" */
  required?: string;
}

/** Code points, not UTF-16 units: an emoji counts as one character, as people count. */
export function charCount(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * One form value as a string: a string as is, a number as text, the first string of a
 * repeated field; anything else (nested objects, files) is "".
 */
export function rawString(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return rawString(value.find((v) => typeof v === 'string') ?? '');
  if (value && typeof value === 'object' && 'value' in value) return rawString((value as { value: unknown }).value);
  return '';
}

function finish(v: string, rule: TextRule): Parsed<string> {
  if (v === '') return rule.required ? { ok: false, error: rule.required } : { ok: true, value: '' };
  const n = charCount(v);
  if (n > rule.max) return { ok: false, error: `Use no máximo ${rule.max} caracteres (você digitou ${n}).` };
  if (rule.min && n < rule.min) return { ok: false, error: `Digite pelo menos ${rule.min} caracteres.` };
  return { ok: true, value: v };
}

/** Anything far past the limit is refused before normalising it (a 10 MB value costs nothing). */
function tooLong(raw: string, rule: TextRule): Parsed<string> | null {
  return raw.length > rule.max * 4 + 64 ? { ok: false, error: `Use no máximo ${rule.max} caracteres.` } : null;
}

/** One line: NFC, trimmed; CR, LF and every other control character refused. */
export function oneLine(value: unknown, rule: TextRule): Parsed<string> {
  const raw = rawString(value);
  if (raw.includes('\u0000')) return { ok: false, error: NUL_MESSAGE };
  const long = tooLong(raw, rule);
  if (long) return long;
  const v = raw.normalize('NFC').trim();
  if (ONE_LINE_FORBIDDEN.test(v)) return { ok: false, error: CONTROL_ONE_LINE_MESSAGE };
  return finish(v, rule);
}

/** Several lines: NFC, trimmed, CRLF → LF; LF and TAB kept, other controls refused. */
export function multiLine(value: unknown, rule: TextRule): Parsed<string> {
  const raw = rawString(value);
  if (raw.includes('\u0000')) return { ok: false, error: NUL_MESSAGE };
  const long = tooLong(raw, rule);
  if (long) return long;
  const v = raw.replace(/\r\n/g, '\n').normalize('NFC').trim();
  if (MULTI_LINE_FORBIDDEN.test(v)) return { ok: false, error: CONTROL_MULTI_LINE_MESSAGE };
  return finish(v, rule);
}

/**
 * A value that is not shown back as a field (a filter, a token, a password): true when it
 * holds something the database or a log line must never receive.
 */
export function hasNul(value: unknown): boolean {
  return rawString(value).includes('\u0000');
}

/**
 * A refused value as the form shows it again (values are kept): NUL and other controls
 * removed (LF and TAB kept in multi-line fields), NFC, cut to `max`. Never stored.
 */
export function echoValue(value: unknown, opts: { max?: number; multiLine?: boolean } = {}): string {
  const raw = rawString(value).slice(0, (opts.max ?? 1000) * 2);
  const cleaned = opts.multiLine
    ? raw.replace(/\r\n/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '')
    : raw.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, ' ');
  return [...cleaned.normalize('NFC')].slice(0, opts.max ?? 1000).join('');
}

/** `echoValue` for every field of a refused form; an absent one reads "". */
export function echoFields<V extends Partial<Record<string, string>>>(
  values: V,
  opts: { max?: number; multiLine?: boolean } = {},
): V {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, echoValue(v ?? '', opts)])) as V;
}

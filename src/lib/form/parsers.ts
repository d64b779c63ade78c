// The parsers of the form kit: one each for e-mail, Brazilian phone, CEP, integer id,
// money and calendar day (paging: src/lib/pagination.ts). No other file in src/ parses these
// (a test greps).
import { formatBRL } from '../text';
import { oneLine } from './text';
import type { Parsed } from './result';

export const EMAIL_MAX = 254;
export const EMAIL_MESSAGE = 'Informe um e-mail válido, por exemplo nome@exemplo.com.br.';
// Characters that have a meaning in mail headers or addresses are refused: an address
// typed in a form never needs quotes, brackets, commas or spaces; U+FFFD is what a broken
// encoding leaves, and no mailbox is named with it.
const EMAIL_RE = /^[^\s@<>(),;:"[\]\\\uFFFD]{1,64}@[^\s@<>(),;:"[\]\\.\uFFFD]+(\.[^\s@<>(),;:"[\]\\.\uFFFD]+)+$/;

/** An e-mail address, trimmed (case kept; `lowerCase` for account logins). "" when empty and optional. */
export function parseEmail(value: unknown, opts: { required?: string; lowerCase?: boolean } = {}): Parsed<string> {
  const text = oneLine(value, { max: EMAIL_MAX, required: opts.required });
  if (!text.ok || text.value === '') return text;
  if (!EMAIL_RE.test(text.value)) return { ok: false, error: EMAIL_MESSAGE };
  return { ok: true, value: opts.lowerCase ? text.value.toLowerCase() : text.value };
}

export const PHONE_MAX = 30;
export const PHONE_MESSAGE = 'Informe um número brasileiro com DDD, por exemplo (11) 98765-4321.';

/**
 * A Brazilian number (landline or mobile, WhatsApp included) → "+55DDXXXXXXXXX", or null.
 * Accepts the usual ways of typing it ("(11) 98765-4321", "+55 11 …", "011 …"); refuses
 * foreign numbers, invalid area codes, and mobiles without the leading 9.
 */
export function normalizePhone(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length > PHONE_MAX) return null;
  if (/^\+(?!\s*55)/.test(trimmed)) return null;
  if (/[^\d\s()+.-]/.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.startsWith('0')) digits = digits.slice(1);
  if ((digits.length === 12 || digits.length === 13) && digits.startsWith('55')) digits = digits.slice(2);
  if (!/^[1-9][1-9]/.test(digits)) return null;
  if (digits.length === 11 && digits[2] === '9') return `+55${digits}`;
  if (digits.length === 10 && /[2-8]/.test(digits[2]!)) return `+55${digits}`;
  return null;
}

/** A phone/WhatsApp field → "+55…". "" when empty and optional. */
export function parsePhone(value: unknown, opts: { required?: string; message?: string } = {}): Parsed<string> {
  const text = oneLine(value, { max: PHONE_MAX, required: opts.required });
  if (!text.ok || text.value === '') return text;
  const phone = normalizePhone(text.value);
  return phone ? { ok: true, value: phone } : { ok: false, error: opts.message ?? PHONE_MESSAGE };
}

/** +5511987654321 → "5511987654321" (for tel: and wa.me links). */
export function phoneDigits(e164: string): string {
  return e164.replace(/\D/g, '');
}

/** +5511987654321 → (11) 98765-4321 */
export function formatPhone(e164: string): string {
  const d = e164.replace(/\D/g, '').replace(/^55/, '');
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  return e164;
}

export const CEP_MESSAGE = 'CEP inválido: use 8 dígitos, como 05422-001.';
/** CEP → "05422-001". "" when empty. */
export function parseCep(value: unknown): Parsed<string> {
  const text = oneLine(value, { max: 20 });
  if (!text.ok || text.value === '') return text;
  const digits = text.value.replace(/\D/g, '');
  if (digits.length !== 8 || /[^\d.\-\s]/.test(text.value)) return { ok: false, error: CEP_MESSAGE };
  return { ok: true, value: `${digits.slice(0, 5)}-${digits.slice(5)}` };
}

/** Ids are 32-bit integer columns on both engines. */
export const ID_MAX = 2_147_483_647;
export const ID_MESSAGE = 'Código inválido.';

/** A positive integer id ("12"; not "012", "1.5", "-3", "1e3", " 1"), or null. */
export function toId(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 1 && value <= ID_MAX ? value : null;
  if (typeof value !== 'string' || !/^[1-9][0-9]{0,9}$/.test(value)) return null;
  const id = Number(value);
  return id <= ID_MAX ? id : null;
}

/**
 * The id of a public address's query (`/Detalhes.php?id=12`, `?unidade=`): the canonical id
 * of a string, or null for anything else, so the route answers its 400 or 404 page.
 */
export const queryId = (raw: unknown): number | null => (typeof raw === 'string' ? toId(raw) : null);

export function parseId(value: unknown, opts: { message?: string } = {}): Parsed<number> {
  const id = toId(typeof value === 'string' ? value.trim() : value);
  return id === null ? { ok: false, error: opts.message ?? ID_MESSAGE } : { ok: true, value: id };
}

/** Distinct valid ids of a checkbox group / repeated field; anything else is dropped. */
export function idList(value: unknown): number[] {
  const items = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const ids = items.map((v) => toId(v)).filter((n): n is number => n !== null);
  return [...new Set(ids)];
}

/** An integer in [min, max] ("" → fallback). */
export function parseInteger(value: unknown, min: number, max: number, fallback: number): Parsed<number> {
  const text = oneLine(value, { max: 20 });
  if (!text.ok) return text;
  if (text.value === '') return { ok: true, value: fallback };
  const n = /^-?\d{1,15}$/.test(text.value) ? Number(text.value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max)
    return { ok: false, error: `Use um número inteiro entre ${min} e ${max}.` };
  return { ok: true, value: n };
}

export const MONEY_MAX_CENTS = 100_000_000;
/**
 * Money typed by a person in pt-BR: "129,90", "R$ 1.299,90", "129.90" or "129" → cents.
 * `max`: the most cents accepted (default MONEY_MAX_CENTS), named in the message.
 */
export function parseMoney(value: unknown, opts: { required?: string; max?: number } = {}): Parsed<number | null> {
  const text = oneLine(value, { max: 30, required: opts.required });
  if (!text.ok) return text;
  let v = text.value.replace(/^R\$\s*/i, '').replace(/\s/g, '');
  if (v === '') return opts.required ? { ok: false, error: opts.required } : { ok: true, value: null };
  const negative = v.startsWith('-');
  if (negative) v = v.slice(1);
  // "1.299,90" → "1299.90"; "129.90" (dot as decimal) stays.
  if (v.includes(',')) v = v.replace(/\./g, '').replace(',', '.');
  else if (/^\d{1,3}(\.\d{3})+$/.test(v)) v = v.replace(/\./g, '');
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(v))
    return { ok: false, error: 'Valor inválido: use reais e centavos, como 129,90.' };
  if (negative) return { ok: false, error: 'O valor não pode ser negativo.' };
  const cents = Math.round(Number(v) * 100);
  if (opts.max !== undefined && cents > opts.max)
    return { ok: false, error: `Valor alto demais: o máximo é ${formatBRL(opts.max)}.` };
  if (cents > MONEY_MAX_CENTS) return { ok: false, error: 'Valor alto demais.' };
  return { ok: true, value: cents };
}

/** Cents as a money field shows them again, for parseMoney to read back: 129990 → "1299,90". */
export function moneyInputValue(cents: number): string {
  return (cents / 100).toFixed(2).replace('.', ',');
}

/** A calendar day "AAAA-MM-DD" that exists (no 2026-02-30). */
export function isDay(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const d = new Date(`${value}T12:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === value;
}

export function parseDay(value: unknown, opts: { required?: string } = {}): Parsed<string> {
  const text = oneLine(value, { max: 10, required: opts.required });
  if (!text.ok || text.value === '') return text;
  return isDay(text.value) ? text : { ok: false, error: 'Data inválida: use AAAA-MM-DD, por exemplo 2026-11-23.' };
}

// Field rules shared by the content screens and the catalog import, so a value the
// screens refuse is refused by an import too. Pure functions: no HTTP, no SQL.
import { cleanText, foldText, normalizeBrazilianPhone } from '../../../lib/text';

export type FieldErrors = Record<string, string>;
/** Raw form values as the page re-renders them (checkbox groups are arrays). */
export type FormValues = Record<string, string | string[]>;

export type Result<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

/** Reads a posted field as one string ("" when absent or repeated oddly). */
export function field(body: Record<string, unknown>, name: string): string {
  const v = body[name];
  if (typeof v === 'string') return v;
  if (Array.isArray(v) && typeof v[0] === 'string') return v[0];
  return '';
}

/** Reads a checkbox group / repeated field as a list of strings. */
export function list(body: Record<string, unknown>, name: string): string[] {
  const v = body[name] ?? body[`${name}[]`];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string');
  return [];
}

/** Positive integer ids from a checkbox group; anything else is dropped. */
export function idList(body: Record<string, unknown>, name: string): number[] {
  return [...new Set(list(body, name).map((s) => Number(s)).filter((n) => Number.isSafeInteger(n) && n > 0))];
}

export function requiredText(errors: FieldErrors, key: string, raw: string, label: string, max: number): string {
  const v = cleanText(raw);
  if (!v) errors[key] = `Informe ${label}.`;
  else if (v.length > max) errors[key] = `Use no máximo ${max} caracteres.`;
  return v;
}

export function optionalText(errors: FieldErrors, key: string, raw: string, max: number): string | null {
  const v = cleanText(raw);
  if (v.length > max) errors[key] = `Use no máximo ${max} caracteres.`;
  return v || null;
}

export function phone(errors: FieldErrors, key: string, raw: string): string | null {
  const v = cleanText(raw);
  if (!v) return null;
  const normalized = normalizeBrazilianPhone(v);
  if (!normalized) errors[key] = 'Telefone inválido: use DDD e número, por exemplo (11) 3045-1200.';
  return normalized;
}

/** The benefit platform link is followed by customers' phones: https only, no credentials. */
export function httpsUrl(errors: FieldErrors, key: string, raw: string): string | null {
  const v = cleanText(raw);
  if (!v) return null;
  if (v.length > 500) {
    errors[key] = 'Use no máximo 500 caracteres.';
    return null;
  }
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    errors[key] = 'Endereço inválido: use um link completo, como https://exemplo.com.br/unidade.';
    return null;
  }
  if (url.protocol !== 'https:') errors[key] = 'O link precisa começar com https://.';
  else if (!url.hostname.includes('.') || url.username || url.password) errors[key] = 'Endereço inválido: use um link completo, como https://exemplo.com.br/unidade.';
  return v;
}

export function email(errors: FieldErrors, key: string, raw: string, required = false): string | null {
  const v = cleanText(raw).toLowerCase();
  if (!v) {
    if (required) errors[key] = 'Informe o e-mail.';
    return null;
  }
  if (v.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v)) errors[key] = 'E-mail inválido.';
  return v;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** "7:30" is accepted and stored as "07:30". */
export function time(errors: FieldErrors, key: string, raw: string, label: string): string {
  let v = cleanText(raw).replace(/h$/i, '').replace('h', ':');
  if (/^\d:\d\d$/.test(v)) v = `0${v}`;
  if (!v) errors[key] ??= `Informe ${label}.`;
  else if (!TIME.test(v)) errors[key] ??= `Horário inválido: use HH:MM, por exemplo 07:30.`;
  return v;
}

export const UFS = [
  'AC', 'AL', 'AP', 'AM', 'BA', 'CE', 'DF', 'ES', 'GO', 'MA', 'MT', 'MS', 'MG', 'PA', 'PB', 'PR', 'PE', 'PI', 'RJ', 'RN',
  'RS', 'RO', 'RR', 'SC', 'SP', 'SE', 'TO',
] as const;

export function uf(errors: FieldErrors, key: string, raw: string): string {
  const v = cleanText(raw).toUpperCase();
  if (!v) errors[key] = 'Informe a UF.';
  else if (!(UFS as readonly string[]).includes(v)) errors[key] = 'UF inválida: use a sigla do estado, como SP.';
  return v;
}

export function cep(errors: FieldErrors, key: string, raw: string): string | null {
  const v = cleanText(raw);
  if (!v) return null;
  const digits = v.replace(/\D/g, '');
  if (digits.length !== 8 || /[^\d.\-\s]/.test(v)) {
    errors[key] = 'CEP inválido: use 8 dígitos, como 05422-001.';
    return null;
  }
  return `${digits.slice(0, 5)}-${digits.slice(5)}`;
}

export function coordinate(errors: FieldErrors, key: string, raw: string, limit: number): number | null {
  const v = cleanText(raw).replace(',', '.');
  if (!v) return null;
  const n = Number(v);
  if (!Number.isFinite(n) || Math.abs(n) > limit) {
    errors[key] = `Coordenada inválida: use um número entre -${limit} e ${limit}.`;
    return null;
  }
  return n;
}

/**
 * Price typed by a person in pt-BR: "129,90", "R$ 1.299,90", "129.90" or "129".
 * Returns integer cents.
 */
export function priceCents(errors: FieldErrors, key: string, raw: string): number {
  let v = cleanText(raw).replace(/^R\$\s*/i, '').replace(/\s/g, '');
  if (!v) {
    errors[key] = 'Informe o preço.';
    return 0;
  }
  const negative = v.startsWith('-');
  if (negative) v = v.slice(1);
  // "1.299,90" → "1299.90"; "129.90" (dot as decimal) stays.
  if (v.includes(',')) v = v.replace(/\./g, '').replace(',', '.');
  else if (/^\d{1,3}(\.\d{3})+$/.test(v)) v = v.replace(/\./g, '');
  if (!/^\d+(\.\d{1,2})?$/.test(v)) {
    errors[key] = 'Preço inválido: use reais e centavos, como 129,90.';
    return 0;
  }
  if (negative) {
    errors[key] = 'O preço não pode ser negativo.';
    return 0;
  }
  const cents = Math.round(Number(v) * 100);
  if (cents > 100_000_000) errors[key] = 'Preço alto demais.';
  return cents;
}

export function integerIn(errors: FieldErrors, key: string, raw: string, min: number, max: number, fallback: number): number {
  const v = cleanText(raw);
  if (!v) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    errors[key] = `Use um número inteiro entre ${min} e ${max}.`;
    return fallback;
  }
  return n;
}

export const PERIODS = [
  { value: 'mensal', label: 'Mensal' },
  { value: 'trimestral', label: 'Trimestral' },
  { value: 'semestral', label: 'Semestral' },
  { value: 'anual', label: 'Anual' },
] as const;

export const QUESTION_TYPES = [
  { value: 'escala', label: 'Escala de 0 a 10 (NPS)' },
  { value: 'opcoes', label: 'Lista de opções' },
  { value: 'texto', label: 'Texto (com a opção "está tudo ok")' },
] as const;

export const WEEKDAY_ALIASES: Record<string, number> = {
  domingo: 0, dom: 0, '0': 0,
  segunda: 1, 'segunda-feira': 1, seg: 1, '1': 1,
  terca: 2, 'terca-feira': 2, ter: 2, '2': 2,
  quarta: 3, 'quarta-feira': 3, qua: 3, '3': 3,
  quinta: 4, 'quinta-feira': 4, qui: 4, '4': 4,
  sexta: 5, 'sexta-feira': 5, sex: 5, '5': 5,
  sabado: 6, sab: 6, '6': 6,
};

/** "Terça-feira", "terca", "ter" or "2" → 2; null when not a weekday. */
export function parseWeekday(raw: string): number | null {
  const key = foldText(raw).replace(/\s+/g, '-');
  return WEEKDAY_ALIASES[key] ?? null;
}

export interface ClassSlot {
  dia_semana: number;
  inicio: string;
  fim: string;
  sala: string | null;
}

/** Same room, same weekday, and the time ranges intersect (touching ends do not). */
export function overlaps(a: ClassSlot, b: ClassSlot): boolean {
  if (!a.sala || !b.sala || a.dia_semana !== b.dia_semana) return false;
  if (foldText(a.sala) !== foldText(b.sala)) return false;
  return a.inicio < b.fim && b.inicio < a.fim;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

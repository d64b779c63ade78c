// Brazilian registry numbers of the form kit: CPF (a person) and CNPJ (a company), with
// their check digits verified. Stored bare (11 / 14 characters), shown formatted.
import type { Parsed } from './result';
import { oneLine } from './text';

export const CPF_MESSAGE = 'CPF inválido: confira os 11 dígitos, por exemplo 123.456.789-09.';
export const CNPJ_MESSAGE = 'CNPJ inválido: confira os 14 caracteres, por exemplo 11.222.333/0001-81.';

// What people type around the number: dots, hyphen, slash and spaces; nothing else.
const SEPARATORS = /[.\-/\s]/g;

/** Modulus-11 check digit of `values` weighed by `weights` (the rule of both CPF and CNPJ). */
function mod11(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, v, i) => acc + v * weights[i]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** Eleven equal digits pass the arithmetic (000.000.000-00) but are never issued. */
const allSame = (s: string) => /^(.)\1*$/.test(s);

/** "12345678909" (digits only) → true when its two check digits are right. */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || allSame(digits)) return false;
  const d = [...digits].map(Number);
  const first = mod11(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = mod11(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[9] === first && d[10] === second;
}

// Since July 2026 the Receita Federal also issues alphanumeric CNPJs: the first 12
// characters may be A–Z, each counting as its code minus 48 (A = 17), the check digits stay
// numeric (IN RFB 2.229/2024). A numeric CNPJ computes exactly as before.
const CNPJ_WEIGHTS_1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const CNPJ_WEIGHTS_2 = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
const cnpjValues = (s: string) => [...s].map((c) => c.charCodeAt(0) - 48);

/** The two check digits of a CNPJ's first 12 characters (digits or A–Z): "112223330001" → "81". */
export function cnpjCheckDigits(base: string): string {
  if (!/^[0-9A-Z]{12}$/.test(base)) throw new Error('a CNPJ base has 12 characters, digits or A–Z');
  const first = mod11(cnpjValues(base), CNPJ_WEIGHTS_1);
  const second = mod11([...cnpjValues(base), first], CNPJ_WEIGHTS_2);
  return `${first}${second}`;
}

/** "11222333000181" (bare, upper case) → true when its two check digits are right. */
export function isValidCnpj(value: string): boolean {
  if (!/^[0-9A-Z]{12}\d{2}$/.test(value) || allSame(value)) return false;
  return cnpjCheckDigits(value.slice(0, 12)) === value.slice(12);
}

/** The characters of a typed number without its separators, or null when anything else was typed. */
function bare(text: string, letters: boolean): string | null {
  const v = text.replace(SEPARATORS, '');
  return (letters ? /^[0-9A-Za-z]*$/ : /^\d*$/).test(v) ? v.toUpperCase() : null;
}

/** How one kind of registry number is typed and checked. */
interface Registry {
  /** the longest text accepted, separators included */
  max: number;
  /** A–Z allowed besides digits (the alphanumeric CNPJ) */
  letters: boolean;
  isValid: (bare: string) => boolean;
  message: string;
}

const CPF: Registry = { max: 20, letters: false, isValid: isValidCpf, message: CPF_MESSAGE };
const CNPJ: Registry = { max: 30, letters: true, isValid: isValidCnpj, message: CNPJ_MESSAGE };

type RegistryOptions = { required?: string; message?: string };

/** A registry number as typed → its bare characters; "" when empty and optional. */
function parseRegistry(kind: Registry, value: unknown, opts: RegistryOptions): Parsed<string> {
  const text = oneLine(value, { max: kind.max, required: opts.required });
  if (!text.ok || text.value === '') return text;
  const chars = bare(text.value, kind.letters);
  return chars !== null && kind.isValid(chars)
    ? { ok: true, value: chars }
    : { ok: false, error: opts.message ?? kind.message };
}

/** A CPF typed as "123.456.789-09" or "12345678909" → "12345678909". "" when empty and optional. */
export const parseCpf = (value: unknown, opts: RegistryOptions = {}) => parseRegistry(CPF, value, opts);

/** A CNPJ typed as "11.222.333/0001-81" or "11222333000181" → "11222333000181". "" when empty and optional. */
export const parseCnpj = (value: unknown, opts: RegistryOptions = {}) => parseRegistry(CNPJ, value, opts);

/** "12345678909" → "123.456.789-09" (anything else as it is). */
export function formatCpf(digits: string): string {
  return /^\d{11}$/.test(digits)
    ? `${digits.slice(0, 3)}.${digits.slice(3, 6)}.${digits.slice(6, 9)}-${digits.slice(9)}`
    : digits;
}

/** "11222333000181" → "11.222.333/0001-81" (anything else as it is). */
export function formatCnpj(value: string): string {
  return /^[0-9A-Z]{12}\d{2}$/.test(value)
    ? `${value.slice(0, 2)}.${value.slice(2, 5)}.${value.slice(5, 8)}/${value.slice(8, 12)}-${value.slice(12)}`
    : value;
}

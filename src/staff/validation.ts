// Field rules shared by the content screens and the catalog import, so a value the
// screens refuse is refused by an import too. Pure functions: no HTTP, no SQL. Every
// value is read through the form kit (src/lib/form): controls, NUL, lengths, phones,
// e-mails, CEP, money and ids are parsed there, once for the whole site.
import { foldText } from '../lib/text';
import * as kit from '../lib/form/index';

export type FieldErrors = kit.FieldErrors;

/** One line of text through the kit ("" when refused; the error is recorded). */
const line = (errors: FieldErrors, key: string, raw: string, max = 500) =>
  kit.take(errors, key, kit.oneLine(raw, { max }), '');
/** Raw form values as the page re-renders them (checkbox groups are arrays). */
export type FormValues = Record<string, string | string[]>;
/** A parsed form body as a service receives it, before its rules read each field. */
export type FormFields = Record<string, unknown>;

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
  return kit.idList(list(body, name));
}

export function requiredText(errors: FieldErrors, key: string, raw: string, label: string, max: number): string {
  return kit.take(errors, key, kit.oneLine(raw, { max, required: `Informe ${label}.` }), '');
}

export function optionalText(errors: FieldErrors, key: string, raw: string, max: number): string | null {
  return kit.take(errors, key, kit.oneLine(raw, { max }), '') || null;
}

/** A description (textarea): several lines kept. */
export function optionalLongText(errors: FieldErrors, key: string, raw: string, max: number): string | null {
  return kit.take(errors, key, kit.multiLine(raw, { max }), '') || null;
}

export function phone(errors: FieldErrors, key: string, raw: string): string | null {
  return (
    kit.take(
      errors,
      key,
      kit.parsePhone(raw, { message: 'Telefone inválido: use DDD e número, por exemplo (11) 3045-1200.' }),
      '',
    ) || null
  );
}

/** The benefit platform link is followed by customers' phones: https only, no credentials. */
export function httpsUrl(errors: FieldErrors, key: string, raw: string): string | null {
  const v = line(errors, key, raw, 500);
  if (!v) return null;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    errors[key] = 'Endereço inválido: use um link completo, como https://exemplo.com.br/unidade.';
    return null;
  }
  if (url.protocol !== 'https:') errors[key] = 'O link precisa começar com https://.';
  else if (!url.hostname.includes('.') || url.username || url.password)
    errors[key] = 'Endereço inválido: use um link completo, como https://exemplo.com.br/unidade.';
  return v;
}

export function email(errors: FieldErrors, key: string, raw: string, required = false): string | null {
  const r = kit.parseEmail(raw, { required: required ? 'Informe o e-mail.' : undefined, lowerCase: true });
  return (
    kit.take(
      errors,
      key,
      r.ok ? r : { ok: false, error: r.error === kit.EMAIL_MESSAGE ? 'E-mail inválido.' : r.error },
      '',
    ) || null
  );
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
/** "7:30" is accepted and stored as "07:30". */
export function time(errors: FieldErrors, key: string, raw: string, label: string): string {
  let v = line(errors, key, raw, 20).replace(/h$/i, '').replace('h', ':');
  if (/^\d:\d\d$/.test(v)) v = `0${v}`;
  if (!v) errors[key] ??= `Informe ${label}.`;
  else if (!TIME.test(v)) errors[key] ??= `Horário inválido: use HH:MM, por exemplo 07:30.`;
  return v;
}

export const UFS = [
  'AC',
  'AL',
  'AP',
  'AM',
  'BA',
  'CE',
  'DF',
  'ES',
  'GO',
  'MA',
  'MT',
  'MS',
  'MG',
  'PA',
  'PB',
  'PR',
  'PE',
  'PI',
  'RJ',
  'RN',
  'RS',
  'RO',
  'RR',
  'SC',
  'SP',
  'SE',
  'TO',
] as const;

export function uf(errors: FieldErrors, key: string, raw: string): string {
  const v = line(errors, key, raw, 20).toUpperCase();
  if (!v) errors[key] ??= 'Informe a UF.';
  else if (!(UFS as readonly string[]).includes(v)) errors[key] = 'UF inválida: use a sigla do estado, como SP.';
  return v;
}

export function cep(errors: FieldErrors, key: string, raw: string): string | null {
  return kit.take(errors, key, kit.parseCep(raw), '') || null;
}

export function coordinate(errors: FieldErrors, key: string, raw: string, limit: number): number | null {
  const v = line(errors, key, raw, 30).replace(',', '.');
  if (!v) return null;
  const n = /^-?\d{1,3}(\.\d+)?$/.test(v) ? Number(v) : NaN;
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
  const r = kit.parseMoney(raw, { required: 'Informe o preço.' });
  // The kit speaks of "valor"; on the plan screen the field is the price.
  const price = r.ok
    ? r
    : {
        ok: false as const,
        error: r.error
          .replace('Valor inválido', 'Preço inválido')
          .replace('O valor', 'O preço')
          .replace('Valor alto', 'Preço alto'),
      };
  return kit.take(errors, key, price, 0) ?? 0;
}

export function integerIn(
  errors: FieldErrors,
  key: string,
  raw: string,
  min: number,
  max: number,
  fallback: number,
): number {
  return kit.take(errors, key, kit.parseInteger(raw, min, max, fallback), fallback);
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
  domingo: 0,
  dom: 0,
  '0': 0,
  segunda: 1,
  'segunda-feira': 1,
  seg: 1,
  '1': 1,
  terca: 2,
  'terca-feira': 2,
  ter: 2,
  '2': 2,
  quarta: 3,
  'quarta-feira': 3,
  qua: 3,
  '3': 3,
  quinta: 4,
  'quinta-feira': 4,
  qui: 4,
  '4': 4,
  sexta: 5,
  'sexta-feira': 5,
  sex: 5,
  '5': 5,
  sabado: 6,
  sab: 6,
  '6': 6,
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

export const hasErrors = kit.hasErrors;

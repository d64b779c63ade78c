/** Trim and NFC-normalise user text (DESIGN: "Text: trimmed, Unicode NFC"). */
export function cleanText(value: unknown): string {
  if (typeof value !== 'string') return '';
  return value.normalize('NFC').trim();
}

/** Lower-case, accent-free form used for accent-insensitive matching ("Musculação" → "musculacao"). */
export function foldText(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim();
}

/** "Unidade Centro — São Paulo" → "unidade-centro-sao-paulo" */
export function slugify(value: string): string {
  return foldText(value)
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

// Phones are parsed and formatted by the form kit (src/lib/form): normalizePhone, formatPhone.

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export function formatBRL(cents: number): string {
  return brl.format(cents / 100);
}

const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });

/**
 * Orders names as a Brazilian reader expects ("Álvares" next to "Alvorada", "Unidade 2"
 * before "Unidade 10"). One collator for the process: each one holds ICU data.
 */
export const compareText = (a: string, b: string): number => collator.compare(a, b);

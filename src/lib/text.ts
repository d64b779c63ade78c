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
  return foldText(value).replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** Brazilian phone: digits only, with area code (10–11 digits), optional +55. Returns +55… or null. */
export function normalizeBrazilianPhone(value: string): string | null {
  let digits = value.replace(/\D/g, '');
  if (digits.length >= 12 && digits.startsWith('55')) digits = digits.slice(2);
  if (digits.startsWith('0')) digits = digits.slice(1);
  if (digits.length !== 10 && digits.length !== 11) return null;
  if (digits.startsWith('0') || digits[2] === '0' && digits.length === 11) return null;
  return `+55${digits}`;
}

/** +5511987654321 → (11) 98765-4321 */
export function formatBrazilianPhone(e164: string): string {
  const d = e164.replace(/\D/g, '').replace(/^55/, '');
  if (d.length === 11) return `(${d.slice(0, 2)}) ${d.slice(2, 7)}-${d.slice(7)}`;
  if (d.length === 10) return `(${d.slice(0, 2)}) ${d.slice(2, 6)}-${d.slice(6)}`;
  return e164;
}

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
export function formatBRL(cents: number): string {
  return brl.format(cents / 100);
}

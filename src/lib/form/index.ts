// The form kit: every form and every query parameter of the site reads its values through
// these functions, so a rule (controls, NUL, lengths, e-mail, phone, ids, CPF/CNPJ, money,
// pages) is written once. Pure functions; the HTTP side is in src/http/forms.ts and
// src/views/form.tsx.
// See docs/decisions/080.
import { randomBytes } from 'node:crypto';

export * from './result';
export * from './text';
export * from './parsers';
export * from './documents';

/** Hidden field of every public form: one id per rendered form (docs/decisions/082). */
export const ENVIO_FIELD = 'envio_id';
const ENVIO_ID_RE = /^[A-Za-z0-9_-]{8,64}$/;

/** 128 random bits, base64url (22 characters). */
export function newEnvioId(): string {
  return randomBytes(16).toString('base64url');
}

/** The posted envio_id, or null when absent or malformed (then the POST is simply not deduplicated). */
export function readEnvioId(body: Record<string, unknown> | undefined): string | null {
  const v = body?.[ENVIO_FIELD];
  return typeof v === 'string' && ENVIO_ID_RE.test(v.trim()) ? v.trim() : null;
}

/** The envio_id a refused form is shown again with: the posted one (a resend is the same submission), or a new one. */
export function keptEnvioId(body: Record<string, unknown> | undefined): string {
  return readEnvioId(body) ?? newEnvioId();
}

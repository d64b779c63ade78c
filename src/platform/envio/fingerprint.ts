// The fingerprint of a public-form submission: what makes a second POST with the same
// envio_id a repeat (same content) or a new submission (different content, e.g. a form the
// back button restored with its used key). Pure functions (docs/decisions/183).
import { createHash } from 'node:crypto';

/** JSON with object keys sorted, so the same content always gives the same text. */
function canonical(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
}

/** SHA-256 (64 hex) of the normalised content (the values the service would store). */
export function fingerprintOf(content: unknown): string {
  return createHash('sha256').update(canonical(content)).digest('hex');
}

/**
 * The key a different content sent under a used envio_id is stored under: the key and the
 * fingerprint's first 16 hex digits, so the same second content sent again finds it (a
 * repeat) and any other content gets a key of its own. The ":" never occurs in a posted
 * envio_id, so it cannot collide with one; 64 characters at most (the column's width).
 */
export function contentKey(envioId: string, fingerprint: string): string {
  return `${envioId.slice(0, 47)}:${fingerprint.slice(0, 16)}`;
}

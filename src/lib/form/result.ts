// The one result shape of every parser of the form kit, and how a form collects them.

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/** Field name → pt-BR message, the one error shape of every form (page and JSON). */
export type FieldErrors = Record<string, string>;

/**
 * Records the error of `result` under `key` (the first error of a field wins) and returns
 * the value, or `fallback` when the field was refused.
 */
export function take<T, F = T>(errors: FieldErrors, key: string, result: Parsed<T>, fallback: F): T | F {
  if (result.ok) return result.value;
  errors[key] ??= result.error;
  return fallback;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

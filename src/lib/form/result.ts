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

/** `take` for several text fields at once, each error under the field's own name; a refused field reads "". */
export function takeFields<K extends string>(
  errors: FieldErrors,
  results: Record<K, Parsed<string>>,
): Record<K, string> {
  const values = {} as Record<K, string>;
  for (const key in results) values[key] = take(errors, key, results[key], '');
  return values;
}

export function hasErrors(errors: FieldErrors): boolean {
  return Object.keys(errors).length > 0;
}

// What a staff service throws or returns when a save cannot happen, and the route's error
// handler turns into a page: a record gone (404), a page not for this account (403), a
// unique value taken by a concurrent save (the field's message).

export class NotFoundError extends Error {}
export class ForbiddenError extends Error {}

/**
 * Two admins saving the same unique value (unit slug, area/modality name, account e-mail)
 * at once both pass the service's "already taken" check on PostgreSQL (READ COMMITTED);
 * the unique index refuses the second. That is a user's conflict, not a server error:
 * answer it with the same field message as the check.
 */
export async function onUniqueConflict<T>(
  errors: Record<string, string>,
  run: () => Promise<T>,
): Promise<T | { ok: false; errors: Record<string, string> }> {
  try {
    return await run();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return { ok: false, errors };
    throw err;
  }
}

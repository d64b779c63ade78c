// What every content service needs: the repositories (built once by content/services.ts),
// who acts, and the hook that tells the public catalog to drop its snapshot after a change.
import { nowIso } from '../../../db/index';
import type { Transactional, Trx } from '../../../db/transactional';
import type { AuditEntry, AuditRepository } from './audit.repository';
import type { ContentRepository } from './content.repository';

/** The repositories a change writes to, together in one transaction. */
export interface ContentRepos {
  content: ContentRepository;
  audit: AuditRepository;
}

export interface ContentDeps {
  repos: Transactional<ContentRepos>;
  /** called after every committed change (drops this instance's catalog snapshot) */
  onCatalogChange?: () => void;
}

/** Who makes a change; null id = the command line (catalog import). */
export interface Actor {
  id: number | null;
}

export class NotFoundError extends Error {}
export class ForbiddenError extends Error {}

/**
 * Runs a change and its audit row(s) in ONE transaction, then notifies the catalog.
 * `audit` entries are written with the same timestamp as the change.
 */
export async function change<T>(
  deps: ContentDeps,
  actor: Actor,
  work: (repo: ContentRepository, audit: (e: Omit<AuditEntry, 'usuarioId'>) => Promise<void>, trx: Trx, now: string) => Promise<T>,
  touchesCatalog = true,
): Promise<T> {
  const now = nowIso();
  const result = await deps.repos.transaction((tx, trx) => work(tx.content, (e) => tx.audit.record({ ...e, usuarioId: actor.id }, now), trx, now));
  if (touchesCatalog) deps.onCatalogChange?.();
  return result;
}

/**
 * Two admins saving the same unique value (unit slug, area/modality name, account e-mail)
 * at once both pass the service's "already taken" check on PostgreSQL (READ COMMITTED);
 * the unique index refuses the second. That is a user's conflict, not a server error:
 * answer it with the same field message as the check.
 */
export async function onUniqueConflict<T>(errors: Record<string, string>, run: () => Promise<T>): Promise<T | { ok: false; errors: Record<string, string> }> {
  try {
    return await run();
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE') return { ok: false, errors };
    throw err;
  }
}

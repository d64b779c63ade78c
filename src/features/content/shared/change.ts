// What every content service needs: the repositories (built once by content/services.ts),
// who acts, and the hook that tells the public catalog to drop its snapshot after a change.
import { nowIso } from '../../../db/index';
import type { Transactional, Trx } from '../../../db/transactional';
import type { Actor, AuditEntry, AuditRepository } from '../../audit/audit.repository';
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

/**
 * Runs a change and its audit row(s) in ONE transaction, then notifies the catalog.
 * `audit` entries are written with the same timestamp as the change.
 */
export async function change<T>(
  deps: ContentDeps,
  actor: Actor,
  work: (
    repo: ContentRepository,
    audit: (e: Omit<AuditEntry, 'usuarioId'>) => Promise<void>,
    trx: Trx,
    now: string,
  ) => Promise<T>,
  touchesCatalog = true,
): Promise<T> {
  const now = nowIso();
  const result = await deps.repos.transaction((tx, trx) =>
    work(tx.content, (e) => tx.audit.record({ ...e, usuarioId: actor.id }, now), trx, now),
  );
  if (touchesCatalog) deps.onCatalogChange?.();
  return result;
}

// What every content service needs: the repositories (built once by content/services.ts),
// who acts, and the hook that tells the public catalog to drop its snapshot after a change.
import { nowIso } from '../../../db/index';
import type { Transactional, Trx } from '../../../db/transactional';
import { activationEntry, type Actor, type AuditEntry, type AuditRepository } from '../../audit/audit.repository';
import { NotFoundError } from '../../../staff/errors';
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

/**
 * The work of an activate/deactivate button, for change(): `find` reads the record (gone: a
 * NotFoundError, the 404 page), `set` writes its flag, then the audit row of the switch.
 */
export function activeSwitch(
  entidade: string,
  id: number,
  active: boolean,
  find: (repo: ContentRepository) => Promise<{ ativo: number } | null | undefined>,
  set: (repo: ContentRepository, ativo: 0 | 1, now: string) => Promise<unknown>,
) {
  return async (
    repo: ContentRepository,
    audit: (e: Omit<AuditEntry, 'usuarioId'>) => Promise<void>,
    _trx: Trx,
    now: string,
  ) => {
    const before = await find(repo);
    if (!before) throw new NotFoundError();
    await set(repo, active ? 1 : 0, now);
    await audit(activationEntry(entidade, id, before, active));
  };
}

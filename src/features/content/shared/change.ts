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

/** A kind of record with an activate button: its audit name, how to read it and set its flag. */
export interface ActiveRecord {
  entidade: string;
  find: (repo: ContentRepository, id: number) => Promise<{ ativo: number } | null | undefined>;
  set: (repo: ContentRepository, id: number, ativo: 0 | 1, now: string) => Promise<unknown>;
}

/**
 * Activates or deactivates one record and writes the audit row of the switch, in one
 * transaction; a record gone meanwhile is a NotFoundError (the 404 page).
 */
export function switchActive(
  deps: ContentDeps,
  actor: Actor,
  record: ActiveRecord,
  id: number,
  active: boolean,
  touchesCatalog = true,
) {
  return change(
    deps,
    actor,
    async (repo, audit, _trx, now) => {
      const before = await record.find(repo, id);
      if (!before) throw new NotFoundError();
      await record.set(repo, id, active ? 1 : 0, now);
      await audit(activationEntry(record.entidade, id, before, active));
    },
    touchesCatalog,
  );
}

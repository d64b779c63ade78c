// Builds the identity repositories once, for index.ts, the user commands (npm run user:*)
// and the tests. Kept apart from index.ts so the commands need not load the plugin.
import type { Db } from '../../db/index';
import { transactional } from '../../db/transactional';
import { createAuditRepository } from '../audit/audit.repository';
import { createAccountsService } from './accounts.service';
import { createIdentityRepository } from './identity.repository';
import type { ScryptParams } from './password';

/** Accounts and the audit log on `db`; `.transaction()` binds both to one transaction. */
export function identityRepositories(db: Db) {
  return transactional(db, (conn) => ({
    identity: createIdentityRepository(conn),
    audit: createAuditRepository(conn),
  }));
}

/** The accounts service on `db` (commands and test fixtures; the app builds its own in index.ts). */
export function accountsService(db: Db, options: { scrypt?: ScryptParams } = {}) {
  return createAccountsService({ repos: identityRepositories(db), ...options });
}

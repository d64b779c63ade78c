// Builds the privacy repositories once, for index.ts and the tests (and commands to come:
// the retention job). The audit repository joins so an erasure writes its row in its own
// transaction.
import type { Db } from '../../db/index';
import { transactional } from '../../db/transactional';
import { createAuditRepository } from '../audit/audit.repository';
import { createPersonDataRepository } from './person-data.repository';
import { createRequestsRepository } from './requests.repository';

export function privacyRepositories(db: Db) {
  return transactional(db, (conn) => ({
    person: createPersonDataRepository(conn),
    requests: createRequestsRepository(conn),
    audit: createAuditRepository(conn),
  }));
}

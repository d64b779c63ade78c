// Builds the privacy repositories and services once: for the two plugins (index.ts: Meus dados
// and the request queue; compliance.ts: consent, retention, incidents), the jobs:retention
// command and the features that check a revocation (feedback's inbox). The audit repository
// joins so an erasure or a revocation writes its row in its own transaction.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { transactional } from '../../db/transactional';
import type { FileStorage } from '../../platform/storage/index';
import { createAuditRepository } from '../audit/audit.repository';
import { createConsentRepository } from './consent.repository';
import { createConsentService } from './consent.service';
import { createIncidentsRepository } from './incidents.repository';
import { createIncidentsService } from './incidents.service';
import { createPersonDataRepository } from './person-data.repository';
import { createProcessorsRepository } from './processors.repository';
import { createRetentionRepository } from './retention.repository';
import { createRetentionService } from './retention.service';
import { createRequestsRepository } from './requests.repository';

/** Consents and the audit log on `db`, bindable to one transaction. */
export function consentService(db: Db) {
  return createConsentService(
    transactional(db, (conn) => ({ consents: createConsentRepository(conn), audit: createAuditRepository(conn) })),
  );
}

export function createPrivacyServices(deps: {
  db: Db;
  config: Pick<Config, 'privacy'>;
  storage: Pick<FileStorage, 'delete'>;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
}) {
  const { db } = deps;
  return {
    consents: consentService(db),
    retention: createRetentionService({
      repo: transactional(db, createRetentionRepository),
      storage: deps.storage,
      retention: deps.config.privacy.retention,
      log: deps.log,
    }),
    /** who /privacidade lists besides the catalog: the active webhook receivers */
    processors: createProcessorsRepository(db),
    incidents: createIncidentsService(
      transactional(db, (conn) => ({ incidents: createIncidentsRepository(conn), audit: createAuditRepository(conn) })),
    ),
  };
}
export type PrivacyServices = ReturnType<typeof createPrivacyServices>;

export function privacyRepositories(db: Db) {
  return transactional(db, (conn) => ({
    person: createPersonDataRepository(conn),
    requests: createRequestsRepository(conn),
    consents: createConsentRepository(conn),
    audit: createAuditRepository(conn),
  }));
}

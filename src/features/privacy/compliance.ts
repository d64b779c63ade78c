// Privacy compliance (LGPD): proof of consent and its revocation, the retention job that
// applies RETENTION_*_MONTHS, the incident register, and the generated /privacidade. Admin pages under
// /admin/privacidade/{consentimentos,incidentes}; the retention timer runs in this process
// when SCHEDULED_JOBS is on (`npm run jobs:retention` runs it at once).
import fp from 'fastify-plugin';
import { complianceRoutes } from './compliance.routes';
import type { ConsentService } from './consent.service';
import { type RetentionService, startRetentionJob } from './retention.service';
import { createPrivacyServices } from './services';
import { policyRoutes } from './policy.routes';
import { createPolicyService } from './policy.service';
import { staffScope } from '../../staff/scope';

declare module 'fastify' {
  interface FastifyInstance {
    /** revokeConsent for "Meus dados" and the staff screen; the revocation checks */
    consents: ConsentService;
    /** the retention job of this instance, run at once (CLI, tests with a fake clock) */
    retentionJob: RetentionService;
  }
}

export default fp(
  async (app) => {
    const services = createPrivacyServices({ db: app.db, config: app.config, storage: app.storage, log: app.log });
    app.decorate('consents', services.consents);
    app.decorate('retentionJob', services.retention);
    // The public notice, generated from the same settings the retention job reads.
    const policy = createPolicyService(services.processors, app.config, async () => {
      return (await app.catalog.snapshot()).units;
    });
    policyRoutes(app, policy);
    await staffScope(app, { role: 'admin', noStore: true }, (scope) => complianceRoutes(scope, services));
    if (app.config.isProduction && app.config.privacy.dpoEmailDefaulted) {
      app.log.warn(
        `DPO_EMAIL não está definido: o site mostra ${app.config.privacy.dpoEmail} como contato do encarregado. ` +
          'Defina o endereço real.',
      );
    }
    if (app.config.scheduledJobs) {
      let job: { stop(): Promise<void> } | null = null;
      app.addHook('onReady', async () => {
        job = startRetentionJob(services.retention, app.log);
      });
      app.addHook('onClose', async () => {
        await job?.stop();
      });
    }
  },
  {
    name: 'feature-privacy-compliance',
    fastify: '5.x',
    dependencies: ['db', 'errors', 'forms', 'identity', 'storage', 'feature-catalog'],
  },
);

/** Revokes a contact's consents as the person did it (`by` null); "Meus dados" uses `revokeWithin`. */
export function revokeConsent(
  consents: Pick<ConsentService, 'revoke'>,
  contact: { email?: string | null; telefone?: string | null },
): Promise<number> {
  return consents.revoke(contact, null);
}

// Online enrolment (matrícula): the public flow /matricula, "Minha matrícula", the staff
// screens /admin/matriculas with the contract's versions, and the job that expires unpaid
// enrolments and closes cancellations at the end of the paid period.
import fp from 'fastify-plugin';
import { transactional } from '../../db/transactional';
import { createPaymentProvider } from '../../platform/payments/index';
import { createAuditRepository } from '../audit/audit.repository';
import { createEnrolmentRepository } from './enrolment.repository';
import { enrolmentRoutes } from './enrolment.routes';
import { createEnrolmentService } from './enrolment.service';
import { startEnrolmentJobs } from './enrolment.jobs';
import { createEnrolmentStaffService } from './staff.service';
import { enrolmentStaffRoutes } from './staff.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** the enrolment job, run at once (CLI, tests with a fake clock) */
    enrolmentJobs: { run(now?: Date): Promise<{ expired: number; cancelled: number }> };
    /** units whose page sends "Matricule-se" to the online flow (the others keep WhatsApp) */
    enrolmentUnits(): Promise<Set<number>>;
  }
}

export default fp(
  async (app) => {
    const provider = createPaymentProvider(app.config.payments);
    const repo = transactional(app.db, (db) =>
      Object.assign(createEnrolmentRepository(db), { audit: createAuditRepository(db) }),
    );
    const service = createEnrolmentService({ config: app.config, provider, log: app.log }, repo);
    const now = () => new Date();
    enrolmentRoutes(app, {
      service,
      now,
      confirmsAutomatically: provider?.confirmsAutomatically ?? false,
      brandWhatsapp: app.config.brandWhatsapp,
      catalog: () => app.catalog.snapshot(),
    });
    const staff = createEnrolmentStaffService(service, repo, createEnrolmentRepository(app.readDb));
    const units = async () => (await app.catalog.snapshot()).units.map((u) => ({ id: u.id, nome: u.nome }));
    await app.register(async (scope) => enrolmentStaffRoutes(scope, { staff, now, units }));
    // Counted in the database at each scrape, so every instance reports the chain's figure.
    app.metrics.addCountGauge({
      name: 'academia_matriculas',
      help: 'Matrículas online por situação (contadas no banco a cada coleta: o mesmo valor em todas as instâncias).',
      label: 'status',
      read: () => staff.countByStatus(),
    });

    app.decorate('enrolmentJobs', { run: (at?: Date) => service.runJobs(at) });
    // The unit page asks on every render: the answer is kept for the catalog's 5 s.
    let cached: { at: number; ids: Promise<Set<number>> } | null = null;
    app.decorate('enrolmentUnits', () => {
      if (!provider) return Promise.resolve(new Set<number>());
      if (!cached || Date.now() - cached.at > 5_000) {
        const ids = service.unitIdsSelling();
        ids.catch(() => {
          cached = null;
        });
        cached = { at: Date.now(), ids };
      }
      return cached.ids;
    });
    if (app.config.scheduledJobs) {
      let jobs: { stop(): Promise<void> } | null = null;
      app.addHook('onReady', async () => {
        jobs = startEnrolmentJobs(service, app.log);
      });
      app.addHook('onClose', async () => {
        await jobs?.stop();
      });
    }
  },
  {
    name: 'feature-enrolment',
    fastify: '5.x',
    dependencies: ['db', 'errors', 'forms', 'identity', 'feature-catalog', 'metrics'],
  },
);

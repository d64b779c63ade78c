// Online enrolment (matrícula): the public flow /matricula, "Minha matrícula", the staff
// screens /admin/matriculas with the contract's versions, and the job that expires unpaid
// enrolments and closes cancellations at the end of the paid period. With a provider that
// confirms by itself (Asaas): its webhook, the event worker, the reconciliation job and
// the admins' page /admin/pagamentos.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { type Transactional, transactional } from '../../db/transactional';
import { countJob } from '../../platform/metrics/metrics';
import { createPaymentProvider, type PaymentProvider } from '../../platform/payments/index';
import { createPaymentEventsRepository } from '../../platform/payments/events.repository';
import {
  ASAAS_WEBHOOK_PATH,
  paymentWebhookRoute,
  processDueEvents,
  startEventWorker,
  type EventWorkerContext,
} from '../../platform/payments/events';
import { createAuditRepository } from '../audit/audit.repository';
import { createEnrolmentRepository } from './enrolment.repository';
import { enrolmentRoutes } from './enrolment.routes';
import { createEnrolmentService, type EnrolmentService } from './enrolment.service';
import { startEnrolmentJobs, startRepeating } from './enrolment.jobs';
import { createProviderPaymentsRepository } from './provider.repository';
import { providerStaffRoutes } from './provider.routes';
import { createProviderPaymentsService, type ProviderRepos } from './provider.service';
import { createEnrolmentStaffService } from './staff.service';
import { enrolmentStaffRoutes } from './staff.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** the enrolment job, run at once (CLI, tests with a fake clock) */
    enrolmentJobs: { run(now?: Date): Promise<{ expired: number; cancelled: number }> };
    /** units whose page sends "Matricule-se" to the online flow (the others keep WhatsApp) */
    enrolmentUnits(): Promise<Set<number>>;
    /** with a provider that confirms by itself: its stored events and the reconciliation, run at once */
    paymentJobs: {
      processEvents(now?: Date): Promise<{ claimed: number; processed: number; retried: number; failed: number }>;
      reconcile(now?: Date): Promise<unknown>;
      compareDay(day: string, now?: Date): Promise<number>;
      sweepSubscriptions(now?: Date): Promise<number>;
      billAnnualFees(now?: Date): Promise<number>;
    } | null;
  }
}

const RECONCILE_EVERY_MS = 60_000;

/** The provider's webhook, event worker, reconciliation and admin page (Asaas). */
async function wireProvider(
  app: FastifyInstance,
  provider: PaymentProvider,
  repo: Transactional<ProviderRepos>,
  service: EnrolmentService,
) {
  const asaas = app.config.payments.asaas;
  if (!provider.asaas || !asaas) {
    app.decorate('paymentJobs', null);
    return;
  }
  const events = createPaymentEventsRepository(app.db);
  const payments = createProviderPaymentsService(
    {
      provider,
      enrolments: service,
      config: app.config,
      log: app.log,
      events,
      webhookUrl: `${app.config.publicUrl}${ASAAS_WEBHOOK_PATH}`,
    },
    repo,
  );
  service.setProviderHooks({
    seen: (enrolmentId, paymentId, ids, paid) => payments.seen(enrolmentId, paymentId, ids, paid),
    withdrawn: (id) => payments.refundWithdrawal(id),
    cancelled: (id) => payments.afterCancel(id),
    chooseCard: (id, paymentId) => payments.chooseCard(id, paymentId),
  });
  const worker: EventWorkerContext = { repo: events, handle: (e) => payments.handleEvent(e), log: app.log };
  let running: ReturnType<typeof startEventWorker> | null = null;
  await paymentWebhookRoute(app, { token: asaas.webhookToken, events, stored: () => running?.kick() });
  await app.register(async (scope) => providerStaffRoutes(scope, { payments }));
  app.metrics.addOutboxSource('pagamento_evento', async () => {
    const s = await events.pendingStats();
    return { depth: s.depth, oldestPendingAt: s.oldest };
  });
  app.decorate('paymentJobs', {
    processEvents: (now?: Date) => processDueEvents(worker, { now }),
    reconcile: (now?: Date) => payments.reconcile(now),
    compareDay: (day: string, now?: Date) => payments.compareDay(day, now),
    sweepSubscriptions: (now?: Date) => payments.sweepSubscriptions(now),
    billAnnualFees: (now?: Date) => payments.billAnnualFees(now),
  });
  if (!app.config.scheduledJobs) return;
  let reconcile: { stop(): Promise<void> } | null = null;
  app.addHook('onReady', async () => {
    running = startEventWorker(worker);
    reconcile = startRepeating(
      () => countJob('payments_reconcile', () => payments.reconcile()),
      RECONCILE_EVERY_MS,
      app.log,
      'payment reconciliation failed; retried in a minute',
    );
  });
  app.addHook('onClose', async () => {
    await running?.stop();
    await reconcile?.stop();
  });
}

export default fp(
  async (app) => {
    const provider = createPaymentProvider(app.config.payments, app.log);
    const repo = transactional(app.db, (db) =>
      Object.assign(createEnrolmentRepository(db), {
        audit: createAuditRepository(db),
        pay: createProviderPaymentsRepository(db),
      }),
    );
    const service = createEnrolmentService({ config: app.config, provider, log: app.log }, repo);
    if (provider) await wireProvider(app, provider, repo, service);
    else app.decorate('paymentJobs', null);
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

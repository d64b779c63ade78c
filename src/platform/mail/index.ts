// Outgoing e-mail: the outbox table (enqueueMail, inside the caller's transaction), the
// SMTP transport and the delivery worker that retries with backoff.
import fp from 'fastify-plugin';
import { createOutboxRepository } from './outbox.repository';
import { startMailWorker } from './worker';

export { createOutboxRepository } from './outbox.repository';

/**
 * Mail: the outbox worker runs inside the app process when MAIL_WORKER is on (default)
 * and SMTP is configured. Several instances may run it: claims never overlap.
 */
export default fp(
  async (app) => {
    const outbox = createOutboxRepository(app.db);
    app.metrics.addOutboxSource('email', () => outbox.pendingStats());
    if (!app.config.mailWorker || !app.config.smtp) return;
    let worker: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      worker = startMailWorker({ db: app.db, config: app.config, storage: app.storage, log: app.log });
    });
    app.addHook('onClose', async () => {
      await worker?.stop();
    });
  },
  { name: 'feature-mail', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity', 'storage', 'metrics'] },
);

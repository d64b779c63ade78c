// Outgoing webhooks (Standard Webhooks): emitWebhook() inside the caller's transaction, the
// admins' screens on /admin/webhooks, and the delivery worker (WEBHOOKS_WORKER), safe on
// several instances (SKIP LOCKED claims with a lease).
import fp from 'fastify-plugin';
import { staffScope } from '../../staff/scope';
import { webhookRoutes } from './webhooks.routes';
import { webhooksServices } from './services';
import { startWebhookWorker } from './worker';

export default fp(
  async (app) => {
    const { repo, service } = webhooksServices(app.db, app.config.webhooks);
    app.decorate('webhooks', repo);
    app.metrics.addOutboxSource('webhook', async () => {
      const now = new Date();
      const stats = await repo.pendingStats(now);
      const oldest = stats.count ? new Date(now.getTime() - stats.oldestDueAgeSeconds * 1000) : null;
      return { depth: stats.count, oldestPendingAt: oldest };
    });
    // The secret is shown on these pages: never stored.
    await staffScope(app, { role: 'admin', noStore: true }, (scope) => webhookRoutes(scope, service));
    if (!app.config.webhooks.worker) return;
    let worker: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      worker = startWebhookWorker({
        repo,
        config: app.config.webhooks,
        publicUrl: app.config.publicUrl,
        brandName: app.config.brandName,
        log: app.log,
      });
    });
    app.addHook('onClose', async () => {
      await worker?.stop();
    });
  },
  { name: 'platform-webhooks', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity', 'metrics'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** the webhook tables: pendingStats() and countsByResult() for the metrics, eraseByOrigin() for erasure */
    webhooks: import('./webhooks.repository').WebhooksRepository;
  }
}

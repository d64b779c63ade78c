// GET /privacidade: the privacy notice, generated (policy.service.ts). The rendered page is
// kept while the catalog's unit list and the webhook list it was made from are the same.
import type { FastifyInstance } from 'fastify';
import { h } from 'preact';
import { PRIVACY_PATH, PrivacyPage } from './policy.view';
import { renderPage } from '../../views/render';
import type { PolicyService } from './policy.service';

export function policyRoutes(app: FastifyInstance, policy: PolicyService) {
  let kept: { units: unknown; webhooks: string; body: Buffer } | null = null;
  app.get(PRIVACY_PATH, async (_request, reply) => {
    const { key, page } = await policy.props();
    if (!kept || kept.units !== key.units || kept.webhooks !== key.webhooks) {
      kept = { ...key, body: Buffer.from(renderPage(h(PrivacyPage, page))) };
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'public, max-age=300').send(kept.body);
  });
}

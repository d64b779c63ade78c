// Builds the webhook repository and service once, for the plugin (index.ts) and the CLI.
import type { Kysely } from 'kysely';
import type { WebhooksConfig } from '../../config';
import { transactional } from '../../db/transactional';
import type { Database } from '../../db/types';
import { createWebhooksRepository } from './webhooks.repository';
import { createWebhooksService } from './webhooks.service';

export function webhooksServices(handle: Kysely<Database>, config: WebhooksConfig) {
  const repo = transactional(handle, createWebhooksRepository);
  return { repo, service: createWebhooksService(repo, config) };
}

// Shared by the webhooks:* commands: the webhook service on a migrated database.
import { loadConfig } from '../config';
import { webhooksServices } from '../platform/webhooks/services';
import { withDb } from './common';

export function withWebhooks(fn: (services: ReturnType<typeof webhooksServices>) => Promise<void>): Promise<void> {
  return withDb((db) => fn(webhooksServices(db, loadConfig().webhooks)));
}

// Shared by the webhooks:* commands: the webhook service on a migrated database.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { webhooksServices } from '../platform/webhooks/services';

export async function withWebhooks(
  fn: (services: ReturnType<typeof webhooksServices>) => Promise<void>,
): Promise<void> {
  loadDotEnv();
  try {
    const config = loadConfig();
    const handle = createDb(config.database);
    try {
      await migrateToLatest(handle.db);
      await fn(webhooksServices(handle.db, config.webhooks));
    } finally {
      await handle.destroy();
    }
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exitCode = 1;
  }
}

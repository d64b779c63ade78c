// Shared by the webhooks:* commands: flags, and the webhook service on a migrated database.
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { webhooksServices } from '../platform/webhooks/services';
import { flagErrorMessage } from './args';

export function readFlags(usage: string, options: Record<string, { type: 'string' }>): Record<string, string> {
  try {
    return parseArgs({ options }).values as Record<string, string>;
  } catch (err) {
    console.error(`${flagErrorMessage(err)}\n${usage}`);
    process.exit(1);
  }
}

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

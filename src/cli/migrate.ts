// npm run migrate: applies pending migrations and prints what ran.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';

loadDotEnv();
try {
  const config = loadConfig();
  const handle = createDb(config.database);
  try {
    const { results } = await migrateToLatest(handle.db);
    if (!results?.length) console.log('Nenhuma migração pendente.');
    for (const r of results ?? []) console.log(`${r.status === 'Success' ? 'aplicada' : r.status}: ${r.migrationName}`);
  } finally {
    await handle.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

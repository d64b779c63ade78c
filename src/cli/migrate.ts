// npm run migrate: applies pending migrations and prints what ran. Safe to run while
// instances start: it takes the same database lock they do.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { prepareDatabase } from '../db/startup';

loadDotEnv();
try {
  const config = loadConfig();
  const { migrations } = await prepareDatabase(config.database, { seed: false });
  const results = migrations.results ?? [];
  if (!results.length) console.log('Nenhuma migração pendente.');
  for (const r of results) console.log(`${r.status === 'Success' ? 'aplicada' : r.status}: ${r.migrationName}`);
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

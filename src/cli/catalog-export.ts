// npm run -s catalog:export > catalog.json   (or: -- --saida catalog.json)
// Prints the whole catalog (units with hours and timetable, plans, areas, modalities,
// survey) as JSON. Units are referenced by slug, never by database id.
import { writeFileSync } from 'node:fs';
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { exportCatalog } from '../features/content/transfer/transfer.service';

loadDotEnv();
try {
  const config = loadConfig();
  const handle = createDb(config.database);
  try {
    await migrateToLatest(handle.db);
    const json = `${JSON.stringify(await exportCatalog(handle.db), null, 2)}\n`;
    const i = process.argv.findIndex((a) => a === '--saida' || a === '--out');
    const out = i >= 0 ? process.argv[i + 1] : undefined;
    if (out) {
      writeFileSync(out, json);
      console.error(`Catálogo exportado para ${out}.`);
    } else process.stdout.write(json);
  } finally {
    await handle.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

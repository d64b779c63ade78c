// npm run seed: loads the demo content (after migrating). Refuses a non-empty catalog
// unless --force is given, so it never duplicates units by accident. Runs under the
// start-up database lock, so it never races a starting instance.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb } from '../db/index';
import { prepareDatabase } from '../db/startup';
import { createFileStorage } from '../platform/storage/index';
import { seedDemoPhotos } from '../features/unit-photos/demo';

loadDotEnv();
try {
  const config = loadConfig();
  const force = process.argv.includes('--force');
  const { seeded } = await prepareDatabase(config.database, { seed: force ? 'force' : 'if-empty' });
  if (seeded) {
    // drawn with sharp and stored like staff uploads; units that already have photos keep theirs
    const handle = createDb(config.database);
    try {
      await seedDemoPhotos(handle.db, createFileStorage(config, handle.db));
    } finally {
      await handle.destroy();
    }
  }
  console.log(
    seeded
      ? 'Conteúdo de demonstração carregado.'
      : 'O catálogo já tem unidades; nada foi feito. Use --force para carregar a demonstração mesmo assim.',
  );
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

// npm run seed: loads the demo content (after migrating). Refuses a non-empty catalog
// unless --force is given, so it never duplicates units by accident.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { isCatalogEmpty, seedDemo } from '../db/seeds/demo';
import { seedDemoPhotos } from '../features/unit-photos/demo';
import { createLocalStorage } from '../features/storage/index';

loadDotEnv();
try {
  const config = loadConfig();
  const handle = createDb(config.database);
  try {
    await migrateToLatest(handle.db);
    if (!(await isCatalogEmpty(handle.db)) && !process.argv.includes('--force')) {
      console.log('O catálogo já tem unidades; nada foi feito. Use --force para carregar a demonstração mesmo assim.');
    } else {
      await seedDemo(handle.db);
      await seedDemoPhotos(handle.db, createLocalStorage(config.uploadsDir));
      console.log('Conteúdo de demonstração carregado.');
    }
  } finally {
    await handle.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

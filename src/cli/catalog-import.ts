// npm run catalog:import catalog.json
// Validates the whole file first and lists EVERY problem with its location; applies it in
// one transaction (upsert by slug/name) only when there is none. Exit code 1 on problems.
import { readFileSync, statSync } from 'node:fs';
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest } from '../db/index';
import { createContentServices } from '../features/content/services';
import { catalogSizeProblem, parseCatalogText } from '../features/content/transfer/transfer.service';

loadDotEnv();
const file = process.argv.slice(2).find((a) => !a.startsWith('-'));
if (!file) {
  console.error('Uso: npm run catalog:import <arquivo.json>');
  process.exit(2);
}
try {
  let text: string;
  try {
    // A file over the limit is refused before it is read (docs/decisions/178).
    const tooLarge = catalogSizeProblem(statSync(file).size);
    if (tooLarge) {
      console.error(`${file}: 1 problema; nada foi alterado.\n  ${tooLarge}`);
      process.exit(1);
    }
    text = readFileSync(file, 'utf8');
  } catch (err) {
    console.error(`Não foi possível ler ${file}: ${(err as Error).message}`);
    process.exit(2);
  }
  const config = loadConfig();
  const handle = createDb(config.database);
  try {
    await migrateToLatest(handle.db);
    const parsed = parseCatalogText(text);
    const result = parsed.ok
      ? await createContentServices({ db: handle.db }).transfer.importCatalog(parsed.data)
      : parsed;
    if (!result.ok) {
      console.error(
        `${file}: ${result.problemas.length === 1 ? '1 problema' : `${result.problemas.length} problemas`}; nada foi ` +
          `alterado.`,
      );
      for (const p of result.problemas) console.error(`  ${p}`);
      process.exitCode = 1;
    } else {
      console.log(`Catálogo importado de ${file}:`);
      for (const [entity, c] of Object.entries(result.resumo))
        console.log(`  ${entity}: ${c.criados} criados, ${c.atualizados} atualizados, ${c.inalterados} inalterados`);
      console.log('Instâncias em execução mostram as mudanças em até 5 segundos.');
    }
  } finally {
    await handle.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}

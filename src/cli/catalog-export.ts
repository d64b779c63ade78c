// npm run -s catalog:export > catalog.json   (or: -- --saida catalog.json)
// Prints the whole catalog (units with hours and timetable, plans, areas, modalities,
// survey) as JSON. Units are referenced by slug, never by database id.
import { writeFileSync } from 'node:fs';
import { createContentServices } from '../features/content/services';
import { withDb } from './common';

await withDb(async (db) => {
  const json = `${JSON.stringify(await createContentServices({ db }).transfer.exportCatalog(), null, 2)}\n`;
  const i = process.argv.findIndex((a) => a === '--saida' || a === '--out');
  const out = i >= 0 ? process.argv[i + 1] : undefined;
  if (out) {
    writeFileSync(out, json);
    console.error(`Catálogo exportado para ${out}.`);
  } else process.stdout.write(json);
});

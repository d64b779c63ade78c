// npm run restore -- --from FILE --to DIR
// Restores a backup into an empty (or new) folder after checking it against its manifest;
// never over the live database or uploads. Prints what to set to start the site on the copy.
import { type Config, ConfigError, loadConfig, loadDotEnv } from '../config';
import { BackupError, restoreBackup } from '../platform/backup/index';
import { readFlags } from './args';

const USAGE = 'Uso: npm run restore -- --from ARQUIVO.tar.gz --to PASTA_NOVA';

loadDotEnv();
const values = readFlags(USAGE, { from: { type: 'string' }, to: { type: 'string' } });
if (!values.from || !values.to) {
  console.error(USAGE);
  process.exit(1);
}
try {
  // The live site's settings, when readable, name what must never be overwritten.
  let live: Pick<Config, 'database' | 'uploadsDir'> | undefined;
  try {
    live = loadConfig();
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
  }
  const result = await restoreBackup(values.from, values.to, live);
  const m = result.manifest;
  console.log(
    `Backup de ${m.createdAt} restaurado em ${result.dir} e conferido: ` +
      `${m.files.length} arquivo(s) com SHA-256 corretos` +
      (m.database ? `, ${Object.keys(m.tables).length} tabelas com as contagens do manifesto.` : '.'),
  );
  console.log('\nPara iniciar o site sobre a cópia:');
  if (result.databaseUrl) console.log(`  DATABASE_URL=${result.databaseUrl}`);
  else console.log('  DATABASE_URL=postgres://… (o banco restaurado com pg_restore; veja docs/operations.md, Backups)');
  console.log(`  UPLOADS_DIR=${result.uploadsDir}`);
  console.log(`  STORAGE_DRIVER=${m.storageDriver}`);
} catch (err) {
  console.error(err instanceof BackupError ? `Restauração recusada: ${err.message}` : err);
  process.exit(1);
}

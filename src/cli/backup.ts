// npm run backup -- --to FILE
// One file (tar.gz) with the SQLite database (online copy, consistent while the site keeps
// writing), the uploaded files and a manifest of counts and SHA-256 hashes. On PostgreSQL:
// the uploaded files and the manifest; the database itself goes through pg_dump
// (docs/operations.md, Backups).
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb } from '../db/index';
import { BackupError, createBackup } from '../platform/backup/index';
import { readFlags } from './args';

const USAGE = 'Uso: npm run backup -- --to ARQUIVO.tar.gz';

loadDotEnv();
const { to } = readFlags(USAGE, { to: { type: 'string' } });
if (!to) {
  console.error(USAGE);
  process.exit(1);
}
try {
  const config = loadConfig();
  const handle = config.database.engine === 'postgres' ? createDb(config.database, { max: 2 }) : null;
  try {
    const started = Date.now();
    const { file, manifest } = await createBackup({ config, db: handle?.db }, to);
    const rows = Object.values(manifest.tables).reduce((a, b) => a + b, 0);
    console.log(
      `Backup gravado em ${file} (${((Date.now() - started) / 1000).toFixed(1)} s): ` +
        `${Object.keys(manifest.tables).length} tabelas, ${rows} linhas, ${manifest.files.length} arquivo(s) enviados.`,
    );
    if (manifest.engine === 'postgres')
      console.log(
        'PostgreSQL: este arquivo leva os arquivos enviados e o manifesto; o banco vai pelo pg_dump ' +
          '(docs/operations.md, Backups).',
      );
  } finally {
    await handle?.destroy();
  }
} catch (err) {
  console.error(err instanceof ConfigError || err instanceof BackupError ? err.message : err);
  process.exit(1);
}

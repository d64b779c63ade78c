// One backup file (tar.gz) with what an instance needs to come back (docs/decisions/226):
// the SQLite database copied through SQLite's online backup API (consistent while writes go
// on), the uploaded files under UPLOADS_DIR, and manifest.json with the row count of every
// table and the SHA-256 of every file. On PostgreSQL the database is pg_dump's: the archive
// carries the files and the manifest. Restore checks everything before it puts anything in
// place, and only into an empty place.
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, lstat, mkdir, mkdtemp, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type SQLiteDatabase from 'better-sqlite3';
import type { Config, DatabaseConfig } from '../../config';
import { createDb, type Db } from '../../db/index';
import { createBackupRepository } from './backup.repository';

export const MANIFEST = 'manifest.json';
export const DATABASE_FILE = 'database.sqlite';
export const UPLOADS = 'uploads';
const FORMAT = 'gym-chain-backup';

export interface BackupManifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  engine: 'sqlite' | 'postgres';
  storageDriver: 'local' | 'database';
  /** the SQLite copy; null on PostgreSQL (pg_dump holds the database) */
  database: { file: typeof DATABASE_FILE; size: number; sha256: string } | null;
  /** rows per table: of the copy (SQLite), or of the live database when the backup ran (PostgreSQL) */
  tables: Record<string, number>;
  /** every uploaded file, by its path inside the archive (uploads/…) */
  files: { path: string; size: number; sha256: string }[];
}

/** A refusal or a failed check, told to the operator in pt-BR. */
export class BackupError extends Error {
  override name = 'BackupError';
}

const require = createRequire(import.meta.url);

async function sha256Of(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function exists(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

/** Regular files under `dir`, relative and with "/" separators; symbolic links are not followed. */
async function walk(dir: string, skip: (rel: string, isDir: boolean) => boolean = () => false): Promise<string[]> {
  const out: string[] = [];
  const visit = async (rel: string) => {
    for (const entry of await readdir(path.join(dir, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${entry.name}` : entry.name;
      if (skip(child, entry.isDirectory())) continue;
      if (entry.isDirectory()) await visit(child);
      else if (entry.isFile()) out.push(child);
    }
  };
  await visit('');
  return out.sort();
}

/** Files being received (.spool) and temporary files (*.tmp) are not part of a backup. */
const transient = (rel: string, isDir: boolean) => (isDir && rel === '.spool') || (!isDir && rel.endsWith('.tmp'));

export interface BackupSource {
  config: Pick<Config, 'database' | 'uploadsDir' | 'storage'>;
  /** the open database (PostgreSQL: the counts are read through it) */
  db?: Db;
}

/**
 * Writes the backup to `target` (refused when it exists). The database is copied first and the
 * files after: every file a copied row points to was stored before its row, so it is there.
 */
export async function createBackup(
  source: BackupSource,
  target: string,
  now = new Date(),
): Promise<{ file: string; manifest: BackupManifest }> {
  const file = path.resolve(target);
  if (await exists(file)) throw new BackupError(`${file} já existe: escolha outro nome (nada foi sobrescrito).`);
  await mkdir(path.dirname(file), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(file), '.backup-'));
  const partial = `${file}.${randomBytes(6).toString('hex')}.partial`;
  try {
    const { config } = source;
    let database: BackupManifest['database'] = null;
    let tables: Record<string, number>;
    if (config.database.engine === 'sqlite') {
      const copy = path.join(staging, DATABASE_FILE);
      await copySqlite(config.database.filename, copy);
      tables = await withSqlite(copy, (repo) => repo.tableCounts());
      database = { file: DATABASE_FILE, size: (await lstat(copy)).size, sha256: await sha256Of(copy) };
    } else {
      if (!source.db) throw new Error('createBackup: PostgreSQL needs the open database');
      tables = await createBackupRepository(source.db).tableCounts();
    }

    const files: BackupManifest['files'] = [];
    if (await exists(config.uploadsDir)) {
      for (const rel of await walk(config.uploadsDir, transient)) {
        const to = path.join(staging, UPLOADS, rel);
        await mkdir(path.dirname(to), { recursive: true });
        try {
          await copyFile(path.join(config.uploadsDir, rel), to);
        } catch (err) {
          // Removed between listing and copying (the sweep, a deleted message): not in the copy either.
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw err;
        }
        files.push({ path: `${UPLOADS}/${rel}`, size: (await lstat(to)).size, sha256: await sha256Of(to) });
      }
    }
    await mkdir(path.join(staging, UPLOADS), { recursive: true });

    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      createdAt: now.toISOString(),
      engine: config.database.engine,
      storageDriver: config.storage.driver,
      database,
      tables,
      files,
    };
    await writeFile(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
    // Loaded here: a server without scheduled backups never holds the tar code.
    const { create: tarCreate } = await import('tar');
    await tarCreate({ gzip: true, file: partial, cwd: staging, portable: true }, [
      MANIFEST,
      ...(database ? [DATABASE_FILE] : []),
      UPLOADS,
    ]);
    // Complete or absent: a crash never leaves a file with the final name half written.
    await rename(partial, file);
    return { file, manifest };
  } finally {
    await rm(staging, { recursive: true, force: true });
    await rm(partial, { force: true });
  }
}

/**
 * SQLite's online backup from a connection of its own. All pages are copied in one step: a
 * write by another connection between two steps would restart the copy, and under steady
 * writes a copy in small steps might never end. In WAL mode the step only reads, so the
 * site's writers go on meanwhile.
 */
async function copySqlite(live: string, copy: string): Promise<void> {
  const SQLite = require('better-sqlite3') as typeof SQLiteDatabase;
  let source: SQLiteDatabase.Database;
  try {
    source = new SQLite(live, { fileMustExist: true });
  } catch (err) {
    throw new BackupError(`Não foi possível abrir o banco ${live}: ${(err as Error).message}`);
  }
  try {
    source.pragma('busy_timeout = 5000');
    await source.backup(copy, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
}

async function withSqlite<T>(
  filename: string,
  fn: (repo: ReturnType<typeof createBackupRepository>) => Promise<T>,
): Promise<T> {
  const handle = createDb({ engine: 'sqlite', filename });
  try {
    return await fn(createBackupRepository(handle.db));
  } finally {
    await handle.destroy();
  }
}

const inside = (parent: string, child: string) => {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
};

export interface RestoreResult {
  dir: string;
  manifest: BackupManifest;
  /** DATABASE_URL for the copy (SQLite); null on PostgreSQL (pg_restore brings the database) */
  databaseUrl: string | null;
  uploadsDir: string;
}

/**
 * Restores `archive` into `target`, which must not exist or be empty. Everything is
 * extracted beside it and checked (every hash and size, nothing more and nothing less than
 * the manifest lists, SQLite's own check and the row counts) before it takes the target's
 * name; a refusal leaves nothing behind. `live` is the configuration of the running site:
 * its database and uploads are never a restore's target.
 */
export async function restoreBackup(
  archive: string,
  target: string,
  live?: { database: DatabaseConfig; uploadsDir: string },
): Promise<RestoreResult> {
  const from = path.resolve(archive);
  const dir = path.resolve(target);
  if (!(await exists(from))) throw new BackupError(`Arquivo de backup não encontrado: ${from}`);
  if (await exists(dir)) {
    if (!(await lstat(dir)).isDirectory()) throw new BackupError(`${dir} existe e não é uma pasta.`);
    if ((await readdir(dir)).length)
      throw new BackupError(`${dir} não está vazia: restaure numa pasta nova ou vazia (nada foi alterado).`);
  }
  if (live?.database.engine === 'sqlite' && inside(dir, live.database.filename))
    throw new BackupError(`${dir} contém o banco em uso (${live.database.filename}): escolha outra pasta.`);
  if (live && (inside(dir, live.uploadsDir) || inside(live.uploadsDir, dir)))
    throw new BackupError(`${dir} é a pasta de arquivos em uso (UPLOADS_DIR): escolha outra pasta.`);

  await mkdir(path.dirname(dir), { recursive: true });
  const staging = await mkdtemp(path.join(path.dirname(dir), '.restore-'));
  try {
    const refused: string[] = [];
    const { extract: tarExtract } = await import('tar');
    try {
      await tarExtract({
        file: from,
        cwd: staging,
        strict: true,
        filter: (p, entry) => {
          const name = p.replace(/^\.\//, '').replace(/\/$/, '');
          const type = 'type' in entry ? entry.type : 'File';
          const ok =
            !name.split('/').includes('..') &&
            (((name === MANIFEST || name === DATABASE_FILE) && type === 'File') ||
              (name === UPLOADS && type === 'Directory') ||
              (name.startsWith(`${UPLOADS}/`) && (type === 'File' || type === 'Directory')));
          if (!ok) refused.push(name);
          return ok;
        },
      });
    } catch (err) {
      throw new BackupError(`O arquivo ${from} não é um backup legível (tar.gz): ${(err as Error).message}`);
    }
    if (refused.length)
      throw new BackupError(`O backup contém entradas inesperadas: ${refused.slice(0, 5).join(', ')}`);

    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(await readFile(path.join(staging, MANIFEST), 'utf8')) as BackupManifest;
    } catch {
      throw new BackupError('O backup não tem um manifest.json legível.');
    }
    if (manifest.format !== FORMAT || manifest.version !== 1 || !Array.isArray(manifest.files))
      throw new BackupError('manifest.json não é de um backup deste sistema (formato ou versão desconhecidos).');

    // Every file listed is there with its size and hash, and nothing else is.
    const expected = new Map(manifest.files.map((f) => [f.path, f]));
    if (manifest.database) expected.set(DATABASE_FILE, { path: DATABASE_FILE, ...manifest.database });
    const problems: string[] = [];
    const present = (await walk(staging)).filter((f) => f !== MANIFEST);
    for (const rel of present) {
      const want = expected.get(rel);
      if (!want) {
        problems.push(`${rel}: não consta do manifesto`);
        continue;
      }
      expected.delete(rel);
      const full = path.join(staging, rel);
      if ((await lstat(full)).size !== want.size || (await sha256Of(full)) !== want.sha256)
        problems.push(`${rel}: SHA-256 ou tamanho diferente do manifesto`);
    }
    for (const rel of expected.keys()) problems.push(`${rel}: consta do manifesto e falta no backup`);
    if (problems.length)
      throw new BackupError(
        `O backup não confere com o manifesto (${problems.length} problema(s)):\n  ` +
          problems.slice(0, 10).join('\n  '),
      );

    if (manifest.database) {
      const { check, counts } = await withSqlite(path.join(staging, DATABASE_FILE), async (repo) => ({
        check: await repo.quickCheck(),
        counts: await repo.tableCounts(),
      }));
      if (check !== 'ok') throw new BackupError(`O banco do backup está corrompido (quick_check: ${check}).`);
      const differ = [...new Set([...Object.keys(counts), ...Object.keys(manifest.tables)])].filter(
        (t) => counts[t] !== manifest.tables[t],
      );
      if (differ.length)
        throw new BackupError(
          `Contagens de linhas diferentes do manifesto: ${differ
            .slice(0, 10)
            .map((t) => `${t} (${counts[t] ?? 'ausente'} ≠ ${manifest.tables[t] ?? 'ausente'})`)
            .join(', ')}`,
        );
    }
    await mkdir(path.join(staging, UPLOADS), { recursive: true });
    if (await exists(dir)) await rmdir(dir);
    await rename(staging, dir);
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    throw err;
  }
  return {
    dir,
    manifest: JSON.parse(await readFile(path.join(dir, MANIFEST), 'utf8')) as BackupManifest,
    databaseUrl: (await exists(path.join(dir, DATABASE_FILE))) ? `sqlite:${path.join(dir, DATABASE_FILE)}` : null,
    uploadsDir: path.join(dir, UPLOADS),
  };
}

/** Names of scheduled backups: sortable by time, and the only files retention ever deletes. */
export const SCHEDULED_NAME = /^backup-\d{8}T\d{6}Z\.tar\.gz$/;

export function scheduledBackupName(at: Date): string {
  return `backup-${at
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '')}.tar.gz`;
}

/** Keeps the newest `keep` scheduled backups in `dir`; returns the names deleted. */
export async function pruneBackups(dir: string, keep: number): Promise<string[]> {
  const names = (await readdir(dir)).filter((n) => SCHEDULED_NAME.test(n)).sort();
  const old = names.slice(0, Math.max(0, names.length - keep));
  for (const name of old) await rm(path.join(dir, name), { force: true });
  return old;
}

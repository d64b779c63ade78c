// Local-disk driver: files under UPLOADS_DIR. A temporary file is "<key>.tmp" next to its
// final name; commit renames it (same folder, so the rename is atomic). Only one machine,
// or a shared network volume, can use it with several instances.
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { isManagedKey } from './references';
import { checkKey, UnsafePathError, type FileStorage, type SweepCandidate } from './storage';

const TMP = '.tmp';

export interface LocalStorage extends FileStorage {
  readonly root: string;
  /** Absolute path of a key; throws UnsafePathError for anything outside the root. */
  resolve(key: string): string;
}

async function unlinkQuiet(file: string): Promise<void> {
  try {
    await unlink(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
}

async function mtimeOf(file: string): Promise<number | null> {
  try {
    return (await stat(file)).mtimeMs;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

export function createLocalStorage(rootDir: string): LocalStorage {
  const root = path.resolve(rootDir);

  function resolve(key: string): string {
    const full = path.resolve(root, checkKey(key));
    // Belt and braces: the pattern already forbids "..", but the resolved path decides.
    if (!full.startsWith(root + path.sep)) throw new UnsafePathError(key);
    return full;
  }

  /** A path found by the sweep, relative to the root, back to an absolute one inside it. */
  function inside(relative: string): string {
    const full = path.resolve(root, relative);
    if (!full.startsWith(root + path.sep)) throw new UnsafePathError(relative);
    return full;
  }

  return {
    driver: 'local',
    root,
    resolve,

    async put(key, data) {
      const full = resolve(key);
      await mkdir(path.dirname(full), { recursive: true });
      // "wx": never overwrite; a random name that already exists is a bug, not a case to hide.
      const handle = await open(full + TMP, 'wx', 0o640);
      try {
        await handle.writeFile(data);
        // On disk before the row that points at it is committed.
        await handle.datasync();
      } catch (err) {
        await handle.close().catch(() => {});
        await unlinkQuiet(full + TMP);
        throw err;
      }
      await handle.close();
    },

    async commit(_trx, keys) {
      for (const key of keys) {
        const full = resolve(key);
        // The sweep judges final files by their age: it starts now, not at the upload.
        const now = new Date();
        await utimes(full + TMP, now, now);
        await rename(full + TMP, full);
      }
    },

    async get(key) {
      const full = resolve(key);
      try {
        const info = await stat(full);
        if (!info.isFile()) return null;
        return { size: info.size, open: () => createReadStream(full) };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },

    async delete(key) {
      const full = resolve(key);
      await unlinkQuiet(full + TMP);
      await unlinkQuiet(full);
    },

    async *listForSweep(before, references) {
      const cutoff = before.getTime();
      async function* walk(dir: string): AsyncGenerator<SweepCandidate> {
        let entries;
        try {
          entries = await readdir(dir, { withFileTypes: true });
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw err;
        }
        for (const entry of entries) {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) {
            // ".spool" (files being received) is swept on its own
            if (!entry.name.startsWith('.')) yield* walk(full);
            continue;
          }
          if (!entry.isFile()) continue;
          const relative = path.relative(root, full).split(path.sep).join('/');
          // Any "*.tmp" is a temporary file (also the "<name>.<random>.tmp" of older versions).
          const temporary = entry.name.endsWith(TMP);
          if (!temporary && !(SAFE_FINAL.test(relative) && isManagedKey(relative, references))) continue;
          const mtime = await mtimeOf(full);
          if (mtime === null || mtime >= cutoff) continue;
          yield { key: relative, temporary };
        }
      }
      yield* walk(root);
    },

    async deleteStale(candidate, before) {
      const full = candidate.temporary ? inside(candidate.key) : resolve(candidate.key);
      if (candidate.temporary && !full.endsWith(TMP)) throw new UnsafePathError(candidate.key);
      // A temporary file and its final name are different paths, so a commit that renamed
      // the file meanwhile is never undone here; a final file only gets older.
      const mtime = await mtimeOf(full);
      if (mtime === null || mtime >= before.getTime()) return;
      await unlinkQuiet(full);
    },
  };
}

const SAFE_FINAL = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]{1,8}$/;

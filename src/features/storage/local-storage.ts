// Where uploaded files live: a directory on the local disk (UPLOADS_DIR). Every path the
// rest of the app sees is RELATIVE to that directory, so the root can move (or become an
// object store later) without touching stored rows.
import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rename, stat, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

export class UnsafePathError extends Error {
  constructor(relativePath: string) {
    super(`caminho fora do diretório de uploads: ${JSON.stringify(relativePath)}`);
    this.name = 'UnsafePathError';
  }
}

export interface FileStorage {
  readonly root: string;
  /** Absolute path of a stored file; throws UnsafePathError for anything outside the root. */
  resolve(relativePath: string): string;
  /** Writes atomically: a temporary name in the same folder, then a rename. */
  write(relativePath: string, data: Buffer): Promise<void>;
  /** Removes a file; a missing file is not an error (cleanup must be idempotent). */
  remove(relativePath: string): Promise<void>;
  open(relativePath: string): ReadStream;
  size(relativePath: string): Promise<number | null>;
}

// Relative paths we create are "segment/segment/name.ext" with plain characters only.
const SAFE_RELATIVE = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]{1,8}$/;

export function createLocalStorage(rootDir: string): FileStorage {
  const root = path.resolve(rootDir);

  function resolve(relativePath: string): string {
    if (typeof relativePath !== 'string' || !SAFE_RELATIVE.test(relativePath)) throw new UnsafePathError(relativePath);
    const full = path.resolve(root, relativePath);
    // Belt and braces: the pattern already forbids "..", but the resolved path decides.
    if (!full.startsWith(root + path.sep)) throw new UnsafePathError(relativePath);
    return full;
  }

  return {
    root,
    resolve,
    async write(relativePath, data) {
      const full = resolve(relativePath);
      await mkdir(path.dirname(full), { recursive: true });
      const temp = `${full}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        // "wx": never overwrite; a random name that already exists is a bug, not a case to hide.
        await writeFile(temp, data, { flag: 'wx', mode: 0o640 });
        await rename(temp, full);
      } catch (err) {
        await unlink(temp).catch(() => {});
        throw err;
      }
    },
    async remove(relativePath) {
      try {
        await unlink(resolve(relativePath));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      }
    },
    open(relativePath) {
      return createReadStream(resolve(relativePath));
    },
    async size(relativePath) {
      try {
        return (await stat(resolve(relativePath))).size;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
  };
}

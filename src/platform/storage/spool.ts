// Photos being received are written to disk as they arrive (UPLOADS_DIR/.spool), never
// held whole in memory: ten 20 MB uploads at once cost disk, not RAM, and the image
// pipeline decodes from the file in strips. Spool files live only for the request; one
// left by a crash is removed by the orphan sweep like any temporary file.
import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readdir, stat, unlink } from 'node:fs/promises';
import path from 'node:path';

export interface Spool {
  readonly dir: string;
  /** a new, empty spool file ("wx", 0600) */
  create(): Promise<{ path: string; stream: WriteStream }>;
  remove(file: string): Promise<void>;
  /** removes spool files not written to since `before`; returns how many */
  sweep(before: Date): Promise<number>;
}

export function createSpool(uploadsDir: string): Spool {
  const dir = path.join(path.resolve(uploadsDir), '.spool');
  const mine = (file: string) => path.dirname(path.resolve(file)) === dir && file.endsWith('.tmp');
  const unlinkQuiet = async (file: string) => {
    try {
      await unlink(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
  };
  return {
    dir,
    async create() {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const file = path.join(dir, `${randomBytes(16).toString('hex')}.tmp`);
      const stream = createWriteStream(file, { flags: 'wx', mode: 0o600 });
      await new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      return { path: file, stream };
    },
    async remove(file) {
      if (mine(file)) await unlinkQuiet(file);
    },
    async sweep(before) {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
        throw err;
      }
      let removed = 0;
      for (const name of names) {
        const file = path.join(dir, name);
        if (!mine(file)) continue;
        try {
          if ((await stat(file)).mtimeMs >= before.getTime()) continue;
        } catch {
          continue;
        }
        await unlinkQuiet(file);
        removed++;
      }
      return removed;
    },
  };
}

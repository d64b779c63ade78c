// Uploaded files (docs/decisions/070–073). A feature that receives files (the free
// message, unit photos) uses, in this order:
//   1. multipartReader(rules, () => app.uploadSpool) as a preHandler before the CSRF check,
//      and releaseUpload as the route's onSend (spool files gone before the answer leaves);
//   2. processImage(file.path, { variants, filename: file.label }) for each received file;
//   3. app.storage.put(key, bytes, type) for each variant, then, inside the transaction
//      that inserts the rows, app.storage.commit(trx, keys); app.storage.delete(key) on failure;
//   4. an entry in FILE_REFERENCES (references.ts) for its table, or the sweep leaves its
//      keys alone (never removes them, and never cleans its orphans either).
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { Config } from '../../config';
import type { Database } from '../../db/types';
import { createDatabaseStorage } from './database-storage';
import { createLocalStorage } from './local-storage';
import type { FileStorage } from './storage';
import { createSpool, type Spool } from './spool';
import { startSweeper, type Sweeper } from './sweep';

export { createLocalStorage } from './local-storage';
export { createDatabaseStorage } from './database-storage';
export { UnsafePathError, type FileStorage } from './storage';
export { sweepOrphans } from './sweep';
export { createSpool } from './spool';

/** The driver STORAGE_DRIVER chose (docs/decisions/070). */
export function createFileStorage(config: Pick<Config, 'storage' | 'uploadsDir'>, db: Kysely<Database>): FileStorage {
  if (config.storage.driver === 'database') {
    // Photos stored on disk before the switch stay readable (read-only fallback).
    return createDatabaseStorage(db, { legacy: createLocalStorage(config.uploadsDir) });
  }
  return createLocalStorage(config.uploadsDir);
}

declare module 'fastify' {
  interface FastifyInstance {
    /** where uploaded files live (local disk or the database) */
    storage: FileStorage;
    /** where files being received wait (UPLOADS_DIR/.spool, this machine only) */
    uploadSpool: Spool;
  }
}

/**
 * True when glibc's allocator runs with its default arenas: each thread that decoded an
 * image keeps that memory, and ten large uploads can pass 400 MB. MALLOC_ARENA_MAX=2 (set
 * by `npm start`) or jemalloc avoid it (docs/decisions/072).
 */
export function defaultGlibcArenas(env: NodeJS.ProcessEnv = process.env): boolean {
  if (process.platform !== 'linux' || env.MALLOC_ARENA_MAX || /jemalloc|tcmalloc/.test(env.LD_PRELOAD ?? ''))
    return false;
  const header = (process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header;
  return Boolean(header?.glibcVersionRuntime);
}

/** Storage of uploaded files and the orphan sweep (at start-up, then every interval). */
export default fp(
  async (app) => {
    const storage = createFileStorage(app.config, app.db);
    app.decorate('storage', storage);
    const spool = createSpool(app.config.uploadsDir);
    app.decorate('uploadSpool', spool);
    let sweeper: Sweeper | null = null;
    app.addHook('onReady', async () => {
      if (app.config.env !== 'test' && defaultGlibcArenas()) {
        app.log.warn(
          'MALLOC_ARENA_MAX não está definido: com glibc, fotos grandes podem fazer a memória crescer. Use ' +
            'MALLOC_ARENA_MAX=2 (o `npm start` já define).',
        );
      }
      sweeper = startSweeper(storage, app.db, {
        spool,
        intervalMs: app.config.storage.sweepIntervalMs,
        ageMs: app.config.storage.sweepAgeMs,
        log: app.log,
      });
    });
    app.addHook('onClose', async () => {
      await sweeper?.stop();
    });
  },
  { name: 'storage', fastify: '5.x', dependencies: ['db'] },
);

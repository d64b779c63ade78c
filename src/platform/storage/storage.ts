// The one interface every stored upload goes through (docs/decisions/070). Two drivers:
// local disk (UPLOADS_DIR) and the database (table `arquivos`). Keys are relative,
// path-like names such as "fale_aqui/2026/11/<32 hex>.jpg", the same for both drivers.
import type { Readable } from 'node:stream';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';
import type { FileReference } from './references';

export type StorageDriver = 'local' | 'database';

export interface StoredFile {
  size: number;
  /** a fresh stream of the bytes (each call starts again) */
  open(): Readable;
}

/** What the orphan sweep may remove: a temporary file, or a final one no row may reference. */
export interface SweepCandidate {
  /** the storage key of a final file; a driver-internal name for a temporary one */
  key: string;
  temporary: boolean;
}

export interface FileStorage {
  readonly driver: StorageDriver;
  /**
   * Stores the bytes in a TEMPORARY state: not readable yet, and removed by the sweep
   * unless `commit` makes them final.
   */
  put(key: string, data: Buffer, type: string): Promise<void>;
  /**
   * Makes temporary files final. Call it inside the transaction that stores the rows
   * referencing them, after those rows: the file is final exactly when the row exists
   * (database driver), or at worst a final file without a row is left for the sweep (local
   * driver). Throws when a file is gone, which rolls the transaction back.
   */
  commit(trx: Kysely<Database>, keys: string[]): Promise<void>;
  /** A final file, or null. */
  get(key: string): Promise<StoredFile | null>;
  /** Removes a file in either state; a missing file is not an error (cleanup is idempotent). */
  delete(key: string): Promise<void>;
  /**
   * Temporary files not written to since `before`, and final files made final before it
   * whose key has a registered prefix (a driver may already leave out those a row
   * references; the sweep checks again).
   */
  listForSweep(before: Date, references: FileReference[]): AsyncIterable<SweepCandidate>;
  /**
   * Removes a candidate only if it is still in that state and still older than `before`
   * (so a file made final meanwhile survives). Idempotent: several instances may sweep.
   */
  deleteStale(candidate: SweepCandidate, before: Date): Promise<void>;
}

export class UnsafePathError extends Error {
  constructor(key: string) {
    super(`chave de arquivo inválida ou fora da pasta de uploads: ${JSON.stringify(key)}`);
    this.name = 'UnsafePathError';
  }
}

// Keys we create are "segment/segment/name.ext" with plain characters only.
const SAFE_KEY = /^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_-]+)*\/[A-Za-z0-9_-]+\.[a-z0-9]{1,8}$/;

export function checkKey(key: string): string {
  if (typeof key !== 'string' || key.length > 255 || !SAFE_KEY.test(key)) throw new UnsafePathError(key);
  return key;
}

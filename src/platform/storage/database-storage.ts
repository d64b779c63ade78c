// Database driver: files in the table `arquivos`, so every instance reads every file
// (docs/decisions/070). Works on PostgreSQL (bytea) and SQLite (blob). A temporary file is
// a row with finalizado_em null; commit sets it in the transaction that stores the row
// referencing the file, so a file is final exactly when that row exists.
import { Readable } from 'node:stream';
import { sql, type Kysely } from 'kysely';
import { nowIso } from '../../db/index';
import type { Database } from '../../db/types';
import { checkKey, type FileStorage } from './storage';

const PAGE = 500;

export interface DatabaseStorageOptions {
  /**
   * Read-only fallback for files stored on disk before the switch to this driver (an
   * installation that moves from one machine to several keeps its old photos readable).
   */
  legacy?: Pick<FileStorage, 'get'>;
}

export function createDatabaseStorage(db: Kysely<Database>, options: DatabaseStorageOptions = {}): FileStorage {
  return {
    driver: 'database',

    async put(key, data, type) {
      await db
        .insertInto('arquivos')
        .values({
          chave: checkKey(key),
          bytes: data,
          tipo: type,
          tamanho: data.length,
          criado_em: nowIso(),
          finalizado_em: null,
        })
        .execute();
    },

    async commit(trx, keys) {
      if (!keys.length) return;
      keys.forEach(checkKey);
      const res = await trx
        .updateTable('arquivos')
        .set({ finalizado_em: nowIso() })
        .where('chave', 'in', keys)
        .where('finalizado_em', 'is', null)
        .executeTakeFirst();
      // The sweep may have removed a temporary row that waited too long: fail, roll back.
      if (Number(res.numUpdatedRows) !== keys.length)
        throw new Error('arquivo temporário não encontrado ao confirmar o envio');
    },

    async get(key) {
      const row = await db
        .selectFrom('arquivos')
        .select(['bytes', 'tamanho'])
        .where('chave', '=', checkKey(key))
        .where('finalizado_em', 'is not', null)
        .executeTakeFirst();
      if (!row) return options.legacy ? options.legacy.get(key) : null;
      const bytes = Buffer.isBuffer(row.bytes) ? row.bytes : Buffer.from(row.bytes as Uint8Array);
      return { size: bytes.length, open: () => Readable.from([bytes]) };
    },

    async delete(key) {
      await db.deleteFrom('arquivos').where('chave', '=', checkKey(key)).execute();
    },

    async *listForSweep(before, references) {
      const cutoff = nowIso(before);
      // Keyset pages by key; orphans only (NOT EXISTS per registered reference), so a run
      // reads the keys of leftovers, never the whole table.
      let after = '';
      for (;;) {
        const rows = await db
          .selectFrom('arquivos as f')
          .select(['f.chave', 'f.finalizado_em'])
          .where('f.chave', '>', after)
          .where((eb) =>
            eb.or([
              eb.and([eb('f.finalizado_em', 'is', null), eb('f.criado_em', '<', cutoff)]),
              eb.and([
                eb('f.finalizado_em', '<', cutoff),
                eb.or(references.map((r) => eb('f.chave', 'like', `${r.prefix}%`))),
                ...references.map((r) =>
                  eb.not(
                    eb.exists(
                      (eb as any)
                        .selectFrom(`${r.table} as ref`)
                        .select(sql.lit(1).as('um'))
                        .where(sql.ref(`ref.${r.column}`), '=', sql.ref('f.chave')),
                    ),
                  ),
                ),
              ]),
            ]),
          )
          .orderBy('f.chave')
          .limit(PAGE)
          .execute();
        for (const r of rows) yield { key: r.chave, temporary: r.finalizado_em === null };
        if (rows.length < PAGE) return;
        after = rows[rows.length - 1]!.chave;
      }
    },

    async deleteStale(candidate, before) {
      const cutoff = nowIso(before);
      // The state is checked again by the DELETE itself: on PostgreSQL a row being made
      // final by an open transaction is re-checked after it commits, and no longer matches.
      let q = db.deleteFrom('arquivos').where('chave', '=', candidate.key);
      q = candidate.temporary
        ? q.where('finalizado_em', 'is', null).where('criado_em', '<', cutoff)
        : q.where('finalizado_em', '<', cutoff);
      await q.execute();
    },
  };
}

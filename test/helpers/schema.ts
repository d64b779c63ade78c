// The migrated schema as the database reports it (not as src/db/types.ts says): every
// table of the test database (on PostgreSQL, of the test's own schema) and its columns.
import type { Kysely } from 'kysely';
import type { TestDb } from './db';

export interface SchemaTable {
  name: string;
  columns: { name: string; dataType: string }[];
}

export async function schemaTables(db: Kysely<any>, testDb: Pick<TestDb, 'config'>): Promise<SchemaTable[]> {
  const schema = testDb.config.engine === 'postgres' ? testDb.config.schema : undefined;
  const tables = await db.introspection.getTables({ withInternalKyselyTables: false });
  return tables
    .filter((t) => !t.isView && (schema === undefined || t.schema === schema))
    .map((t) => ({ name: t.name, columns: t.columns.map((c) => ({ name: c.name, dataType: c.dataType })) }));
}

/** Columns that can hold text (the erasure scan reads them all). */
export function isTextType(dataType: string): boolean {
  return /char|text|clob|json|^$/i.test(dataType);
}

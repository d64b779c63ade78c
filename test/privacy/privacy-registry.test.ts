// The map of personal data covers the schema the migrations really build: every column
// whose name looks personal is classified, either in PERSONAL_DATA (how a person's rows are
// found and what erasure does) or in NOT_PERSONAL (with the reason). A migration that adds
// an unclassified one makes this test fail (the second test proves it does).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  ERASED_MARKER,
  isClassified,
  maskSubject,
  NOT_PERSONAL,
  PERSONAL_DATA,
  PERSONAL_NAME_RE,
  phoneVariants,
  scrubText,
  subjectNeedles,
} from '../../src/features/privacy/registry';
import { createTestDb, type TestDb } from '../helpers/db';
import { schemaTables } from '../helpers/schema';

let testDb: TestDb;

beforeAll(async () => {
  testDb = await createTestDb();
});
afterAll(async () => {
  await testDb.cleanup();
});

async function unclassified(): Promise<string[]> {
  const tables = await schemaTables(testDb.handle.db, testDb);
  return tables.flatMap((t) =>
    t.columns
      .filter((c) => PERSONAL_NAME_RE.test(c.name) && !isClassified(t.name, c.name))
      .map((c) => `${t.name}.${c.name}`),
  );
}

describe('personal-data registry', () => {
  it('classifies every personal-looking column of the migrated schema', async () => {
    const tables = await schemaTables(testDb.handle.db, testDb);
    expect(tables.length).toBeGreaterThan(30);
    expect(await unclassified()).toEqual([]);
  });

  it('fails on a column a new migration adds without classifying it', async () => {
    const db = testDb.handle.db;
    await db.schema.alterTable('franquia_leads').addColumn('telefone_recado', 'varchar(20)').execute();
    await db.schema
      .createTable('tmp_indicacoes')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('email_amigo', 'varchar(254)')
      .addColumn('observacao', 'text')
      .execute();
    try {
      expect((await unclassified()).sort()).toEqual([
        'franquia_leads.telefone_recado',
        'tmp_indicacoes.email_amigo',
        'tmp_indicacoes.observacao',
      ]);
    } finally {
      await db.schema.dropTable('tmp_indicacoes').execute();
      // SQLite drops a column since 3.35; both engines accept this statement
      await sql`alter table franquia_leads drop column telefone_recado`.execute(db);
    }
    expect(await unclassified()).toEqual([]);
  });

  it('names only tables and columns that exist, and every entry is complete', async () => {
    const tables = new Map((await schemaTables(testDb.handle.db, testDb)).map((t) => [t.name, t]));
    const missing: string[] = [];
    for (const e of PERSONAL_DATA) {
      const t = tables.get(e.table);
      if (!t) {
        missing.push(e.table);
        continue;
      }
      const names = new Set(t.columns.map((c) => c.name));
      for (const c of [...Object.keys(e.columns), ...(e.exportAlso ?? [])])
        if (!names.has(c)) missing.push(`${e.table}.${c}`);
      if (e.parent && !names.has(e.parent.column)) missing.push(`${e.table}.${e.parent.column}`);
      if (e.parent && !tables.has(e.parent.table)) missing.push(e.parent.table);
      for (const r of e.references ?? []) if (!names.has(r.column)) missing.push(`${e.table}.${r.column}`);
      // a table whose rows are found must say how: a matching column, a parent or a reference
      const finds = Object.values(e.columns).some((c) => c.match) || e.parent || e.references;
      if (!finds && typeof e.erase !== 'object') missing.push(`${e.table}: no way to find a person's rows`);
    }
    for (const [table, cols] of Object.entries(NOT_PERSONAL)) {
      const t = tables.get(table);
      if (!t) missing.push(table);
      else for (const c of Object.keys(cols)) if (c !== '*' && !t.columns.some((x) => x.name === c)) missing.push(c);
    }
    expect(missing).toEqual([]);
  });

  it('writes a phone every usual way and scrubs them all from free text', () => {
    const variants = phoneVariants('+5511987654321');
    expect(variants).toEqual(
      expect.arrayContaining(['+5511987654321', '5511987654321', '11987654321', '(11) 98765-4321', '98765-4321']),
    );
    const needles = subjectNeedles({ email: 'maria@exemplo.com.br', phones: ['+5511987654321'] });
    const text = 'Falar com MARIA@Exemplo.com.br ou (11) 98765-4321, ou 11987654321; obrigado';
    expect(scrubText(text, needles)).toBe(
      `Falar com ${ERASED_MARKER} ou ${ERASED_MARKER}, ou ${ERASED_MARKER}; obrigado`,
    );
    const masked = maskSubject({ email: 'maria@exemplo.com.br', phones: ['+5511987654321'] });
    expect(masked).not.toContain('maria@');
    expect(masked).not.toContain('98765');
  });
});

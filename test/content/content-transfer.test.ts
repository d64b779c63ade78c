// Catalog export/import: a round trip reproduces the catalog; a broken file changes
// nothing and lists every problem with its location; the CLI commands work end to end.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemo } from '../../src/db/seeds/demo';
import type { Db } from '../../src/db/index';
import { createContentServices } from '../../src/features/content/services';
import {
  CATALOG_LIMITS,
  parseCatalogText,
  type CatalogFile,
} from '../../src/features/content/transfer/transfer.service';
import { createTestDb, type TestDb } from '../helpers/db';

// The catalog commands' way in: the transfer service built by content/services.ts on a database.
const exportCatalog = (db: Db) => createContentServices({ db }).transfer.exportCatalog();
const importCatalog = (wiring: { db: Db }, data: unknown) => createContentServices(wiring).transfer.importCatalog(data);

const run = promisify(execFile);
let seeded: TestDb;
/** the same database with its catalog emptied after the export (one database per file:
 * a second PostgreSQL schema in one process trips Kysely's migration-table lookup) */
let empty: TestDb;
let original: CatalogFile;

async function wipeCatalog(db: TestDb['handle']['db']) {
  for (const table of [
    'aulas',
    'unidade_horarios',
    'unidades_areas',
    'unidades_modalidades',
    'planos_unidades',
    'usuarios_unidades',
    'planos',
    'unidades',
    'areas',
    'modalidades',
    'perguntas_opcoes',
    'perguntas',
  ] as const) {
    await db.deleteFrom(table).execute();
  }
}

beforeAll(async () => {
  seeded = await createTestDb();
  await seedDemo(seeded.handle.db);
  // Content the screens can make that the demo lacks: nulls, an inactive area, a class
  // without a room.
  const db = seeded.handle.db;
  await db.insertInto('areas').values({ nome: 'Quadra antiga', ativo: 0 }).execute();
  await db
    .updateTable('unidades')
    .set({ cep: null, latitude: null, longitude: null, descricao: null })
    .where('slug', '=', 'movimento-moinhos')
    .execute();
  const yoga = await db.selectFrom('modalidades').select('id').where('nome', '=', 'Yoga').executeTakeFirstOrThrow();
  const unit = await db
    .selectFrom('unidades')
    .select('id')
    .where('slug', '=', 'movimento-moinhos')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('aulas')
    .values({
      unidade_id: unit.id,
      modalidade_id: yoga.id,
      dia_semana: 0,
      inicio: '09:00',
      fim: '10:00',
      professor: null,
      sala: null,
    })
    .execute();
  original = await exportCatalog(db);
});
afterAll(async () => {
  await seeded?.cleanup();
});

describe('catalog export', () => {
  it('references units by slug and carries hours, plans, areas, modalities, timetable and survey', () => {
    expect(original.versao).toBe(1);
    expect(original.unidades).toHaveLength(8);
    const pinheiros = original.unidades.find((u) => u.slug === 'movimento-pinheiros')!;
    expect(pinheiros).toMatchObject({ nome: 'Movimento Pinheiros', ativo: true, beneficio_nome: 'Wellhub' });
    expect(pinheiros.horarios.length).toBe(7);
    expect(pinheiros.aulas.length).toBeGreaterThan(5);
    expect(pinheiros.aulas[0]).toEqual({
      dia_semana: expect.any(Number),
      inicio: expect.any(String),
      fim: expect.any(String),
      modalidade: expect.any(String),
      professor: expect.any(String),
      sala: expect.any(String),
    });
    expect(original.unidades.find((u) => u.slug === 'movimento-cambui')!.ativo).toBe(false);
    const mensal = original.planos.find((p) => p.nome === 'Plano Mensal')!;
    expect(mensal.unidades).toContain('movimento-pinheiros');
    expect(mensal.preco_centavos).toBe(12990);
    expect(original.planos.some((p) => !p.ativo)).toBe(true);
    expect(original.perguntas).toHaveLength(5);
    expect(original.perguntas[0]!.opcoes).toHaveLength(11);
    expect(JSON.stringify(original)).not.toMatch(/"(id|unidade_id|modalidade_id)"/);
  });
});

describe('catalog import', () => {
  it(`round trip: importing into an empty database reproduces the catalog; importing again changes \
nothing`, async () => {
    await wipeCatalog(seeded.handle.db);
    empty = seeded;
    expect((await exportCatalog(empty.handle.db)).unidades).toEqual([]);
    const first = await importCatalog({ db: empty.handle.db }, JSON.parse(JSON.stringify(original)));
    expect(first).toMatchObject({ ok: true, resumo: { unidades: { criados: 8, atualizados: 0, inalterados: 0 } } });
    expect(await exportCatalog(empty.handle.db)).toEqual(original);

    const second = await importCatalog({ db: empty.handle.db }, JSON.parse(JSON.stringify(original)));
    expect(second).toMatchObject({
      ok: true,
      resumo: {
        unidades: { criados: 0, atualizados: 0, inalterados: 8 },
        planos: { criados: 0, atualizados: 0, inalterados: 6 },
      },
    });
    expect(await exportCatalog(empty.handle.db)).toEqual(original);

    const audit = await empty.handle.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'catalogo')
      .execute();
    expect(audit).toHaveLength(2);
    expect(audit[0]).toMatchObject({ acao: 'importar', usuario_id: null });
    expect(JSON.parse(audit[0]!.depois!)).toMatchObject({ unidades: { criados: 8 } });
  });

  it('updates by slug/name: an edited file changes the existing rows instead of duplicating them', async () => {
    const edited = JSON.parse(JSON.stringify(original)) as CatalogFile;
    edited.unidades[0]!.nome = 'Nome Novo da Unidade';
    edited.unidades[0]!.aulas = edited.unidades[0]!.aulas.slice(0, 2);
    edited.planos[0]!.preco_centavos = 15000;
    const result = await importCatalog({ db: empty.handle.db }, edited);
    expect(result.ok).toBe(true);
    const after = await exportCatalog(empty.handle.db);
    expect(after.unidades).toHaveLength(8);
    expect(after.unidades[0]).toMatchObject({ slug: original.unidades[0]!.slug, nome: 'Nome Novo da Unidade' });
    expect(after.unidades[0]!.aulas).toHaveLength(2);
    expect(after.planos[0]!.preco_centavos).toBe(15000);
    // back to the original for the next tests
    expect((await importCatalog({ db: empty.handle.db }, JSON.parse(JSON.stringify(original)))).ok).toBe(true);
  });

  it('a broken file changes nothing and reports every problem with its location', async () => {
    const broken = JSON.parse(JSON.stringify(original)) as any;
    broken.unidades[3].beneficio_url = 'http://wellhub.com/x';
    broken.unidades[0].telefone = '12';
    broken.unidades[0].nome = 'Renomeada';
    broken.unidades[1].slug = broken.unidades[2].slug;
    broken.unidades[2].horarios[0].fecha = '25:99';
    broken.unidades[4].aulas[0].fim = '05:00';
    broken.unidades[4].aulas.push({ ...broken.unidades[4].aulas[1] });
    broken.unidades[5].areas.push('Área que não existe');
    broken.unidades[5].aulas[0].modalidade = 'Capoeira';
    delete broken.unidades[6].cidade;
    broken.unidades[6].extra = 1;
    broken.planos[1].preco_centavos = -5;
    broken.planos[0].unidades.push('unidade-fantasma');
    broken.planos[2].periodicidade = 'quinzenal';
    broken.perguntas[1].tipo = 'estrelas';
    broken.perguntas[4].opcoes = [{ texto: 'x', valor: 1, ordem: 0, ativo: true }];
    broken.areas.push({ nome: broken.areas[0].nome, ativo: true });

    const before = await exportCatalog(empty.handle.db);
    const auditBefore = await empty.handle.db.selectFrom('auditoria').select('id').execute();
    const result = await importCatalog({ db: empty.handle.db }, broken);
    expect(result.ok).toBe(false);
    const problems = (result as { problemas: string[] }).problemas;
    const expected = [
      /^unidades\[3\]\.beneficio_url: O link precisa começar com https:\/\/\.$/,
      /^unidades\[0\]\.telefone: Telefone inválido/,
      /^unidades\[2\]\.slug: repetido \(já aparece em unidades\[1\]\)/,
      /^unidades\[2\]\.horarios\[0\]\.fecha: horário inválido/,
      /^unidades\[4\]\.aulas\[0\]\.fim: A aula precisa terminar depois de começar\./,
      /^unidades\[4\]\.aulas\[\d+\]\.sala: Conflito de sala/,
      /^unidades\[5\]\.areas\[\d+\]: área desconhecida: "Área que não existe"/,
      /^unidades\[5\]\.aulas\[0\]\.modalidade: Modalidade desconhecida/,
      /^unidades\[6\]\.cidade: campo obrigatório ausente\./,
      /^unidades\[6\]\.extra: campo desconhecido\./,
      /^planos\[1\]\.preco_centavos: o preço não pode ser negativo\./,
      /^planos\[0\]\.unidades\[\d+\]: unidade desconhecida: "unidade-fantasma"/,
      /^planos\[2\]\.periodicidade: periodicidade inválida/,
      /^perguntas\[1\]\.tipo: tipo inválido/,
      /^perguntas\[4\]\.opcoes: perguntas de texto não têm opções\./,
      /^areas\[\d+\]\.nome: repetido/,
    ];
    for (const re of expected)
      expect(
        problems.some((p) => re.test(p)),
        `${re} in\n${problems.join('\n')}`,
      ).toBe(true);
    expect(await exportCatalog(empty.handle.db)).toEqual(before);
    expect(await empty.handle.db.selectFrom('auditoria').select('id').execute()).toHaveLength(auditBefore.length);
  });

  it('refuses something that is not a catalog', async () => {
    expect((await importCatalog({ db: empty.handle.db }, [])).ok).toBe(false);
    const r = await importCatalog({ db: empty.handle.db }, { versao: 2 });
    expect(r).toMatchObject({
      ok: false,
      problemas: expect.arrayContaining([
        expect.stringMatching(/^versao: versão de arquivo não suportada/),
        'unidades: campo obrigatório ausente.',
      ]),
    });
    expect(parseCatalogText('not json')).toMatchObject({ ok: false });
    expect(parseCatalogText('{"a":')).toMatchObject({ ok: false, problemas: [expect.stringMatching(/JSON inválido/)] });
    // npm prints its banner before the JSON when run without -s: it is ignored.
    expect(parseCatalogText('\n> gym@0.1.0 catalog:export\n> node dist/cli/catalog-export.js\n\n{"versao":1}')).toEqual(
      { ok: true, data: { versao: 1 } },
    );
  });
});

describe('catalog CLI', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-catalog-cli-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = (file: string) => ({
    PATH: process.env.PATH,
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    DATABASE_URL: `sqlite:${path.join(dir, file)}`,
  });

  it('exports to stdout and imports a file; a bad file exits non-zero and lists the problems', async () => {
    if (!existsSync('dist/cli/catalog-export.js')) throw new Error('run `npm run build` first (npm test does)');
    const jsonPath = path.join(dir, 'catalog.json');
    writeFileSync(jsonPath, JSON.stringify(original));
    const imported = await run(process.execPath, ['dist/cli/catalog-import.js', jsonPath], { env: env('b.sqlite') });
    expect(imported.stdout).toMatch(/unidades: 8 criados, 0 atualizados/);
    const exported = await run(process.execPath, ['dist/cli/catalog-export.js'], {
      env: env('b.sqlite'),
      maxBuffer: 50 * 1024 * 1024,
    });
    expect(JSON.parse(exported.stdout)).toEqual(original);

    const bad = JSON.parse(JSON.stringify(original));
    bad.unidades[3].beneficio_url = 'ftp://x';
    bad.planos[0].preco_centavos = -1;
    writeFileSync(jsonPath, JSON.stringify(bad));
    const failed = await run(process.execPath, ['dist/cli/catalog-import.js', jsonPath], { env: env('b.sqlite') }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stderr).toMatch(/2 problemas; nada foi alterado/);
    expect(failed?.stderr).toMatch(/unidades\[3\]\.beneficio_url: O link precisa começar com https/);
    expect(failed?.stderr).toMatch(/planos\[0\]\.preco_centavos: o preço não pode ser negativo/);
    expect(JSON.parse(readFileSync(jsonPath, 'utf8')).planos[0].preco_centavos).toBe(-1);
    const still = await run(process.execPath, ['dist/cli/catalog-export.js'], {
      env: env('b.sqlite'),
      maxBuffer: 50 * 1024 * 1024,
    });
    expect(JSON.parse(still.stdout)).toEqual(original);

    // a file over the byte limit is refused before it is read (a sparse file: nothing written)
    const hugePath = path.join(dir, 'huge.json');
    writeFileSync(hugePath, '{');
    truncateSync(hugePath, CATALOG_LIMITS.bytes + 1);
    const huge = await run(process.execPath, ['dist/cli/catalog-import.js', hugePath], { env: env('b.sqlite') }).then(
      () => null,
      (err: { code: number; stderr: string }) => err,
    );
    expect(huge?.code).toBe(1);
    expect(huge?.stderr).toMatch(
      /1 problema; nada foi alterado\.\n {2}\(arquivo\): arquivo grande demais \(80,0 MB; o máximo é 80 MB\)\./,
    );
  });
});

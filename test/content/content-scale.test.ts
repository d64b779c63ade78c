// Staff lists at chain scale (the benchmark's catalog shape): every list filters and pages,
// long checkbox lists are grouped, and the catalog import counts what it did without
// creating a second area/modality that differs only in case or accents. Also the public
// JSON answers' short header set and the request id.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLargeCatalog } from '../../src/db/seeds/large';
import type { Db } from '../../src/db/index';
import { createContentServices } from '../../src/features/content/services';
import { pageRows, pageWindow, parsePage } from '../../src/lib/pagination';
import { createTestApp, type TestContext } from '../helpers/app';
import { createStaffUser, loginAs } from '../helpers/staff';

// The catalog commands' way in: the transfer service built by content/services.ts on a database.
const exportCatalog = (db: Db) => createContentServices({ db }).transfer.exportCatalog();
const importCatalog = (wiring: { db: Db }, data: unknown) => createContentServices(wiring).transfer.importCatalog(data);

let t: TestContext;
let cookie: string;
const get = (url: string) => t.app.inject({ url, headers: { cookie } });
const rowsOf = (html: string) => [...html.matchAll(/<tr><td><a href="\/admin\/conteudo\/unidades\/\d+">/g)].length;

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  await seedLargeCatalog(t.db, { units: 120, plans: 400 });
  const admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Administradora' });
  // Fixed e-mails: a random one (equipe-<hex>) can contain "42" and match the search below.
  for (let i = 0; i < 60; i++)
    await createStaffUser(t.db, {
      papel: 'gerente',
      nome: `Gerente ${i}`,
      email: `conta-${i}@example.com`,
      unidadeIds: [1 + (i % 5)],
    });
  cookie = await loginAs(t.app, admin.email, admin.password);
});
afterAll(async () => t?.close());

describe('pagination helper', () => {
  it('parses pagina strictly and clamps to the last page', () => {
    expect(parsePage('3')).toBe(3);
    for (const bad of [undefined, '', '0', '-1', '1.5', 'abc', '01', ['2'], '9999999999'])
      expect(parsePage(bad)).toBe(bad?.toString() === '2' ? 2 : 1);
    expect(pageWindow(120, 50, '9')).toMatchObject({ page: 3, pages: 3, offset: 100, total: 120 });
    expect(pageWindow(0, 50, '4')).toMatchObject({ page: 1, pages: 1, offset: 0 });
    expect(pageRows([1, 2, 3, 4, 5], '2', 2)).toMatchObject({ items: [3, 4], page: 2, pages: 3 });
  });
});

describe('staff lists at chain scale', () => {
  it('units: 50 per page, a q filter (accents ignored) and page links that keep it', async () => {
    const first = await get('/admin/conteudo/unidades');
    expect(first.statusCode).toBe(200);
    expect(rowsOf(first.body)).toBe(50);
    expect(first.body).toContain('Página 1 de 3');
    expect(first.body).toContain('href="/admin/conteudo/unidades?pagina=2"');
    const last = await get('/admin/conteudo/unidades?pagina=99');
    expect(last.body).toContain('Página 3 de 3');
    expect(rowsOf(last.body)).toBe(20);
    expect((await get('/admin/conteudo/unidades?pagina=abc')).body).toContain('Página 1 de 3');

    const sp = await get(`/admin/conteudo/unidades?q=${encodeURIComponent('sao paulo')}`);
    expect(sp.statusCode).toBe(200);
    expect(rowsOf(sp.body)).toBe(4); // 120 units over 30 cities
    expect(sp.body).toContain('4 cadastros contêm “sao paulo”');
    expect(sp.body).not.toContain('class="pagination"');
    expect(rowsOf((await get('/admin/conteudo/unidades?q=nada-assim')).body)).toBe(0);
    expect((await get(`/admin/conteudo/unidades?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it('plans, areas, modalities, questions, accounts and the audit log filter and page too', async () => {
    const plans = await get('/admin/conteudo/planos');
    expect(plans.body).toContain('Página 1 de 8'); // 400 plans
    const recife = await get('/admin/conteudo/planos?q=anual+recife&pagina=1');
    expect(recife.body).toMatch(/Plano Anual Recife \d+/);
    expect(recife.body).not.toContain('Plano Mensal Recife');
    const paged = await get('/admin/conteudo/planos?q=recife&pagina=2');
    expect(paged.statusCode).toBe(200);

    expect((await get('/admin/conteudo/modalidades?q=NATACAO')).body).toContain('Natação');
    expect((await get('/admin/conteudo/modalidades?q=natacao')).body).not.toContain('>Yoga<');
    expect((await get('/admin/conteudo/areas?q=piscina')).body).toContain('Piscina semiolímpica');
    expect((await get('/admin/conteudo/perguntas?q=qualquer')).statusCode).toBe(200);

    const accounts = await get('/admin/contas');
    expect(accounts.body).toContain('Página 1 de 2'); // 61 accounts
    const one = await get('/admin/contas?q=gerente+42');
    expect(one.body).toContain('Gerente 42');
    expect(one.body).not.toContain('Gerente 41');

    // a change writes an audit row; the log finds it by a value it contains
    await t.db.updateTable('unidades').set({ ativo: 1 }).execute();
    const token = /name="csrf_token" value="([^"]+)"/.exec((await get('/admin/conteudo/areas/nova')).body)![1]!;
    const created = await t.app.inject({
      method: 'POST',
      url: '/admin/conteudo/areas/nova',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrf_token: token, nome: 'Sala de Escalada Zeta' }).toString(),
    });
    expect(created.statusCode).toBe(303);
    const audit = await get('/admin/auditoria?entidade=area&q=escalada+zeta');
    expect(audit.statusCode).toBe(200);
    expect(audit.body).toContain('1 alteração');
    expect((await get('/admin/auditoria?q=nao-existe-isto')).body).toContain('0 alterações');
  });

  it('checkbox lists of hundreds of units come grouped by city in <details>, ticked groups open', async () => {
    const plan = await t.db
      .selectFrom('planos')
      .select('id')
      .where('nome', 'like', 'Plano Anual Recife%')
      .executeTakeFirstOrThrow();
    const page = await get(`/admin/conteudo/planos/${plan.id}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-checklist');
    const groups = [
      ...page.body.matchAll(
        /<details( open)?><summary>([^<]+) <span class="muted">\((\d+) de (\d+)\)<\/span><\/summary>/g,
      ),
    ];
    expect(groups.length).toBe(30);
    const recife = groups.find((g) => g[2] === 'Recife/PE')!;
    expect(recife[1]).toBe(' open');
    expect(Number(recife[3])).toBeGreaterThan(0);
    expect(groups.filter((g) => g[1]).every((g) => Number(g[3]) > 0)).toBe(true);
    // every unit is still a checkbox of the form (closed groups submit theirs too)
    expect([...page.body.matchAll(/name="unidades"/g)]).toHaveLength(120);
    // the unit form lists the unit's own plans (grouped by billing period), not the 400:
    // the others are found with its plan search (test/content/content-chain-scale.test.ts)
    const unit = await get('/admin/conteudo/unidades/1');
    expect(unit.body).toMatch(/<details open><summary>Mensal <span class="muted">/);
    const own = await t.db.selectFrom('planos_unidades').select('plano_id').where('unidade_id', '=', 1).execute();
    expect([...unit.body.matchAll(/name="planos"/g)]).toHaveLength(own.length);
  });
});

describe('catalog import at chain scale', () => {
  it('counts created, updated and unchanged per kind, and matches areas and modalities by folded name', async () => {
    const file = await exportCatalog(t.db);
    const again = await importCatalog({ db: t.db }, JSON.parse(JSON.stringify(file)));
    expect(again).toMatchObject({
      ok: true,
      resumo: {
        unidades: { criados: 0, atualizados: 0, inalterados: 120 },
        planos: { criados: 0, atualizados: 0, inalterados: 400 },
      },
    });

    const edited = JSON.parse(JSON.stringify(file)) as typeof file;
    edited.unidades[0]!.bairro = 'Bairro Novo';
    edited.planos[0]!.preco_centavos += 100;
    // the same names in another case / without accents: the existing rows, not new ones
    edited.modalidades = edited.modalidades.map((m) => (m.nome === 'Yoga' ? { ...m, nome: 'yoga' } : m));
    edited.modalidades.push({ nome: 'Kickboxe Ômega', descricao: null, ativo: true });
    edited.areas = edited.areas.map((a) => (a.nome === 'Musculação' ? { ...a, nome: 'MUSCULACAO' } : a));
    edited.unidades[1]!.modalidades = [...edited.unidades[1]!.modalidades.filter((m) => m !== 'Yoga'), 'YOGA'];
    edited.unidades[1]!.areas = [...edited.unidades[1]!.areas.filter((a) => a !== 'Musculação'), 'musculacao'];
    const res = await importCatalog({ db: t.db }, edited);
    expect(res.ok, JSON.stringify(res)).toBe(true);
    if (!res.ok) return;
    // only the unit whose bairro changed: a unit that names "YOGA", or links to the renamed
    // modality, has the same links as before
    expect(res.resumo.unidades).toEqual({ criados: 0, atualizados: 1, inalterados: 119 });
    expect(res.resumo.planos).toEqual({ criados: 0, atualizados: 1, inalterados: 399 });
    // the file's spelling wins: the same row, renamed, counted as updated (docs/decisions/178)
    expect(res.resumo.modalidades).toMatchObject({ criados: 1, atualizados: 1 });
    expect(res.resumo.areas).toMatchObject({ criados: 0, atualizados: 1 });
    const yogas = await t.db
      .selectFrom('modalidades')
      .select('nome')
      .where('nome', 'in', ['yoga', 'Yoga', 'YOGA'])
      .execute();
    expect(yogas.map((m) => m.nome)).toEqual(['yoga']);
    const areas = await t.db.selectFrom('areas').select('nome').execute();
    expect(areas.filter((a) => a.nome.toLowerCase().startsWith('muscula')).map((a) => a.nome)).toEqual(['MUSCULACAO']);
  });
});

describe('public JSON answers and request ids', () => {
  it('search JSON carries a short header set; pages keep the full one', async () => {
    const res = await t.app.inject('/search_ajax.php?q=movimento');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(20);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['permissions-policy']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBeUndefined();
    // the same bytes on a repeated query (serialised once per answer)
    expect((await t.app.inject('/search_ajax.php?q=movimento')).body).toBe(res.body);
    expect((await t.app.inject('/search_ajax.php?q=a')).body).toBe('[]');
    const bad = await t.app.inject('/search_ajax.php?q=aaaaaaaaaa');
    expect(bad.statusCode).toBe(400);
    expect(bad.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect((await t.app.inject('/healthz')).headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'none'",
    );
    const page = await t.app.inject('/');
    expect(String(page.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
  });

  it('request ids: a per-process prefix and a counter, or a well-formed incoming X-Request-Id', async () => {
    const a = String((await t.app.inject('/healthz')).headers['x-request-id']);
    const b = String((await t.app.inject('/healthz')).headers['x-request-id']);
    expect(a).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
    expect(b.split('-')[0]).toBe(a.split('-')[0]);
    expect(b).not.toBe(a);
    const mine = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(mine.headers['x-request-id']).toBe('lb-7f3a.42');
    const hostile = await t.app.inject({ url: '/healthz', headers: { 'x-request-id': 'x'.repeat(65) } });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-z]+-[0-9a-z]+$/);
  });
});

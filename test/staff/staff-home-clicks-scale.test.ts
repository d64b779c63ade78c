// The staff home (/admin) and the clicks report (/admin/cliques) on the benchmark's catalog
// (300 units): bounded pages, filters by unit name/city that the page links keep, bad page
// numbers answered with a normal page, and a unit manager still limited to their units.
import { createAggregatesRepository } from '../../src/features/feedback/survey/aggregates.repository';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLargeCatalog } from '../../src/db/seeds/large';
import { lastWeeks } from '../../src/features/cta/cta';
import { createCtaRepository } from '../../src/features/cta/cta.repository';
import { createTestApp, type TestContext } from '../helpers/app';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let admin: string;
let manager: string;
/** every unit by name, the order of both pages */
let units: { id: number; nome: string; cidade: string; uf: string }[];
/** the manager's units: two in Recife, one in São Paulo */
let mine: { id: number; nome: string; cidade: string; uf: string }[];
/** clicks stored per unit in the last 8 weeks (the report's default) */
const clicks = new Map<number, number>();
const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

const as = (cookie: string) => (url: string) => t.app.inject({ url, headers: { cookie } });
const unitRows = (html: string) => [...html.matchAll(/<tr data-unidade="(\d+)">/g)].map((m) => Number(m[1]));
const posterLinks = (html: string) =>
  [...html.matchAll(/href="\/admin\/pesquisa\/cartaz\/(\d+)"/g)].map((m) => Number(m[1]));
const queueUnits = (html: string) =>
  [...html.matchAll(/<section class="card attention-unit"[^>]*aria-label="Unidade ([^"]+)"/g)].map((m) => m[1]);
const sumOf = (ids: number[]) => ids.reduce((s, id) => s + (clicks.get(id) ?? 0), 0);
const totalLine = (html: string) => Number(/<p><strong>(\d+)<\/strong> cliques? no período/.exec(html)?.[1]);

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  await seedLargeCatalog(t.db, { units: 300, plans: 3000 });
  const collator = new Intl.Collator('pt-BR', { sensitivity: 'base', numeric: true });
  units = (await t.db.selectFrom('unidades').select(['id', 'nome', 'cidade', 'uf']).execute()).sort(
    (a, b) => collator.compare(a.nome, b.nome) || collator.compare(a.cidade, b.cidade) || a.id - b.id,
  );
  // none of them among the 30 units of the attention queue below
  const recife = units.slice(30).filter((u) => u.cidade === 'Recife');
  mine = [recife[0]!, recife[1]!, units.slice(30).find((u) => u.cidade === 'São Paulo')!];

  // Clicks: 1–4 per unit this week and 8 weeks back (inside the 8-week report), and one
  // 20 weeks ago (outside it) that must not count.
  const [thisWeek, , , , , , , eighth] = lastWeeks(8);
  const old = lastWeeks(21)[20]!;
  const rows = units.flatMap((u, i) => {
    const n = 1 + (i % 4);
    clicks.set(u.id, n + 1);
    return [
      ...Array.from({ length: n }, (_, k) => ({
        unidade_id: u.id,
        acao: (['matricula', 'whatsapp', 'aula_experimental', 'beneficio'] as const)[k]!,
        plano_id: null,
        semana: thisWeek!,
        criado_em: ago(1),
      })),
      { unidade_id: u.id, acao: 'matricula', plano_id: null, semana: eighth!, criado_em: ago(24 * 50) },
      { unidade_id: u.id, acao: 'matricula', plano_id: null, semana: old, criado_em: ago(24 * 140) },
    ];
  });
  for (let i = 0; i < rows.length; i += 500)
    await t.db
      .insertInto('cliques_cta')
      .values(rows.slice(i, i + 500))
      .execute();
  // Clicks written straight into the table, as seed:volume does: counted as aggregates:rebuild counts them.
  await createCtaRepository(t.db).rebuildCounts();

  // The attention queue: 30 units waiting, the first (oldest) with 7 items.
  const waiting = units.slice(0, 30);
  const detractors = waiting.flatMap((u, k) =>
    Array.from({ length: k === 0 ? 5 : 1 }, (_, j) => ({
      unidade_id: u.id,
      nota_nps: 2,
      comentario: `Reclamação ${k}-${j}`,
      criado_em: ago(1000 - k - j / 10),
      nome_cliente: `Cliente ${k}`,
    })),
  );
  await t.db.insertInto('respostas_nps').values(detractors).execute();
  for (const j of [0, 1]) {
    const at = ago(900 - j);
    await t.db
      .insertInto('fale_aqui')
      .values({
        unidade_id: units[0]!.id,
        unidade: units[0]!.nome,
        nome_completo: `Pessoa ${j}`,
        mensagem: `Mensagem ${j}`,
        status: 'nova',
        criado_em: at,
        atualizado_em: at,
      })
      .execute();
  }
  // the manager's São Paulo unit waits too (it is not among the 30)
  await t.db
    .insertInto('respostas_nps')
    .values({
      unidade_id: mine[2]!.id,
      nota_nps: 1,
      comentario: 'Da unidade do gerente',
      criado_em: ago(10),
      nome_cliente: 'Cliente G',
    })
    .execute();

  // Rows written straight into the tables, as another tool would: the figures are recounted.
  await createAggregatesRepository(t.db).rebuild();
  const a = await createStaffUser(t.db, { papel: 'admin' });
  const g = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: mine.map((u) => u.id) });
  admin = await loginAs(t.app, a.email, a.password);
  manager = await loginAs(t.app, g.email, g.password);
}, 120_000);
afterAll(async () => t?.close());

describe('/admin/cliques at chain scale', () => {
  it('pages the units 50 at a time with SQL-summed counts, and stays small', async () => {
    const get = as(admin);
    const first = await get('/admin/cliques');
    expect(first.statusCode).toBe(200);
    expect(unitRows(first.body)).toEqual(units.slice(0, 50).map((u) => u.id));
    expect(first.body).toContain('Página 1 de 6');
    expect(first.body).toContain('href="/admin/cliques?semanas=8&amp;pagina=2"');
    // was 436 KB with every unit's weekly table (~16 KB now; a year of weeks adds ~5 KB)
    expect(Buffer.byteLength(first.body)).toBeLessThan(25_000);
    expect(Buffer.byteLength((await get('/admin/cliques?semanas=52')).body)).toBeLessThan(30_000);
    // the week table and the headline count every unit, not only the page (the 20-week-old click is out)
    expect(totalLine(first.body)).toBe(sumOf(units.map((u) => u.id)));

    const third = await get('/admin/cliques?pagina=3');
    expect(unitRows(third.body)).toEqual(units.slice(100, 150).map((u) => u.id));
    const u = units[120]!;
    const row = new RegExp(`<tr data-unidade="${u.id}">.*?<strong>(\\d+)</strong>`).exec(third.body);
    expect(Number(row?.[1])).toBe(clicks.get(u.id));
  });

  it('filters by unit name or city (accents ignored), and page links keep the filter and the period', async () => {
    const get = as(admin);
    const recife = await get('/admin/cliques?q=recife');
    const ids = units.filter((u) => u.cidade === 'Recife').map((u) => u.id);
    expect(unitRows(recife.body)).toEqual(ids);
    expect(recife.body).not.toContain('class="pagination"');
    expect(totalLine(recife.body)).toBe(sumOf(ids));
    expect(recife.body).toContain('em 10 unidades que contêm “recife”');

    const sp = await get(`/admin/cliques?q=${encodeURIComponent('sao paulo')}`);
    expect(unitRows(sp.body)).toEqual(units.filter((u) => u.cidade === 'São Paulo').map((u) => u.id));
    const one = await get(`/admin/cliques?q=${encodeURIComponent(units[7]!.nome.toUpperCase())}`);
    expect(unitRows(one.body)).toContain(units[7]!.id);

    const all = await get('/admin/cliques?q=movimento&semanas=4&pagina=2');
    expect(all.body).toContain('Página 2 de 6');
    expect(all.body).toContain('href="/admin/cliques?q=movimento&amp;semanas=4&amp;pagina=3"');
    expect(all.body).toContain('href="/admin/cliques?q=movimento&amp;semanas=4"'); // back to page 1
    // 4 weeks: the click 8 weeks back is out of the period
    expect(totalLine(all.body)).toBe(sumOf(units.map((u) => u.id)) - units.length);
    expect(all.body).toMatch(/<option value="4" selected>/);

    expect(unitRows((await get('/admin/cliques?q=nada-assim')).body)).toEqual([]);
    // a unit's name opens its own weekly table; the filters stay
    const unit = await get(`/admin/cliques?unidade_id=${ids[0]}&semanas=12`);
    expect(unitRows(unit.body)).toEqual([ids[0]]);
    expect(unit.body).toContain('data-unidade-escolhida');
    expect(unit.body).toContain(`name="unidade_id" value="${ids[0]}"`);
  });

  it('answers bad pagina, semanas and q values with a normal page', async () => {
    const get = as(admin);
    for (const [pagina, shown] of [
      ['0', 1],
      ['-1', 1],
      ['abc', 1],
      ['1.5', 1],
      ['99999', 6],
      ['9'.repeat(30), 1],
    ] as const) {
      const res = await get(`/admin/cliques?pagina=${pagina}`);
      expect(res.statusCode, pagina).toBe(200);
      expect(res.body, pagina).toContain(`Página ${shown} de 6`);
    }
    for (const url of [
      '/admin/cliques?semanas=abc',
      '/admin/cliques?semanas=7',
      `/admin/cliques?q=${'x'.repeat(150)}`,
      '/admin/cliques?q=a&q=b',
      '/admin/cliques?unidade_id=abc',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('Cliques nas chamadas');
    }
  });

  it("a unit manager sees and filters only their units; another unit's id is refused", async () => {
    const get = as(manager);
    const page = await get('/admin/cliques');
    expect(page.statusCode).toBe(200);
    expect(unitRows(page.body).sort()).toEqual(mine.map((u) => u.id).sort());
    expect(totalLine(page.body)).toBe(sumOf(mine.map((u) => u.id)));
    expect(unitRows((await get('/admin/cliques?q=recife')).body).sort()).toEqual([mine[0]!.id, mine[1]!.id].sort());
    // a filter matching other units' names finds none of them
    const other = units.find((u) => u.cidade === 'Manaus')!;
    const manaus = await get('/admin/cliques?q=manaus');
    expect(unitRows(manaus.body)).toEqual([]);
    expect(totalLine(manaus.body)).toBe(0);
    expect((await get(`/admin/cliques?unidade_id=${other.id}`)).statusCode).toBe(403);
    expect((await get(`/admin/cliques?unidade_id=${other.id}&pagina=abc`)).statusCode).toBe(403);
  });
});

describe('/admin (staff home) at chain scale', () => {
  it('caps the attention queue to the units waiting longest, with links to the full lists', async () => {
    const home = await as(admin)('/admin');
    expect(home.statusCode).toBe(200);
    // was 98 KB with every unit's tools (~16 KB now)
    expect(Buffer.byteLength(home.body)).toBeLessThan(25_000);
    expect(queueUnits(home.body)).toEqual(units.slice(0, 10).map((u) => u.nome));
    expect([...home.body.matchAll(/data-atencao="/g)]).toHaveLength(5 + 9);
    const first = units[0]!;
    expect(home.body).toContain(`data-fila-mais="${first.id}"`);
    expect(home.body).toContain('Mais 2 nesta unidade.');
    expect(home.body).toMatch(
      new RegExp(`href="/admin/pesquisa\\?unidade_id=${first.id}&amp;categoria=pendentes&amp;de=\\d{4}-\\d{2}-\\d{2}"`),
    );
    expect(home.body).toContain(`href="/admin/mensagens?unidade_id=${first.id}"`);
    // 20 more of the 30, and the manager's unit: 21 units, 21 items
    expect(home.body).toContain('Mais 21 unidades com 21 itens esperando.');
    expect(home.body).toContain('37 itens esperando em 31 unidades');
    expect(home.body).toMatch(/href="\/admin\/pesquisa\?categoria=pendentes&amp;de=\d{4}-\d{2}-\d{2}"/);
    // the linked list is the queue's: a detractor handled or without a comment is not in it
    await t.db
      .insertInto('respostas_nps')
      .values([
        {
          unidade_id: first.id,
          nota_nps: 3,
          comentario: 'Já tratada',
          criado_em: ago(20),
          nome_cliente: 'Cliente T',
          tratada_em: ago(10),
        },
        { unidade_id: first.id, nota_nps: 4, comentario: null, criado_em: ago(20), nome_cliente: 'Cliente S' },
      ])
      .execute();
    await createAggregatesRepository(t.db).rebuild();
    const waiting = (await as(admin)(`/admin/pesquisa?unidade_id=${first.id}&categoria=pendentes`)).body;
    expect(waiting).toContain('Reclamação 0-4');
    expect(waiting).toContain('Respostas (5)');
    expect(waiting).not.toContain('Já tratada');
    expect(waiting).toContain('<option value="pendentes" selected>Detratores com comentário a tratar</option>');
    const all = (await as(admin)(`/admin/pesquisa?unidade_id=${first.id}&categoria=detratores`)).body;
    expect(all).toContain('Já tratada');
    expect(all).toContain('Respostas (7)');
  });

  it(`the survey tools of 300 units: 20 per page, filtered by name or city, page links keeping the \
filter`, async () => {
    const get = as(admin);
    const home = await get('/admin');
    expect(posterLinks(home.body)).toEqual(units.slice(0, 20).map((u) => u.id));
    expect(home.body).toContain('Página 1 de 15');
    expect(home.body).toContain('href="/admin?pagina=2#unidades"');
    expect(home.body).toContain('<label for="unidades-q">Unidade ou cidade</label>');

    const recife = await get('/admin?q=recife');
    expect(posterLinks(recife.body)).toEqual(units.filter((u) => u.cidade === 'Recife').map((u) => u.id));
    expect(recife.body).toContain('10 unidades com “recife”');
    expect(recife.body).not.toContain('class="pagination"');

    const filtered = await get(`/admin?q=${encodeURIComponent('são paulo movimento')}`);
    expect(posterLinks(filtered.body)).toEqual(units.filter((u) => u.cidade === 'São Paulo').map((u) => u.id));
    const paged = await get('/admin?q=movimento&pagina=2');
    expect(posterLinks(paged.body)).toEqual(units.slice(20, 40).map((u) => u.id));
    expect(paged.body).toContain('href="/admin?q=movimento&amp;pagina=3#unidades"');
    expect(paged.body).toContain('href="/admin?q=movimento#unidades"');
    expect((await get('/admin?q=nada-assim')).body).toContain('Nenhuma unidade com este filtro.');

    for (const [pagina, shown] of [
      ['0', 1],
      ['-1', 1],
      ['abc', 1],
      ['99999', 15],
    ] as const) {
      const res = await get(`/admin?pagina=${pagina}`);
      expect(res.statusCode, pagina).toBe(200);
      expect(res.body, pagina).toContain(`Página ${shown} de 15`);
    }
    expect((await get(`/admin?q=${'x'.repeat(150)}`)).statusCode).toBe(200);
  });

  it('a unit manager sees only their units, without a filter they do not need', async () => {
    const get = as(manager);
    const home = await get('/admin');
    expect(home.statusCode).toBe(200);
    expect(posterLinks(home.body).sort()).toEqual(mine.map((u) => u.id).sort());
    expect(home.body).not.toContain('unidades-q');
    expect(queueUnits(home.body)).toEqual([mine[2]!.nome]);
    expect(home.body).not.toContain('Reclamação');
    // a filter in the address still only narrows their own units
    expect(posterLinks((await get('/admin?q=manaus')).body)).toEqual([]);
    expect(posterLinks((await get('/admin?q=recife')).body).sort()).toEqual([mine[0]!.id, mine[1]!.id].sort());
  });
});

describe("the staff pages' unit filter at chain scale", () => {
  /** the select's cities and, per city, its unit ids, in page order */
  const groups = (html: string) => {
    const select = /<select id="f-unidade"[^>]*>([\s\S]*?)<\/select>/.exec(html)?.[1] ?? '';
    return [...select.matchAll(/<optgroup label="([^"]+)">([\s\S]*?)<\/optgroup>/g)].map((m) => ({
      cidade: m[1]!,
      ids: [...m[2]!.matchAll(/value="(\d+)"/g)].map((v) => Number(v[1])),
    }));
  };

  it(`groups the units by city on the report, the inbox and the bookings, so repeated names are told \
apart`, async () => {
    for (const path of ['/admin/pesquisa', '/admin/mensagens', '/admin/aulas-experimentais']) {
      const res = await as(admin)(path);
      expect(res.statusCode, path).toBe(200);
      const found = groups(res.body);
      const cityOf = (u: { cidade: string; uf: string }) => `${u.cidade}/${u.uf}`;
      const cities = [...new Set(units.map(cityOf))];
      expect(found.map((g) => g.cidade).sort(), path).toEqual(cities.sort());
      for (const g of found) {
        expect(g.ids.sort(), `${path} ${g.cidade}`).toEqual(
          units
            .filter((u) => cityOf(u) === g.cidade)
            .map((u) => u.id)
            .sort(),
        );
      }
    }
    // a manager's select: only their units, still under their cities
    const mineGroups = groups((await as(manager)('/admin/pesquisa')).body);
    expect(mineGroups.map((g) => g.cidade).sort()).toEqual(['Recife/PE', 'São Paulo/SP']);
    expect(mineGroups.flatMap((g) => g.ids).sort()).toEqual(mine.map((u) => u.id).sort());
  });
});

// Trial-class staff pages at chain scale (the benchmark's 300 units): the capacity
// form and the funnel page and filter like the other staff lists, a capacity save touches
// only the units of its page and comes back to that page and filter, the funnel's totals and
// its CSV stay whole, and unit scope holds. Both engines.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WithTrialCapacity } from '../../src/db/types';
import { seedLargeCatalog } from '../../src/db/seeds/large';
import { mondayOf, spDay } from '../../src/features/booking/slots';
import { createCtaRepository } from '../../src/features/cta/cta.repository';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

const CAPACITY = '/admin/aulas-experimentais/vagas';
const FUNNEL = '/admin/aulas-experimentais/funil';

let t: TestContext;
let admin: string;
let manager: string;
let unitIds: number[];
/** the manager's units: more than one page of the capacity form (50) */
let mine: number[];

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  ({ unitIds } = await seedLargeCatalog(t.db, { units: 300 }));
  mine = unitIds.filter((_, i) => i % 5 === 0).slice(0, 55);
  const a = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Administradora' });
  const m = await createStaffUser(t.db, { papel: 'gerente', nome: 'Gerente Regional', unidadeIds: mine });
  admin = await loginAs(t.app, a.email, a.password);
  manager = await loginAs(t.app, m.email, m.password);
});
afterAll(async () => t?.close());

const get = (url: string, cookie = admin) => t.app.inject({ url, headers: { cookie } });
/** The unit ids of the capacity inputs on a page, in order. */
const capacityIds = (html: string) => [...html.matchAll(/name="vagas\[(\d+)\]"/g)].map((m) => Number(m[1]));
/** The units in the funnel's "Total do período" table (not the "Todas" row). */
const funnelUnits = (html: string) => {
  const table = html.slice(html.indexOf('id="funil-total"'), html.indexOf('id="funil-semanas-titulo"'));
  return [...table.matchAll(/<th scope="row">([^<]+)<span class="muted"> · ([^<]+)<\/span><\/th>/g)].map(
    (m) => `${m[1]} · ${m[2]}`,
  );
};
// The capacity column is declared apart from UnidadesTable (see src/db/types.ts).
const capacities = async () =>
  new Map(
    (
      await (t.db as unknown as Kysely<WithTrialCapacity>)
        .selectFrom('unidades')
        .select(['id', 'vagas_experimentais'])
        .execute()
    ).map((u) => [u.id, u.vagas_experimentais]),
  );

async function saveCapacities(cookie: string, fields: Record<string, string>, token?: string) {
  return t.app.inject({
    method: 'POST',
    url: CAPACITY,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token ?? (await staffToken(t.app, cookie, CAPACITY)), ...fields }),
  });
}

describe('capacity form at 300 units', () => {
  it('pages 50 units at a time in bounded bytes; bad `pagina` values give a page, not an error', async () => {
    const first = await get(CAPACITY);
    expect(first.statusCode).toBe(200);
    expect(capacityIds(first.body)).toHaveLength(50);
    expect(first.body).toContain('Página 1 de 6');
    // the filter counts units, not the content lists' "cadastros"
    expect(first.body).toContain('300 unidades');
    expect(first.body).toContain(`href="${CAPACITY}?pagina=2"`);
    // was 147 KB with all 300 units on one page
    expect(first.body.length).toBeLessThan(20_000);
    const last = await get(`${CAPACITY}?pagina=6`);
    expect(capacityIds(last.body)).toHaveLength(50);
    expect(new Set([...capacityIds(first.body), ...capacityIds(last.body)]).size).toBe(100);

    for (const [pagina, shown] of [
      ['0', 1],
      ['-1', 1],
      ['abc', 1],
      ['1.5', 1],
      ['99999', 6],
      ['', 1],
    ] as const) {
      const res = await get(`${CAPACITY}?pagina=${pagina}`);
      expect(res.statusCode, `pagina=${pagina}`).toBe(200);
      expect(res.body).toContain(`Página ${shown} de 6`);
    }
    // longer than any page number: refused by the query's schema with a 400, never a 5xx
    expect((await get(`${CAPACITY}?pagina=${'9'.repeat(11)}`)).statusCode).toBe(400);
    expect((await get(`${CAPACITY}?pagina=1&pagina=2`)).statusCode).toBeLessThan(500);
  });

  it('filters by unit name, neighbourhood or city (accents ignored), and the page links keep the filter', async () => {
    const recife = await get(`${CAPACITY}?q=recife`);
    expect(recife.statusCode).toBe(200);
    const ids = capacityIds(recife.body);
    expect(ids).toHaveLength(10); // 300 units over 30 cities
    const cities = await t.db.selectFrom('unidades').select('cidade').where('id', 'in', ids).execute();
    expect(new Set(cities.map((c) => c.cidade))).toEqual(new Set(['Recife']));
    expect(recife.body).not.toContain('class="pagination"');
    expect(recife.body).toContain('<input type="hidden" name="q" value="recife"/>');

    const sp = await get(`${CAPACITY}?q=${encodeURIComponent('SAO PAULO')}`);
    expect(capacityIds(sp.body)).toHaveLength(10);
    expect(capacityIds((await get(`${CAPACITY}?q=nada-assim`)).body)).toHaveLength(0);
    expect((await get(`${CAPACITY}?q=nada-assim`)).body).toContain('Nenhuma unidade encontrada.');

    // every unit is a "Movimento …": 6 pages, each link keeping q
    const all = await get(`${CAPACITY}?q=movimento&pagina=2`);
    expect(all.body).toContain('Página 2 de 6');
    expect(all.body).toContain(`href="${CAPACITY}?q=movimento&amp;pagina=3"`);
    expect(all.body).toContain(`href="${CAPACITY}?q=movimento"`); // page 1 (previous)
    expect(all.body).toContain('<input type="hidden" name="pagina" value="2"/>');
    expect((await get(`${CAPACITY}?q=${'x'.repeat(101)}`)).statusCode).toBe(400);
  });

  it(`a save on page 2 changes only the units changed there (audited), and comes back to page 2 and the \
filter`, async () => {
    const page = await get(`${CAPACITY}?q=movimento&pagina=2`);
    const shown = capacityIds(page.body);
    expect(shown).toHaveLength(50);
    const before = await capacities();
    const [a, b] = shown;
    const fields = Object.fromEntries(shown.map((id) => [`vagas[${id}]`, String(before.get(id))]));
    fields[`vagas[${a}]`] = '7';
    fields[`vagas[${b}]`] = '9';
    const audits = async () =>
      (await t.db.selectFrom('auditoria').select('entidade_id').where('entidade', '=', 'unidade').execute()).length;
    const auditsBefore = await audits();

    const res = await saveCapacities(admin, { ...fields, q: 'movimento', pagina: '2' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${CAPACITY}?q=movimento&pagina=2&salvo=2`);
    const after = await capacities();
    expect(after.get(a!)).toBe(7);
    expect(after.get(b!)).toBe(9);
    for (const [id, vagas] of before) if (id !== a && id !== b) expect(after.get(id), `unit ${id}`).toBe(vagas);
    expect(await audits()).toBe(auditsBefore + 2); // unchanged fields write nothing

    const back = await get(res.headers.location as string);
    expect(back.body).toContain('Vagas atualizadas em 2 unidades.');
    expect(back.body).toContain('Página 2 de 6');
    expect(capacityIds(back.body)).toEqual(shown);
    expect(back.body).toContain(
      `name="vagas[${a}]" type="number" min="1" max="50" inputmode="numeric" required value="7"`,
    );

    // the same page saved again unchanged: nothing written
    const again = await saveCapacities(admin, { ...fields, [`vagas[${a}]`]: '7', [`vagas[${b}]`]: '9', pagina: '2' });
    expect(again.headers.location).toBe(`${CAPACITY}?pagina=2&salvo=0`);
    expect(await audits()).toBe(auditsBefore + 2);
    // a filter carried with a NUL is not carried back into an address that would be refused
    const nul = await saveCapacities(admin, {
      ...fields,
      [`vagas[${a}]`]: '7',
      [`vagas[${b}]`]: '9',
      q: 'movimento\u0000',
      pagina: '2',
    });
    expect(nul.headers.location).toBe(`${CAPACITY}?pagina=2&salvo=0`);
    expect((await get(nul.headers.location as string)).statusCode).toBe(200);
  });

  it(`a refused value saves nothing and shows the same page again, values kept and a message by each \
field`, async () => {
    const page = await get(`${CAPACITY}?pagina=3`);
    const shown = capacityIds(page.body);
    const before = await capacities();
    const [a, b, c] = shown;
    const fields = Object.fromEntries(shown.map((id) => [`vagas[${id}]`, String(before.get(id))]));
    const res = await saveCapacities(admin, {
      ...fields,
      [`vagas[${a}]`]: '0',
      [`vagas[${b}]`]: 'abc',
      [`vagas[${c}]`]: '12',
      pagina: '3',
    });
    expect(res.statusCode).toBe(422);
    expect(await capacities()).toEqual(before);
    expect(capacityIds(res.body)).toEqual(shown);
    expect(res.body).toContain('Página 3 de 6');
    expect(res.body).toContain('<input type="hidden" name="pagina" value="3"/>');
    expect(res.body).toContain('Nada foi gravado. Revise os 2 campos destacados');
    for (const id of [a, b]) {
      expect(res.body).toContain(`aria-invalid="true" aria-describedby="vagas-${id}-erro"`);
      expect(res.body).toContain(
        `<p class="field-error" id="vagas-${id}-erro">Informe um número inteiro de 1 a 50.</p>`,
      );
      expect(res.body).toContain(`href="#vagas-${id}"`);
    }
    expect(res.body).not.toContain(`id="vagas-${c}-erro"`);
    expect(res.body).toContain(
      `name="vagas[${b}]" type="number" min="1" max="50" inputmode="numeric" required value="abc"`,
    );
    expect(res.body).toContain(
      `name="vagas[${c}]" type="number" min="1" max="50" inputmode="numeric" required value="12"`,
    );
  });

  it('needs the CSRF token; an unknown unit is 404', async () => {
    const id = unitIds[0]!;
    const before = await capacities();
    expect((await saveCapacities(admin, { [`vagas[${id}]`]: '3' }, 'token-falso')).statusCode).toBe(403);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: CAPACITY,
          headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
          payload: form({ [`vagas[${id}]`]: '3' }),
        })
      ).statusCode,
    ).toBe(403);
    expect((await saveCapacities(admin, { [`vagas[${id}]`]: '3', 'vagas[99999999]': '3' })).statusCode).toBe(404);
    expect(await capacities()).toEqual(before);
  });

  it('a unit manager pages, filters and saves only their own units', async () => {
    const first = await get(CAPACITY, manager);
    const second = await get(`${CAPACITY}?pagina=2`, manager);
    expect(first.body).toContain('Página 1 de 2');
    const seen = [...capacityIds(first.body), ...capacityIds(second.body)];
    expect(seen).toHaveLength(55);
    expect(new Set(seen)).toEqual(new Set(mine));
    const recife = capacityIds((await get(`${CAPACITY}?q=recife`, manager)).body);
    expect(recife.length).toBeGreaterThan(0);
    expect(recife.every((id) => mine.includes(id))).toBe(true);

    const other = unitIds.find((id) => !mine.includes(id))!;
    const own = capacityIds(second.body)[0]!;
    const before = await capacities();
    // a foreign unit in the post: refused whole, the manager's own unit untouched too
    expect(
      (await saveCapacities(manager, { [`vagas[${own}]`]: '4', [`vagas[${other}]`]: '4', pagina: '2' })).statusCode,
    ).toBe(403);
    expect(await capacities()).toEqual(before);
    const ok = await saveCapacities(manager, { [`vagas[${own}]`]: before.get(own) === 4 ? '5' : '4', pagina: '2' });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`${CAPACITY}?pagina=2&salvo=1`);
  });
});

describe('funnel at 300 units', () => {
  it('pages 25 units at a time, filters, keeps totals over the whole filtered set, and the CSV whole', async () => {
    const week = mondayOf(spDay(new Date()));
    const now = new Date().toISOString();
    const units = await t.db
      .selectFrom('unidades')
      .select(['id', 'nome', 'cidade'])
      .orderBy('nome')
      .orderBy('id')
      .execute();
    // clicks at the first unit of page 1 and at a Recife unit on a later page
    const recife = units.filter((u) => u.cidade === 'Recife');
    const late = recife.find((u) => units.indexOf(u) >= 25)!;
    const clicks = (unidade_id: number, n: number) =>
      Array.from({ length: n }, () => ({
        unidade_id,
        acao: 'aula_experimental',
        plano_id: null,
        semana: week,
        criado_em: now,
      }));
    await t.db
      .insertInto('cliques_cta')
      .values([...clicks(units[0]!.id, 3), ...clicks(late.id, 5)])
      .execute();
    // Clicks written straight into the table, as seed:volume does: counted as aggregates:rebuild counts them.
    await createCtaRepository(t.db).rebuildCounts();

    const first = await get(FUNNEL);
    expect(first.statusCode).toBe(200);
    expect(funnelUnits(first.body)).toHaveLength(25);
    expect(first.body).toContain('Página 1 de 12');
    expect(first.body.length).toBeLessThan(30_000); // was 58 KB
    // the "Todas" row sums every unit (8 clicks), not this page's (3)
    expect(first.body).toContain('<th scope="row">Todas (300 unidades)</th><td>8</td>');
    // the weekly table shows this page's units only
    const weekly = first.body.slice(first.body.indexOf('id="funil-semanas"'));
    expect(weekly).toContain(`<th scope="row">${units[0]!.nome}<span`);
    expect(weekly).not.toContain(`<th scope="row">${late.nome}<span class="muted"> · Recife`);
    const de = /name="de" type="date" value="([^"]+)"/.exec(first.body)![1]!;
    const ate = /name="ate" type="date" value="([^"]+)"/.exec(first.body)![1]!;
    expect(first.body).toContain(`href="${FUNNEL}?de=${de}&amp;ate=${ate}&amp;pagina=2"`);

    for (const pagina of ['0', '-1', 'abc', '99999']) {
      const res = await get(`${FUNNEL}?pagina=${pagina}`);
      expect(res.statusCode, `pagina=${pagina}`).toBe(200);
      expect(res.body).toContain(`Página ${pagina === '99999' ? 12 : 1} de 12`);
    }

    const filtered = await get(`${FUNNEL}?q=recife&de=${de}`);
    expect(funnelUnits(filtered.body)).toHaveLength(10);
    expect(funnelUnits(filtered.body).every((u) => u.endsWith(' · Recife/PE'))).toBe(true);
    expect(filtered.body).toContain('<th scope="row">Todas (10 unidades do filtro)</th><td>5</td>');
    expect(filtered.body).toContain(`href="${FUNNEL}.csv?de=${de}&amp;ate=${ate}&amp;q=recife"`);

    const paged = await get(`${FUNNEL}?q=movimento&unidade_id=&de=${de}&pagina=2`);
    expect(paged.body).toContain('Página 2 de 12');
    expect(paged.body).toContain(`href="${FUNNEL}?de=${de}&amp;ate=${ate}&amp;q=movimento&amp;pagina=3"`);
    expect(paged.body).toContain('<th scope="row">Todas (300 unidades do filtro)</th><td>8</td>');

    // the export: every unit and week of the filter, never one page
    const weeks = (Date.parse(ate) - Date.parse(de)) / (7 * 24 * 3600 * 1000) + 1;
    const csv = await get(`${FUNNEL}.csv?de=${de}&ate=${ate}`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(1 + 300 * weeks);
    const csvRecife = await get(`${FUNNEL}.csv?de=${de}&ate=${ate}&q=recife`);
    expect(csvRecife.body.trim().split('\r\n')).toHaveLength(1 + 10 * weeks);
  });

  it('a unit manager pages and filters only their units', async () => {
    const first = await get(FUNNEL, manager);
    expect(first.body).toContain('Página 1 de 3'); // 55 units
    const names = new Set(
      (await t.db.selectFrom('unidades').select(['nome', 'cidade', 'uf']).where('id', 'in', mine).execute()).map(
        (u) => `${u.nome} · ${u.cidade}/${u.uf}`,
      ),
    );
    const seen = [];
    for (const pagina of [1, 2, 3]) seen.push(...funnelUnits((await get(`${FUNNEL}?pagina=${pagina}`, manager)).body));
    expect(seen).toHaveLength(55);
    expect(seen.every((u) => names.has(u))).toBe(true);
    const csv = await get(`${FUNNEL}.csv`, manager);
    const csvUnits = new Set(
      csv.body
        .trim()
        .split('\r\n')
        .slice(1)
        .map((l) => l.split(';')[0]),
    );
    expect(csvUnits.size).toBeLessThanOrEqual(55);
    expect((await get(`${FUNNEL}?unidade_id=${unitIds.find((id) => !mine.includes(id))}`, manager)).statusCode).toBe(
      403,
    );
  });
});

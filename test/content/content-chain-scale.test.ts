// The content screens on the benchmark's catalog (300 units, 3,000 plans): the unit form
// lists the unit's plans and finds the others by a search sent with the form, and a save
// leaves alone the plans it did not show; every checkbox group of units stays a bounded
// page; an unchanged export imports back as "inalterados" (docs/decisions/178).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLargeCatalog } from '../../src/db/seeds/large';
import type { Db } from '../../src/db/index';
import { createContentServices } from '../../src/features/content/services';
import {
  CATALOG_LIMITS,
  catalogSizeProblem,
  parseCatalogText,
} from '../../src/features/content/transfer/transfer.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
const exportCatalog = (db: Db) => createContentServices({ db }).transfer.exportCatalog();
const importCatalog = (wiring: { db: Db }, data: unknown) => createContentServices(wiring).transfer.importCatalog(data);
let cookie: string;
let unitId: number;
const get = (url: string) => t.app.inject({ url, headers: { cookie } });
const post = (url: string, pairs: [string, string][]) =>
  t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(pairs),
  });

const decode = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}(?:="([^"]*)")?(?=[\\s/>]|$)`).exec(tag);
  return m ? decode(m[1] ?? '') : undefined;
};

/** What a browser sends for the form posting to `action`, without pressing any button. */
function formFields(html: string, action: string): [string, string][] {
  const start = html.indexOf(`<form method="post" action="${action}"`);
  if (start < 0) throw new Error(`no form for ${action}`);
  const body = html.slice(start, html.indexOf('</form>', start));
  const out: [string, string][] = [];
  for (const [tag] of body.matchAll(/<input\b[^>]*>/g)) {
    const name = attr(tag, 'name');
    const type = attr(tag, 'type') ?? 'text';
    if (!name || attr(tag, 'form') !== undefined) continue;
    if ((type === 'checkbox' || type === 'radio') && attr(tag, 'checked') === undefined) continue;
    out.push([name, attr(tag, 'value') ?? (type === 'checkbox' ? 'on' : '')]);
  }
  for (const m of body.matchAll(/<textarea\b([^>]*)>([^<]*)<\/textarea>/g))
    out.push([attr(m[1]!, 'name')!, decode(m[2]!)]);
  for (const m of body.matchAll(/<select\b([^>]*)>(.*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)" selected/.exec(m[2]!) ?? /<option value="?([^" >]*)"?/.exec(m[2]!);
    out.push([attr(m[1]!, 'name')!, decode(selected?.[1] ?? '')]);
  }
  return out;
}
const without = (pairs: [string, string][], drop: (k: string, v: string) => boolean) =>
  pairs.filter(([k, v]) => !drop(k, v));
const planIdsOf = async (id: number) =>
  (await t.db.selectFrom('planos_unidades').select('plano_id').where('unidade_id', '=', id).execute())
    .map((r) => r.plano_id)
    .sort((a, b) => a - b);
const boxes = (html: string, name: string) =>
  [...html.matchAll(new RegExp(`<input type="checkbox" name="${name}" value="(\\d+)"( checked)?`, 'g'))].map((m) => ({
    id: Number(m[1]),
    checked: Boolean(m[2]),
  }));

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const seeded = await seedLargeCatalog(t.db, { units: 300, plans: 3000 });
  unitId = seeded.unitIds[0]!;
  const admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Rede' });
  await createStaffUser(t.db, {
    papel: 'gerente',
    nome: 'Gabi Gerente',
    email: 'gabi@example.com',
    unidadeIds: seeded.unitIds.slice(0, 3),
  });
  cookie = await loginAs(t.app, admin.email, admin.password);
}, 120_000);
afterAll(async () => t?.close());

describe('the unit form with 3,000 plans', () => {
  it('lists the unit’s own plans ticked, not the catalog: a page of bounded size', async () => {
    const linked = await planIdsOf(unitId);
    expect(linked.length).toBeGreaterThan(5);
    const page = await get(`/admin/conteudo/unidades/${unitId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body.length).toBeLessThan(40_000); // 335 KB when every plan was a checkbox
    const plans = boxes(page.body, 'planos');
    expect(plans.map((p) => p.id).sort((a, b) => a - b)).toEqual(linked);
    expect(plans.every((p) => p.checked)).toBe(true);
    const shown = /name="planos_exibidos" value="([\d,]+)"/.exec(page.body)![1]!.split(',').map(Number);
    expect(shown.sort((a, b) => a - b)).toEqual(linked);
    expect(page.body).toContain('3000 planos no catálogo');
    // Enter in a field saves: the form's first submit button is a save, not the search
    const firstButton =
      /<form method="post" action="\/admin\/conteudo\/unidades\/\d+" novalidate>.*?<button([^>]*)>/.exec(
        page.body,
      )![1]!;
    expect(firstButton).toContain('name="enviar" value="padrao"');

    const blank = await get('/admin/conteudo/unidades/nova');
    expect(blank.body.length).toBeLessThan(30_000);
    expect(boxes(blank.body, 'planos')).toEqual([]);
    expect(blank.body).toContain('Nenhum plano marcado.');
  });

  it('"Buscar planos" shows the form again as typed with the matching plans, and saves nothing', async () => {
    const before = await t.db
      .selectFrom('unidades')
      .select(['nome', 'atualizado_em'])
      .where('id', '=', unitId)
      .executeTakeFirstOrThrow();
    const linked = await planIdsOf(unitId);
    const fields = formFields(
      (await get(`/admin/conteudo/unidades/${unitId}`)).body,
      `/admin/conteudo/unidades/${unitId}`,
    );
    const typed = without(fields, (k) => k === 'nome' || k === 'planos_q');
    const res = await post(`/admin/conteudo/unidades/${unitId}`, [
      ...typed,
      ['nome', 'Nome Ainda Não Salvo'],
      ['planos_q', '  ANUAL   recife '],
      ['buscar_planos', '1'],
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Nada foi gravado ainda.');
    expect(res.body).toContain('value="Nome Ainda Não Salvo"');
    const found = boxes(res.body, 'planos').filter((b) => !linked.includes(b.id));
    expect(found.length).toBeGreaterThan(0);
    expect(found.length).toBeLessThanOrEqual(50);
    expect(found.every((b) => !b.checked)).toBe(true);
    const names = await t.db
      .selectFrom('planos')
      .select('nome')
      .where(
        'id',
        'in',
        found.map((b) => b.id),
      )
      .execute();
    expect(names.every((n) => /^Plano Anual Recife \d+$/.test(n.nome))).toBe(true);
    expect(res.body).toMatch(/\d+ planos fora da lista acima contêm “ANUAL recife”\./);
    expect(
      await t.db
        .selectFrom('unidades')
        .select(['nome', 'atualizado_em'])
        .where('id', '=', unitId)
        .executeTakeFirstOrThrow(),
    ).toEqual(before);

    const many = await post(`/admin/conteudo/unidades/${unitId}`, [
      ...typed,
      ['planos_q', 'mensal'],
      ['buscar_planos', '1'],
    ]);
    expect(many.body).toMatch(
      /\d{4} planos fora da lista acima contêm “mensal”; aqui os 50 primeiros: refine a busca para ver os outros\./,
    );
    expect(boxes(many.body, 'planos').length).toBe(linked.length + 50);
    expect(many.body.length).toBeLessThan(50_000);
    const none = await post(`/admin/conteudo/unidades/${unitId}`, [
      ...typed,
      ['planos_q', 'nada-assim'],
      ['buscar_planos', '1'],
    ]);
    expect(none.body).toContain('Nenhum outro plano contém “nada-assim”.');

    // Enter (the first button, enviar=padrao): a search when one is typed, a save otherwise
    const enter = await post(`/admin/conteudo/unidades/${unitId}`, [
      ...typed,
      ['nome', before.nome],
      ['planos_q', 'anual recife'],
      ['enviar', 'padrao'],
    ]);
    expect(enter.statusCode).toBe(200);
    expect(enter.body).toContain('Nada foi gravado ainda.');
    const saved = await post(`/admin/conteudo/unidades/${unitId}`, [
      ...typed,
      ['nome', before.nome],
      ['planos_q', ''],
      ['enviar', 'padrao'],
    ]);
    expect(saved.statusCode, saved.body.match(/<ul class="error-summary.*?<\/ul>|alert-error.*?<\/div>/s)?.[0]).toBe(
      303,
    );
    expect(await planIdsOf(unitId)).toEqual(linked);
  });

  it(`a save with a search applied links the ticked result and unlinks the unticked, and leaves every plan it did \
not show as it was`, async () => {
    const url = `/admin/conteudo/unidades/${unitId}`;
    const linked = await planIdsOf(unitId);
    const fields = formFields((await get(url)).body, url);
    const searched = await post(url, [
      ...fields.filter(([k]) => k !== 'planos_q'),
      ['planos_q', 'anual recife'],
      ['buscar_planos', '1'],
    ]);
    const form2 = formFields(searched.body, url);
    const result = boxes(searched.body, 'planos').find((b) => !linked.includes(b.id))!;
    const dropped = linked.find((id) => id !== 1)!;
    // Meanwhile someone links another plan to this unit on the plan's page: not on this form.
    const elsewhere = (
      await t.db
        .selectFrom('planos')
        .select('id')
        .where('nome', 'like', 'Plano Mensal Manaus%')
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    expect(linked).not.toContain(elsewhere);
    await t.db.insertInto('planos_unidades').values({ plano_id: elsewhere, unidade_id: unitId }).execute();

    const res = await post(url, [
      ...without(form2, (k, v) => k === 'planos' && v === String(dropped)),
      ['planos', String(result.id)],
    ]);
    expect(res.statusCode).toBe(303);
    expect(await planIdsOf(unitId)).toEqual(
      [...linked.filter((id) => id !== dropped), result.id, elsewhere].sort((a, b) => a - b),
    );

    // a plan the form did not show cannot be linked by adding it to the POST (stale or crafted)
    const unshown = (
      await t.db
        .selectFrom('planos')
        .select('id')
        .where('nome', 'like', 'Plano Mensal Salvador%')
        .orderBy('id')
        .executeTakeFirstOrThrow()
    ).id;
    const before = await planIdsOf(unitId);
    expect(before).not.toContain(unshown);
    const crafted = await post(url, [
      ...without(form2, (k, v) => k === 'planos' && v === String(dropped)),
      ['planos', String(result.id)],
      ['planos', String(unshown)],
    ]);
    expect(crafted.statusCode).toBe(303);
    expect(await planIdsOf(unitId)).toEqual(before);

    // a client that sends no planos_exibidos sends the whole list (the form's old contract)
    const whole = await post(url, [
      ...without(form2, (k) => k === 'planos' || k === 'planos_exibidos'),
      ['planos', '1'],
    ]);
    expect(whole.statusCode).toBe(303);
    expect(await planIdsOf(unitId)).toEqual([1]);
    // restore
    await post(url, [
      ...without(form2, (k) => k === 'planos' || k === 'planos_exibidos'),
      ...linked.map((id): [string, string] => ['planos', String(id)]),
    ]);
    expect(await planIdsOf(unitId)).toEqual(linked);
  });

  it('a new unit finds its plans with the search before it is created', async () => {
    const url = '/admin/conteudo/unidades/nova';
    const fields = without(formFields((await get(url)).body, url), (k) =>
      ['nome', 'cidade', 'uf', 'bairro', 'endereco', 'planos_q'].includes(k),
    );
    const typed: [string, string][] = [
      ['nome', 'Movimento Teste Busca'],
      ['cidade', 'Recife'],
      ['uf', 'PE'],
      ['bairro', 'Derby'],
      ['endereco', 'Rua A, 1'],
    ];
    const searched = await post(url, [...fields, ...typed, ['planos_q', 'plano mensal'], ['buscar_planos', '1']]);
    expect(searched.statusCode).toBe(200);
    expect(searched.body).toContain('value="Movimento Teste Busca"');
    const chosen = boxes(searched.body, 'planos')
      .slice(0, 2)
      .map((b) => b.id);
    expect(chosen).toHaveLength(2);
    const created = await post(url, [
      ...without(formFields(searched.body, url), (k) => k === 'planos_q'),
      ...chosen.map((id): [string, string] => ['planos', String(id)]),
    ]);
    expect(created.statusCode).toBe(303);
    const id = Number(/unidades\/(\d+)\?ok=criado/.exec(String(created.headers.location))![1]);
    expect(await planIdsOf(id)).toEqual(chosen.sort((a, b) => a - b));
  });
});

describe('the other checkbox groups of units, 300 units', () => {
  it('plan, area, modality and account pages group the units by city with a filter, at a bounded size', async () => {
    const plan = await t.db
      .selectFrom('planos')
      .select('id')
      .where('nome', 'like', 'Plano Anual Recife%')
      .executeTakeFirstOrThrow();
    const gerente = await t.db
      .selectFrom('usuarios')
      .select('id')
      .where('email', '=', 'gabi@example.com')
      .executeTakeFirstOrThrow();
    const units = (await t.db.selectFrom('unidades').select('id').execute()).length;
    expect(units).toBeGreaterThanOrEqual(300);
    for (const url of [
      `/admin/conteudo/planos/${plan.id}`,
      '/admin/conteudo/planos/novo',
      '/admin/conteudo/areas/1',
      '/admin/conteudo/modalidades/1',
      '/admin/conteudo/areas/nova',
      '/admin/contas/nova',
      `/admin/contas/${gerente.id}`,
    ]) {
      const page = await get(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body.length, url).toBeLessThan(64_000);
      expect(page.body, url).toContain('data-checklist');
      expect([...page.body.matchAll(/<details( open)?><summary>/g)], url).toHaveLength(30); // 30 cities
      expect([...page.body.matchAll(/name="unidades"/g)], url).toHaveLength(units);
    }
  });

  it('the timetable’s "Copiar de" groups the 300 units by city', async () => {
    const units = (await t.db.selectFrom('unidades').select('id').execute()).length;
    const page = await get(`/admin/conteudo/unidades/${unitId}/aulas`);
    expect(page.statusCode).toBe(200);
    expect(page.body.length).toBeLessThan(80_000);
    const select = /<select id="copiar-origem_id" name="origem_id">(.*?)<\/select>/.exec(page.body)![1]!;
    expect([...select.matchAll(/<optgroup label="([^"]+)">/g)].map((m) => m[1])).toContain('Recife/PE');
    expect([...select.matchAll(/<option value="\d+"/g)]).toHaveLength(units - 1); // not the unit itself
  });
});

describe('catalog import of the chain', () => {
  it('an unchanged export imports back: everything unchanged, nothing created or written', async () => {
    const file = await exportCatalog(t.db);
    const text = `${JSON.stringify(file, null, 2)}\n`; // as catalog:export writes it
    expect(catalogSizeProblem(Buffer.byteLength(text))).toBeNull();
    const parsed = parseCatalogText(text);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    const stamps = await t.db.selectFrom('planos').select(['id', 'atualizado_em']).orderBy('id').execute();
    const res = await importCatalog({ db: t.db }, parsed.data);
    expect(res).toEqual({
      ok: true,
      resumo: {
        areas: { criados: 0, atualizados: 0, inalterados: 10 },
        modalidades: { criados: 0, atualizados: 0, inalterados: 14 },
        unidades: { criados: 0, atualizados: 0, inalterados: 301 }, // 300 + the one created above
        planos: { criados: 0, atualizados: 0, inalterados: 3000 },
        perguntas: { criados: 0, atualizados: 0, inalterados: 0 },
      },
    });
    expect(await t.db.selectFrom('planos').select(['id', 'atualizado_em']).orderBy('id').execute()).toEqual(stamps);
    expect(await exportCatalog(t.db)).toEqual(file);
  }, 60_000);

  it(`a modality spelled in another case or without accents renames the one row and counts as updated; its units \
stay unchanged`, async () => {
    const file = await exportCatalog(t.db);
    file.modalidades = file.modalidades.map((m) => (m.nome === 'Natação' ? { ...m, nome: 'NATACAO' } : m));
    file.planos[5]!.preco_centavos += 10;
    const res = await importCatalog({ db: t.db }, file);
    expect(res.ok && res.resumo).toMatchObject({
      modalidades: { criados: 0, atualizados: 1, inalterados: 13 },
      unidades: { criados: 0, atualizados: 0, inalterados: 301 },
      planos: { criados: 0, atualizados: 1, inalterados: 2999 },
    });
    const natacao = await t.db
      .selectFrom('modalidades')
      .select('nome')
      .where('nome', 'in', ['Natação', 'NATACAO', 'natacao'])
      .execute();
    expect(natacao.map((m) => m.nome)).toEqual(['NATACAO']);
  }, 60_000);

  it('the limits: a chain far larger than this one fits; a file over the byte limit is refused before parsing', () => {
    expect(CATALOG_LIMITS.units).toBeGreaterThanOrEqual(1_000);
    expect(CATALOG_LIMITS.plans).toBeGreaterThanOrEqual(20_000);
    expect(catalogSizeProblem(CATALOG_LIMITS.bytes)).toBeNull();
    expect(catalogSizeProblem(CATALOG_LIMITS.bytes + 1)).toBe(
      '(arquivo): arquivo grande demais (80,0 MB; o máximo é 80 MB).',
    );
    const huge = `{"versao":1,"x":"${'a'.repeat(CATALOG_LIMITS.bytes)}"}`;
    expect(parseCatalogText(huge)).toEqual({
      ok: false,
      problemas: [expect.stringMatching(/^\(arquivo\): arquivo grande demais/)],
    });
  });
});

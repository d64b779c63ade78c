// The public site that sells, on both engines: units near me (page and JSON),
// calls to action counted on the server and the staff report, search by modality/area,
// sitemap, robots, canonical + Open Graph, brand settings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index';
import { invalidateCatalogCache } from '../../src/features/catalog/index';
import { ctaTarget, weekOf, lastWeeks } from '../../src/features/cta/cta';
import { createCtaRepository } from '../../src/features/cta/cta.repository';
import { placeForCep, placeForCity } from '../../src/features/catalog/places';
import { configureBrand } from '../../src/brand/index';
import { ConfigError, loadConfig } from '../../src/config';
import { createTestApp, type TestContext } from '../helpers/app';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
const ids: Record<string, number> = {};
const PUBLIC_URL = 'https://www.exemplo-academia.com.br';

beforeAll(async () => {
  t = await createTestApp({
    env: { PUBLIC_URL, BRAND_WHATSAPP: '(11) 4000-1234', BRAND_INSTAGRAM: 'https://instagram.com/academiamovimento' },
  });
  for (const u of await t.db.selectFrom('unidades').select(['id', 'nome']).execute()) ids[u.nome] = u.id;
});
afterAll(async () => {
  await t?.close();
});

const json = async (url: string) => {
  const res = await t.app.inject({ url, headers: { accept: 'application/json' } });
  return { status: res.statusCode, body: res.json() };
};

describe('GET /unidades.json', () => {
  it('lists units by ascending distance with distancia_km, limit 10 by default', async () => {
    const { status, body } = await json('/unidades.json?lat=-23.60&lng=-46.665');
    expect(status).toBe(200);
    expect(body.length).toBe(7); // active units only
    expect(body[0]).toMatchObject({
      id: ids['Movimento Moema'],
      nome: 'Movimento Moema',
      cidade: 'São Paulo',
      bairro: 'Moema',
    });
    expect(body[0].distancia_km).toBeLessThan(1);
    expect(body[1].nome).toBe('Movimento Pinheiros');
    expect(body[1].distancia_km).toBeGreaterThan(3);
    expect(body[1].distancia_km).toBeLessThan(6);
    for (let i = 1; i < body.length; i++) expect(body[i].distancia_km).toBeGreaterThanOrEqual(body[i - 1].distancia_km);
    expect(Object.keys(body[0]).sort()).toEqual(['bairro', 'cidade', 'distancia_km', 'id', 'nome']);
    expect(body.map((u: { id: number }) => u.id)).not.toContain(ids['Movimento Cambuí']);
  });

  it('honours limit 1–50 and puts units without coordinates last, without a distance', async () => {
    expect((await json('/unidades.json?lat=-25.44&lng=-49.29&limit=1')).body).toEqual([
      expect.objectContaining({ nome: 'Movimento Batel' }),
    ]);
    const now = nowIso();
    const { id } = await t.db
      .insertInto('unidades')
      .values({
        nome: 'Movimento Sem Mapa',
        slug: 'sem-mapa',
        cidade: 'Curitiba',
        uf: 'PR',
        bairro: 'Centro',
        endereco: 'Rua X, 1',
        latitude: null,
        longitude: null,
        criado_em: now,
        atualizado_em: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    invalidateCatalogCache(t.app);
    const all = (await json('/unidades.json?lat=-25.44&lng=-49.29&limit=50')).body;
    expect(all.at(-1)).toEqual({
      id,
      nome: 'Movimento Sem Mapa',
      cidade: 'Curitiba',
      bairro: 'Centro',
      distancia_km: null,
    });
    await t.db.deleteFrom('unidades').where('id', '=', id).execute();
    invalidateCatalogCache(t.app);
  });

  it('answers 400 {error, message} for a missing or out-of-range lat/lng or a bad limit', async () => {
    for (const q of [
      '',
      'lat=-23.5',
      'lng=-46.6',
      'lat=abc&lng=1',
      'lat=91&lng=0',
      'lat=0&lng=-181',
      'lat=1e2&lng=3',
      'lat=&lng=',
      'lat=0&lng=0&limit=0',
      'lat=0&lng=0&limit=51',
      'lat=0&lng=0&limit=x',
      'lat=0&lng=0&lat=1',
    ]) {
      const res = await json(`/unidades.json?${q}`);
      expect(res.status, q).toBe(400);
      expect(Object.keys(res.body).sort(), q).toEqual(['error', 'message']);
    }
  });
});

describe('GET /unidades', () => {
  it('lists the active units by city, with a CEP and a city form', async () => {
    const res = await t.app.inject('/unidades');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<h1>Unidades</h1>');
    expect(res.body).toContain('Curitiba – PR');
    expect(res.body).toContain('name="cep"');
    expect(res.body).toContain('name="cidade"');
    expect(res.body).not.toContain('Movimento Cambuí');
    expect(res.body).toContain(`<link rel="canonical" href="${PUBLIC_URL}/unidades"/>`);
  });

  it('sorts by distance from lat/lng and shows "a 2,4 km"', async () => {
    const res = await t.app.inject('/unidades?lat=-23.5665&lng=-46.6917');
    expect(res.statusCode).toBe(200);
    const names = [...res.body.matchAll(/<a class="unit-name" href="\/Detalhes\.php\?id=\d+">([^<]+)<\/a>/g)].map(
      (m) => m[1],
    );
    expect(names.slice(0, 2)).toEqual(['Movimento Pinheiros', 'Movimento Moema']);
    expect(res.body).toMatch(/Movimento Moema[\s\S]*? · a \d+,\d km/);
    expect(res.body).toContain('a menos de 1 km');
  });

  it('finds the place from a CEP or a city name without JavaScript', async () => {
    const cep = await t.app.inject('/unidades?cep=80420-090');
    expect(cep.statusCode).toBe(200);
    expect(cep.body).toContain('Unidades perto de CEP 80420-090 (Curitiba – PR)');
    expect(/<a class="unit-name"[^>]*>([^<]+)</.exec(cep.body)?.[1]).toBe('Movimento Batel');
    const city = await t.app.inject(`/unidades?cidade=${encodeURIComponent('belo horizonte')}`);
    expect(/<a class="unit-name"[^>]*>([^<]+)</.exec(city.body)?.[1]).toBe('Movimento Savassi');
    const accents = await t.app.inject(`/unidades?cidade=${encodeURIComponent('SAO PAULO - SP')}`);
    expect(accents.body).toContain('Unidades perto de São Paulo – SP');
  });

  it('keeps the values and explains a bad or unknown CEP or city, never 5xx', async () => {
    const bad = await t.app.inject('/unidades?cep=123');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Digite o CEP com 8 números');
    expect(bad.body).toContain('value="123"');
    expect(bad.body).toContain('aria-invalid="true"');
    const far = await t.app.inject('/unidades?cep=69000-000');
    expect(far.statusCode).toBe(200);
    expect(far.body).toContain('Ainda não temos unidade na região desse CEP');
    const city = await t.app.inject('/unidades?cidade=Manaus');
    expect(city.body).toContain('Ainda não temos unidade nessa cidade');
    const point = await t.app.inject('/unidades?lat=100&lng=0');
    expect(point.statusCode).toBe(400);
    expect(point.body).toContain('Não foi possível usar essa localização');
    expect((await t.app.inject(`/unidades?cidade=${'x'.repeat(300)}`)).statusCode).toBe(400);
  });

  it('offline CEP and city table', () => {
    expect(placeForCep('05422001')).toMatchObject({ cidade: 'São Paulo', uf: 'SP' });
    expect(placeForCep('22270-005')).toMatchObject({ cidade: 'Rio de Janeiro' });
    expect(placeForCep('abc')).toBe('invalid');
    expect(placeForCep('99999-999')).toBeNull();
    expect(placeForCity('recife')).toMatchObject({ cidade: 'Recife', uf: 'PE' });
  });
});

describe('calls to action', () => {
  // Pinheiros and Batel sell no plan online here (no legal entity), so "Matricule-se" goes to WhatsApp there.
  beforeAll(async () => {
    await t.db
      .updateTable('unidades')
      .set({ cnpj: null, razao_social: null })
      .where('id', 'in', [ids['Movimento Pinheiros']!, ids['Movimento Batel']!])
      .execute();
    invalidateCatalogCache(t.app);
  });

  it('where the unit sells online, "Matricule-se" opens the enrolment with the unit and plan, and counts', async () => {
    const id = ids['Movimento Moema']!;
    const plan = await t.db
      .selectFrom('planos_unidades as pu')
      .innerJoin('planos as p', 'p.id', 'pu.plano_id')
      .select('pu.plano_id')
      .where('pu.unidade_id', '=', id)
      .where('pu.venda_online', '=', 1)
      .where('pu.mensalidade_centavos', 'is not', null)
      .where('p.ativo', '=', 1)
      .executeTakeFirstOrThrow();
    const res = await t.app.inject(`/ir/matricula?unidade=${id}&plano=${plan.plano_id}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/matricula?unidade=${id}&plano=${plan.plano_id}`);
    const row = await t.db.selectFrom('cliques_cta').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ unidade_id: id, acao: 'matricula', plano_id: plan.plano_id });
    // the click reports below count the WhatsApp tests' clicks only
    await t.db.deleteFrom('cliques_cta').where('id', '=', row.id).execute();
    // removed straight from the table, so recounted as aggregates:rebuild recounts
    await createCtaRepository(t.db).rebuildCounts();
  });

  it(`the unit page has "Matricule-se", the trial class, a button per plan, the benefit as a secondary link and the \
unit in the feedback links`, async () => {
    const id = ids['Movimento Pinheiros']!;
    const html = (await t.app.inject(`/Detalhes.php?id=${id}`)).body;
    expect(html).toContain(`href="/ir/matricula?unidade=${id}"`);
    expect(html).toContain(`href="/ir/aula_experimental?unidade=${id}"`);
    expect(html).toMatch(new RegExp(`href="/ir/matricula\\?unidade=${id}&amp;plano=\\d+"`));
    expect(html).toContain('class="bottom-bar"');
    expect(html).toContain(
      `<p class="cta-benefit"><a href="/pages/Pass/index.php?id=${id}">Treine aqui com Wellhub</a></p>`,
    );
    expect(html).toContain(`href="/NPS/nps_app_php/fale_aqui.php?unidade=${id}"`);
    expect(html).toContain(`href="/NPS/nps_app_php/index.php?unidade_id=${id}"`);
  });

  it('the feedback forms preselect the unit passed as ?unidade=', async () => {
    const id = ids['Movimento Moema']!;
    const fale = (await t.app.inject(`/NPS/nps_app_php/fale_aqui.php?unidade=${id}`)).body;
    expect(fale).toMatch(new RegExp(`<option[^>]*value="${id}"[^>]*selected|<option[^>]*selected[^>]*value="${id}"`));
    const survey = await t.app.inject(`/NPS/nps_app_php/index.php?unidade=${id}`);
    expect(survey.statusCode).toBe(200);
    expect(survey.body).toContain(`name="unidade_id" value="${id}"`);
  });

  it(`/ir/ counts the click (no cookie) and redirects to WhatsApp with a message naming the unit and the \
plan`, async () => {
    const id = ids['Movimento Pinheiros']!;
    const plan = await t.db
      .selectFrom('planos')
      .select(['id'])
      .where('nome', '=', 'Plano Anual')
      .executeTakeFirstOrThrow();
    const before = await t.db
      .selectFrom('cliques_cta')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const res = await t.app.inject(`/ir/matricula?unidade=${id}&plano=${plan.id}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
    const target = new URL(String(res.headers.location));
    expect(target.origin + target.pathname).toBe('https://wa.me/5511987451200');
    expect(target.searchParams.get('text')).toBe(
      'Olá! Quero me matricular na Movimento Pinheiros no Plano Anual. Pode me ajudar?',
    );
    const row = await t.db.selectFrom('cliques_cta').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row).toMatchObject({ unidade_id: id, acao: 'matricula', plano_id: plan.id, semana: weekOf(new Date()) });
    const after = await t.db
      .selectFrom('cliques_cta')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n) + 1);

    // to the booking page when the app has one; until then, a WhatsApp message asking for the class
    const trial = await t.app.inject(`/ir/aula_experimental?unidade=${id}`);
    if (t.app.hasRoute({ method: 'GET', url: '/aula-experimental' })) {
      expect(trial.headers.location).toBe(`/aula-experimental?unidade=${id}`);
    } else {
      const wa = new URL(String(trial.headers.location));
      expect(wa.origin + wa.pathname).toBe('https://wa.me/5511987451200');
      expect(wa.searchParams.get('text')).toBe('Olá! Quero agendar uma aula experimental na Movimento Pinheiros.');
    }
    // HEAD (link previews) does not count
    await t.app.inject({ method: 'HEAD', url: `/ir/aula_experimental?unidade=${id}` });
    const trials = await t.db
      .selectFrom('cliques_cta')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('acao', '=', 'aula_experimental')
      .executeTakeFirstOrThrow();
    expect(Number(trials.n)).toBe(1);
  });

  it('a plan the unit does not offer is left out; a unit without WhatsApp uses the chain number', async () => {
    const familia = await t.db
      .selectFrom('planos')
      .select('id')
      .where('nome', '=', 'Plano Família')
      .executeTakeFirstOrThrow();
    const res = await t.app.inject(`/ir/matricula?unidade=${ids['Movimento Pinheiros']}&plano=${familia.id}`);
    expect(new URL(String(res.headers.location)).searchParams.get('text')).toBe(
      'Olá! Quero me matricular na Movimento Pinheiros. Pode me ajudar?',
    );
    await t.db.updateTable('unidades').set({ whatsapp: null }).where('id', '=', ids['Movimento Batel']!).execute();
    invalidateCatalogCache(t.app);
    const chain = await t.app.inject(`/ir/matricula?unidade=${ids['Movimento Batel']}`);
    expect(String(chain.headers.location)).toMatch(/^https:\/\/wa\.me\/551140001234\?text=/);
  });

  it(`never redirects anywhere else: unknown actions 404, bad ids 400, inactive units 404, nothing \
counted`, async () => {
    const before = Number(
      (
        await t.db
          .selectFrom('cliques_cta')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const cases: [string, number][] = [
      ['/ir/evil?unidade=1', 404],
      [`/ir/matricula?unidade=${ids['Movimento Cambuí']}`, 404],
      ['/ir/matricula?unidade=abc', 400],
      ['/ir/matricula', 400],
      [`/ir/matricula?unidade=${ids['Movimento Pinheiros']}&plano=-1`, 400],
      [`/ir/matricula?unidade=${ids['Movimento Pinheiros']}&url=https://evil.example`, 302],
      [`/ir/beneficio?unidade=${ids['Movimento Boa Viagem']}`, 404],
    ];
    for (const [url, status] of cases) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(status);
      if (status === 302) expect(String(res.headers.location)).toMatch(/^https:\/\/wa\.me\//);
    }
    const after = Number(
      (
        await t.db
          .selectFrom('cliques_cta')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before + 1);
  });

  it('staff see clicks per unit and week: admins every unit, a manager only theirs', async () => {
    const admin = await createStaffUser(t.db, { papel: 'admin' });
    const manager = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [ids['Movimento Moema']!] });
    await t.app.inject(`/ir/aula_experimental?unidade=${ids['Movimento Moema']}`);
    const asAdmin = await t.app.inject({
      url: '/admin/cliques',
      headers: { cookie: await loginAs(t.app, admin.email, admin.password) },
    });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.body).toContain('Movimento Pinheiros');
    expect(asAdmin.body).toContain('Movimento Moema');
    const monday = weekOf(new Date());
    expect(asAdmin.body).toContain(`${monday.slice(8, 10)}/${monday.slice(5, 7)}/${monday.slice(0, 4)}`);
    const cookie = await loginAs(t.app, manager.email, manager.password);
    const mine = await t.app.inject({ url: '/admin/cliques', headers: { cookie } });
    expect(mine.statusCode).toBe(200);
    expect(mine.body).toContain('Movimento Moema');
    expect(mine.body).not.toContain('Movimento Pinheiros');
    expect(mine.body).toMatch(/<strong>1<\/strong> clique no período/);
    expect(
      (await t.app.inject({ url: `/admin/cliques?unidade_id=${ids['Movimento Pinheiros']}`, headers: { cookie } }))
        .statusCode,
    ).toBe(403);
    expect((await t.app.inject('/admin/cliques')).statusCode).toBe(303);
  });

  it('the trial class goes to the booking page once the app has one', () => {
    const unit = { id: 3, nome: 'Movimento X', whatsapp: null, beneficio_url: null };
    expect(ctaTarget('aula_experimental', unit, null, null, true)).toBe('/aula-experimental?unidade=3');
    expect(ctaTarget('aula_experimental', unit, null, null, false)).toBeNull();
    expect(ctaTarget('aula_experimental', unit, null, '551140001234', false)).toMatch(
      /^https:\/\/wa\.me\/551140001234\?text=/,
    );
  });

  it('weeks are São Paulo Mondays', () => {
    expect(weekOf(new Date('2026-11-23T02:00:00Z'))).toBe('2026-11-16'); // Sunday 23:00 in São Paulo
    expect(weekOf(new Date('2026-11-23T03:00:00Z'))).toBe('2026-11-23');
    expect(lastWeeks(3, new Date('2026-11-25T12:00:00Z'))).toEqual(['2026-11-23', '2026-11-16', '2026-11-09']);
  });
});

describe('search by modality or area', () => {
  const search = async (q: string) =>
    (await json(`/search_ajax.php?q=${encodeURIComponent(q)}`)).body as { tipo: string; id: number; nome: string }[];

  it('"pilates", "piscina", "spinning" list the units that offer them, accent- and case-insensitive', async () => {
    expect((await search('pilates')).map((i) => i.nome).sort()).toEqual(['Movimento Moema', 'Movimento Savassi']);
    expect((await search('PISCINA')).map((i) => i.nome).sort()).toEqual([
      'Movimento Batel',
      'Movimento Boa Viagem',
      'Movimento Moema',
    ]);
    const spinning = await search('spínning');
    expect(spinning.every((i) => i.tipo === 'unidade')).toBe(true);
    expect(spinning.map((i) => i.nome).sort()).toEqual(['Movimento Batel', 'Movimento Pinheiros', 'Movimento Savassi']);
    expect(await search('natacao')).toContainEqual({
      tipo: 'unidade',
      id: ids['Movimento Moema'],
      nome: 'Movimento Moema',
      cidade: 'São Paulo',
    });
  });

  it('ranks exact name matches before units that only offer the modality', async () => {
    const now = nowIso();
    const { id } = await t.db
      .insertInto('unidades')
      .values({
        nome: 'Pilates',
        slug: 'pilates-studio',
        cidade: 'Recife',
        uf: 'PE',
        bairro: 'Derby',
        endereco: 'Rua Y, 2',
        criado_em: now,
        atualizado_em: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    invalidateCatalogCache(t.app);
    const items = await search('pilates');
    expect(items[0]).toMatchObject({ id, nome: 'Pilates' });
    expect(
      items
        .slice(1)
        .map((i) => i.nome)
        .sort(),
    ).toEqual(['Movimento Moema', 'Movimento Savassi']);
    // words over name and modality: "pilates moema"
    expect((await search('pilates moema')).map((i) => i.nome)).toEqual(['Movimento Moema']);
    await t.db.deleteFrom('unidades').where('id', '=', id).execute();
    invalidateCatalogCache(t.app);
  });
});

describe('search engines and shared links', () => {
  it(`sitemap.xml lists home, /unidades and every active unit page and benefit page with lastmod, from \
PUBLIC_URL`, async () => {
    const res = await t.app.inject('/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/xml/);
    const locs = [...res.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]!.replace(/&amp;/g, '&'));
    expect(locs).toContain(`${PUBLIC_URL}/`);
    expect(locs).toContain(`${PUBLIC_URL}/unidades`);
    const active = await t.db.selectFrom('unidades').select(['id', 'atualizado_em']).where('ativo', '=', 1).execute();
    for (const u of active) {
      expect(locs).toContain(`${PUBLIC_URL}/Detalhes.php?id=${u.id}`);
      expect(locs).toContain(`${PUBLIC_URL}/pages/Pass/index.php?id=${u.id}`);
      expect(res.body).toContain(
        `<url><loc>${PUBLIC_URL}/Detalhes.php?id=${u.id}</loc><lastmod>${u.atualizado_em.slice(0, 10)}</lastmod></url>`,
      );
    }
    expect(locs).not.toContain(`${PUBLIC_URL}/Detalhes.php?id=${ids['Movimento Cambuí']}`);
    expect(locs).toContain(`${PUBLIC_URL}/privacidade`);
    expect(locs.length).toBe(3 + active.length * 2);
  });

  it('robots.txt names the sitemap and disallows the staff area', async () => {
    const res = await t.app.inject('/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    expect(res.body).toContain('Disallow: /admin/');
    expect(res.body).toContain('Disallow: /pages/Franquia/admin.php');
    expect(res.body).toContain('Disallow: /ir/');
  });

  it(`public pages carry a canonical link, og:title, og:description and an absolute og:image that answers \
200`, async () => {
    const id = ids['Movimento Pinheiros'];
    for (const path of [
      '/',
      `/Detalhes.php?id=${id}`,
      `/pages/Pass/index.php?id=${id}`,
      '/unidades',
      '/privacidade',
      '/pages/Franquia/index.php',
    ]) {
      const html = (await t.app.inject(path)).body;
      const canonical = /<link rel="canonical" href="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, '&');
      expect(canonical, path).toBe(`${PUBLIC_URL}${path === '/unidades' ? '/unidades' : path}`);
      expect(html, path).toMatch(/<meta property="og:title" content="[^"]+"\/>/);
      expect(html, path).toMatch(/<meta property="og:description" content="[^"]+"\/>/);
      const image = /<meta property="og:image" content="([^"]+)"/.exec(html)?.[1];
      expect(image, path).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/`));
      const img = await t.app.inject(new URL(image!).pathname);
      expect(img.statusCode, image).toBe(200);
      expect(String(img.headers['content-type'])).toMatch(/^image\//);
    }
    // staff pages: no canonical, never indexed
    const login = (await t.app.inject('/pages/Franquia/admin.php')).body;
    expect(login).not.toContain('rel="canonical"');
  });

  it('the brand card is a 1200×630 PNG', async () => {
    const res = await t.app.inject('/brand/card.png');
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.readUInt32BE(16)).toBe(1200);
    expect(res.rawPayload.readUInt32BE(20)).toBe(630);
  });
});

describe('brand', () => {
  it('name, chain WhatsApp and social links come from settings; colours from the theme stylesheet', async () => {
    const html = (await t.app.inject('/')).body;
    expect(html).toContain('href="https://wa.me/551140001234"');
    expect(html).toContain('href="https://instagram.com/academiamovimento"');
    expect(html).toContain('<img src="/brand/logo.svg"');
    const css = await t.app.inject('/brand/theme.css');
    expect(css.statusCode).toBe(200);
    expect(css.body).toContain('--brand:#0b6e4f');
    expect((await t.app.inject('/brand/logo.svg')).statusCode).toBe(200);
  });

  it('another chain: BRAND_NAME renames every page', async () => {
    const other = await createTestApp({ env: { BRAND_NAME: 'Rede Exemplo Fitness' } });
    try {
      for (const path of ['/', '/pages/Franquia/index.php', `/Detalhes.php?id=${ids['Movimento Pinheiros']}`]) {
        const html = (await other.app.inject(path)).body;
        expect(html, path).toContain('Rede Exemplo Fitness');
        expect(html, path).not.toContain('Academia Movimento<');
      }
    } finally {
      await other.close();
      // the brand is per process: put this suite's back
      configureBrand(t.config);
    }
  });

  it('bad brand settings stop the start with a message per variable', () => {
    expect(() => loadConfig({ BRAND_WHATSAPP: '123' })).toThrow(ConfigError);
    expect(() => loadConfig({ BRAND_WHATSAPP: '123' })).toThrow(/BRAND_WHATSAPP/);
    expect(() => loadConfig({ BRAND_INSTAGRAM: 'http://instagram.com/x' })).toThrow(/BRAND_INSTAGRAM/);
    expect(loadConfig({ BRAND_WHATSAPP: '(11) 4000-1234' }).brandWhatsapp).toBe('+551140001234');
  });

  it('Permissions-Policy lets our own pages ask for the location', async () => {
    const res = await t.app.inject('/');
    expect(res.headers['permissions-policy']).toContain('geolocation=(self)');
  });
});

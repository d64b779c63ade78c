import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index';
import { invalidateCatalogCache } from '../../src/features/catalog/index';
import { createCatalogRepository } from '../../src/features/catalog/catalog.repository';
import { createCatalogService, isOpenAt, weekdaysFrom } from '../../src/features/catalog/catalog.service';
import { queryId } from '../../src/lib/form/index';
import { createTestApp, type TestContext } from '../helpers/app';

let t: TestContext;
const ids: Record<string, number> = {};

async function unitId(nome: string): Promise<number> {
  return (await t.db.selectFrom('unidades').select('id').where('nome', '=', nome).executeTakeFirstOrThrow()).id;
}

let slugCounter = 0;
async function addUnit(
  values: Partial<{
    nome: string;
    cidade: string;
    bairro: string;
    uf: string;
    ativo: number;
    beneficio_nome: string | null;
    beneficio_url: string | null;
    latitude: number | null;
    longitude: number | null;
    descricao: string | null;
  }>,
) {
  const now = nowIso();
  const row = await t.db
    .insertInto('unidades')
    .values({
      nome: 'Movimento Teste',
      cidade: 'Teste',
      uf: 'SP',
      bairro: 'Centro',
      endereco: 'Rua Teste, 1',
      telefone: '+551130000000',
      whatsapp: '+5511990000000',
      latitude: null,
      longitude: null,
      ...values,
      slug: `teste-${++slugCounter}`,
      criado_em: now,
      atualizado_em: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function addPlan(nome: string, unidadeIds: number[], ativo = 1) {
  const now = nowIso();
  const { id } = await t.db
    .insertInto('planos')
    .values({
      nome,
      descricao: 'Plano de teste',
      preco_centavos: 9900,
      periodicidade: 'mensal',
      ativo,
      criado_em: now,
      atualizado_em: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (unidadeIds.length)
    await t.db
      .insertInto('planos_unidades')
      .values(unidadeIds.map((u) => ({ plano_id: id, unidade_id: u })))
      .execute();
  return id;
}

const search = async (q: string, path = '/search_ajax.php') => {
  const res = await t.app.inject({
    url: `${path}?q=${encodeURIComponent(q)}`,
    headers: { accept: 'application/json' },
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
};

function expectSecurityHeaders(headers: Record<string, unknown>) {
  const csp = String(headers['content-security-policy']);
  expect(csp).toContain("script-src 'self'");
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).not.toContain('unsafe-inline');
  expect(headers['x-content-type-options']).toBe('nosniff');
  expect(headers['referrer-policy']).toBeTruthy();
}

function jsonLdOf(html: string): any {
  const m = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(m).not.toBeNull();
  return JSON.parse(m![1]!);
}

beforeAll(async () => {
  t = await createTestApp();
  for (const nome of ['Movimento Pinheiros', 'Movimento Moema', 'Movimento Boa Viagem', 'Movimento Cambuí'])
    ids[nome] = await unitId(nome);

  // Ranking fixture: one token, every kind of match.
  ids.zetaExact = await addUnit({ nome: 'Zeta', cidade: 'Rankópolis' });
  ids.zetaBairro = await addUnit({ nome: 'Movimento Qualquer', bairro: 'Zeta', cidade: 'Rankópolis' });
  ids.zetaPrefixPlan = await addPlan('Zeta Plus', [ids.zetaExact]);
  ids.zetaWordSul = await addUnit({ nome: 'Movimento Zeta Sul', cidade: 'Rankópolis' });
  ids.zetaWord = await addUnit({ nome: 'Movimento Zeta', cidade: 'Rankópolis' });
  ids.zetaWordNorte = await addUnit({ nome: 'Movimento Zeta Norte', cidade: 'Rankópolis' });
  ids.zetaSub = await addUnit({ nome: 'Movimento Alfazeta', cidade: 'Rankópolis' });
  ids.inactiveZeta = await addUnit({ nome: 'Zeta Fechada', ativo: 0 });
  ids.inactivePlan = await addPlan('Zeta Antigo', [ids.zetaExact], 0);

  // Accents: "musculacao" must find "Musculação".
  ids.musculacao = await addPlan('Musculação Livre', [ids['Movimento Pinheiros']!]);
  // Limit: 25 matches, at most 20 come back.
  for (let i = 1; i <= 25; i++)
    await addUnit({ nome: `Limitada ${String(i).padStart(2, '0')}`, cidade: 'Limitópolis' });
  // SQL wildcards as text.
  ids.percent = await addUnit({ nome: 'Academia 100% Foco', cidade: 'Curitiba' });
  // Markup in catalog text.
  ids.xss = await addUnit({
    nome: '<script>alert(1)</script>',
    bairro: '<img src=x onerror=alert(2)>',
    cidade: 'Recife',
    descricao: '</script><script>alert(3)</script>',
    beneficio_nome: '<b>Wellhub</b>',
    beneficio_url: 'https://wellhub.com/?q="><script>alert(4)</script>',
  });
  ids.jsLink = await addUnit({
    nome: 'Movimento Link Perigoso',
    beneficio_nome: 'Falso',
    beneficio_url: 'javascript:alert(5)',
  });
  invalidateCatalogCache(t.app);
});
afterAll(async () => t?.close());

describe('search contract', () => {
  it('answers a JSON array of {tipo, id, nome} with cidade on units only, on both paths', async () => {
    for (const path of ['/search_ajax.php', '/pesquisa.php']) {
      const res = await search('movimento', path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(Array.isArray(res.body)).toBe(true);
      expect(res.body.length).toBeGreaterThan(0);
      for (const item of res.body) {
        if (item.tipo === 'unidade') expect(Object.keys(item).sort()).toEqual(['cidade', 'id', 'nome', 'tipo']);
        else expect(Object.keys(item).sort()).toEqual(['id', 'nome', 'tipo']);
        expect(Number.isInteger(item.id)).toBe(true);
      }
    }
    const plans = (await search('plano')).body;
    expect(plans.length).toBeGreaterThan(0);
    for (const p of plans) {
      expect(p.tipo).toBe('plano');
      expect(p).not.toHaveProperty('cidade');
    }
    expect((await search('pinheiros', '/pesquisa.php')).body).toEqual((await search('pinheiros')).body);
  });

  it('is case- and accent-insensitive', async () => {
    const plans = (await search('musculacao')).body;
    expect(plans).toContainEqual({ tipo: 'plano', id: ids.musculacao, nome: 'Musculação Livre' });
    const sp = (await search('sao paulo')).body;
    expect(sp.map((i: any) => i.id)).toEqual(
      expect.arrayContaining([ids['Movimento Pinheiros'], ids['Movimento Moema']]),
    );
    expect((await search('SÃO PAULO')).body).toEqual(sp);
    expect((await search('MOEMA')).body[0]).toEqual({
      tipo: 'unidade',
      id: ids['Movimento Moema'],
      nome: 'Movimento Moema',
      cidade: 'São Paulo',
    });
  });

  it('ranks exact > field prefix > word prefix > substring, units and plans mixed, ties by name', async () => {
    const res = (await search('zeta')).body;
    expect(res.map((i: any) => `${i.tipo}:${i.nome}`)).toEqual([
      'unidade:Zeta', // exact name
      'unidade:Movimento Qualquer', // exact neighbourhood
      'plano:Zeta Plus', // name starts with the query
      'unidade:Movimento Zeta', // a word starts with it; ties by name
      'unidade:Movimento Zeta Norte',
      'unidade:Movimento Zeta Sul',
      'unidade:Movimento Alfazeta', // substring
    ]);
  });

  it('matches several words spread over name and city', async () => {
    const res = (await search('pinheiros sao paulo')).body;
    expect(res[0]).toMatchObject({ tipo: 'unidade', id: ids['Movimento Pinheiros'] });
  });

  it('returns at most 20 items', async () => {
    const res = (await search('limitada')).body;
    expect(res).toHaveLength(20);
    expect(res[0].nome).toBe('Limitada 01');
  });

  it('never shows inactive units or plans', async () => {
    const zeta = (await search('zeta')).body.map((i: any) => i.nome);
    expect(zeta).not.toContain('Zeta Fechada');
    expect(zeta).not.toContain('Zeta Antigo');
    expect((await search('cambui')).body).toEqual([]);
    expect((await search('campinas')).body).toEqual([]);
    expect((await search('black promocional')).body).toEqual([]);
  });

  it('answers [] for fewer than 2 characters after trimming', async () => {
    for (const q of ['a', ' a ', '   ', '', 'é']) {
      const res = await search(q);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    }
    const none = await t.app.inject('/search_ajax.php');
    expect(none.statusCode).toBe(200);
    expect(none.json()).toEqual([]);
  });

  it('answers 400 JSON for an absurd q, never 500', async () => {
    for (const q of ['aaaaaaaaaaaa', 'x'.repeat(101), 'pinheiros '.repeat(11), '!!!???', '%%%%', '------------']) {
      const res = await search(q);
      expect(res.status, q).toBe(400);
      expect(res.headers['content-type']).toMatch(/application\/json/);
      expect(typeof res.body.error).toBe('string');
    }
    // exactly 100 characters is still a search
    expect((await search(`pinheiros${' '.repeat(82)}pinheiros`)).status).toBe(200);
    // repeated parameter: a 400 JSON too, not a crash
    const twice = await t.app.inject('/search_ajax.php?q=ab&q=cd');
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toHaveProperty('error');
  });

  it('treats SQL wildcards and injection strings as plain text', async () => {
    expect((await search('100%')).body).toEqual([
      { tipo: 'unidade', id: ids.percent, nome: 'Academia 100% Foco', cidade: 'Curitiba' },
    ]);
    expect((await search('pin%')).body).toEqual([]);
    expect((await search('Pinh_iros')).body).toEqual([]);
    expect((await search('%_')).status).toBe(400);
    for (const q of ["' OR 1=1 --", "'; DROP TABLE unidades; --", '" OR ""="']) {
      const res = await search(q);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    }
    const units = await t.db.selectFrom('unidades').select('id').execute();
    expect(units.length).toBeGreaterThan(30);
  });
});

describe('unit page', () => {
  it('shows address, map, phone and WhatsApp links, hours, plans, areas, modalities and timetable', async () => {
    const res = await t.app.inject(`/Detalhes.php?id=${ids['Movimento Pinheiros']}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const html = res.body;
    expect(html).toContain('<h1>Movimento Pinheiros</h1>');
    expect(html).toContain('Rua dos Pinheiros, 1200');
    expect(html).toContain('href="https://www.google.com/maps/search/?api=1&amp;query=Rua%20dos%20Pinheiros%2C%201200');
    expect(html).toContain('href="tel:+551130451200"');
    expect(html).toContain('href="https://wa.me/5511987451200"');
    expect(html).toMatch(/Aberta agora|Fechada agora/);
    expect(html).toContain('Segunda-feira');
    expect(html).toContain('05:30 às 23:00');
    expect(html).toContain('R$\u00a0129,90');
    expect(html).toContain('Plano Anual');
    expect(html).toContain('Musculação Livre');
    expect(html).not.toContain('Black Promocional');
    expect(html).toContain('Sala de spinning');
    expect(html).toContain('Muay Thai');
    expect(html).toContain('Grade de aulas');
    // today first: the first day of the timetable is marked as today
    const firstDay = /<section class="timetable-day[^"]*"[^>]*><h3[^>]*>([^<]*)<\/h3>/.exec(html);
    expect(firstDay?.[1]).toMatch(/\(hoje\)$/);
    expect(html).toContain(`href="/pages/Pass/index.php?id=${ids['Movimento Pinheiros']}"`);
    expect(html).toContain(`href="/NPS/nps_app_php/index.php?unidade_id=${ids['Movimento Pinheiros']}"`);
    expect(html).toContain('<meta property="og:title" content="Movimento Pinheiros"/>');
    expect(html).toContain('<meta property="og:type" content="website"/>');
  });

  it('carries ExerciseGym JSON-LD that parses', async () => {
    const html = (await t.app.inject(`/Detalhes.php?id=${ids['Movimento Pinheiros']}`)).body;
    const ld = jsonLdOf(html);
    expect(ld['@context']).toBe('https://schema.org');
    expect(ld['@type']).toBe('ExerciseGym');
    expect(ld.name).toBe('Movimento Pinheiros');
    expect(ld.telephone).toBe('+551130451200');
    expect(ld.address).toMatchObject({
      '@type': 'PostalAddress',
      streetAddress: 'Rua dos Pinheiros, 1200',
      addressLocality: 'São Paulo',
      addressRegion: 'SP',
      addressCountry: 'BR',
    });
    expect(ld.openingHoursSpecification).toHaveLength(7);
    expect(ld.openingHoursSpecification).toContainEqual({
      '@type': 'OpeningHoursSpecification',
      dayOfWeek: 'https://schema.org/Monday',
      opens: '05:30',
      closes: '23:00',
    });
  });

  it('answers 404 for unknown and inactive units, 400 for malformed ids, with security headers', async () => {
    for (const path of ['/Detalhes.php', '/pages/Pass/index.php']) {
      for (const id of ['999999', String(ids['Movimento Cambuí']), String(ids.inactiveZeta)]) {
        const res = await t.app.inject(`${path}?id=${id}`);
        expect(res.statusCode, `${path} ${id}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/text\/html/);
        expect(res.body).toContain('Unidade não encontrada');
        expectSecurityHeaders(res.headers);
      }
      for (const query of [
        '?id=abc',
        '?id=1.5',
        '?id=-3',
        '?id=',
        '',
        '?id=0',
        '?id=1e3',
        '?id=%201',
        '?id=99999999999999999999',
        '?id=2147483648',
        '?id=1&id=2',
        "?id=1'%20OR%201=1",
      ]) {
        const res = await t.app.inject(`${path}${query}`);
        expect(res.statusCode, `${path}${query}`).toBe(400);
        expect(res.body).toContain('Endereço inválido');
        expectSecurityHeaders(res.headers);
      }
    }
    const json = await t.app.inject({ url: '/Detalhes.php?id=999999', headers: { accept: 'application/json' } });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toHaveProperty('error');
  });

  it('orders the week from today and computes "open now" in São Paulo time', async () => {
    expect(weekdaysFrom(3)).toEqual([3, 4, 5, 6, 0, 1, 2]);
    // Monday 23 Nov 2026, 09:00 in São Paulo (12:00 UTC)
    const monday = await t.app.catalog.unitPage(ids['Movimento Pinheiros']!, new Date('2026-11-23T12:00:00Z'));
    expect(monday?.today).toBe(1);
    expect(monday?.timetable.map((d) => d.dia_semana)).toEqual([1, 2, 3, 4, 5, 6, 0]);
    expect(monday?.openNow).toBe(true);
    // Monday 02:00 in São Paulo: closed
    const night = await t.app.catalog.unitPage(ids['Movimento Pinheiros']!, new Date('2026-11-23T05:00:00Z'));
    expect(night?.openNow).toBe(false);
    expect(night?.timetable[0]?.classes.every((c) => c.dia_semana === 1)).toBe(true);
  });

  it('knows hours that run past midnight', () => {
    const hours = [{ dia_semana: 5, abre: '18:00', fecha: '02:00' }];
    expect(isOpenAt(hours, 5, '23:30')).toBe(true);
    expect(isOpenAt(hours, 6, '01:59')).toBe(true);
    expect(isOpenAt(hours, 6, '02:00')).toBe(false);
    expect(isOpenAt(hours, 5, '17:59')).toBe(false);
    expect(isOpenAt([{ dia_semana: 1, abre: '06:00', fecha: '22:00' }], 1, '22:00')).toBe(false);
  });

  it("parses query ids strictly (the form kit's queryId)", () => {
    expect(queryId('12')).toBe(12);
    for (const bad of [undefined, '', '0', '-1', '1.0', '01', ' 1', '1e2', '0x10', '2147483648', ['1']])
      expect(queryId(bad)).toBeNull();
  });
});

describe('Pass page', () => {
  it('has a clear call to action to the benefit platform', async () => {
    const res = await t.app.inject(`/pages/Pass/index.php?id=${ids['Movimento Pinheiros']}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Movimento Pinheiros com Wellhub');
    // counted on the server (/ir/), then on to the platform
    expect(res.body).toContain(
      `<a class="button cta-button" href="/ir/beneficio?unidade=${ids['Movimento Pinheiros']}" rel="noopener ` +
        `noreferrer nofollow" target="_blank">Acessar Wellhub`,
    );
    const go = await t.app.inject(`/ir/beneficio?unidade=${ids['Movimento Pinheiros']}`);
    expect(go.statusCode).toBe(302);
    expect(go.headers.location).toBe('https://wellhub.com/pt-br/search/?q=movimento-pinheiros');
    expectSecurityHeaders(res.headers);
  });

  it(`says so when the unit has no link, and suggests only units with one within 50 km, with their \
distance`, async () => {
    // Recife: the nearest unit with a benefit is 1,600+ km away, so none is suggested
    const res = await t.app.inject(`/pages/Pass/index.php?id=${ids['Movimento Boa Viagem']}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('ainda não aceita benefício');
    expect(res.body).not.toContain('<ul class="unit-list nearby">');
    expect(res.body).toContain('Nenhuma unidade com benefício fica perto desta (até 50 km)');
    expect(res.body).toContain('href="/unidades"');
    // a Recife unit with a link, 10 km away, is suggested with its distance; one 60 km away is not
    const recife = await addUnit({
      nome: 'Movimento Casa Forte',
      cidade: 'Recife',
      uf: 'PE',
      beneficio_nome: 'TotalPass',
      beneficio_url: 'https://totalpass.com/br/x',
      latitude: -8.03,
      longitude: -34.92,
    });
    const far = await addUnit({
      nome: 'Movimento Longe',
      cidade: 'Goiana',
      uf: 'PE',
      beneficio_nome: 'TotalPass',
      beneficio_url: 'https://totalpass.com/br/y',
      latitude: -7.56,
      longitude: -35.0,
    });
    invalidateCatalogCache(t.app);
    const again = await t.app.inject(`/pages/Pass/index.php?id=${ids['Movimento Boa Viagem']}`);
    const list = /<ul class="unit-list nearby">([\s\S]*?)<\/ul>/.exec(again.body)?.[1] ?? '';
    const nearbyIds = [...list.matchAll(/href="\/pages\/Pass\/index\.php\?id=(\d+)"/g)].map((m) => Number(m[1]));
    expect(nearbyIds).toEqual([recife]);
    expect(list).toMatch(/ · a \d+,\d km/);
    await t.db.deleteFrom('unidades').where('id', 'in', [recife, far]).execute();
    invalidateCatalogCache(t.app);
  });

  it('never turns a non-http benefit URL into a link', async () => {
    const res = await t.app.inject(`/pages/Pass/index.php?id=${ids.jsLink}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('javascript:');
    expect(res.body).toContain('ainda não aceita benefício');
  });
});

describe('escaping of catalog text', () => {
  it('escapes markup on the unit page, the Pass page, the home page and inside JSON-LD', async () => {
    const detail = (await t.app.inject(`/Detalhes.php?id=${ids.xss}`)).body;
    const pass = (await t.app.inject(`/pages/Pass/index.php?id=${ids.xss}`)).body;
    const home = (await t.app.inject('/')).body;
    const homeSearch = (await t.app.inject('/?q=alert')).body;
    for (const html of [detail, pass, home, homeSearch]) {
      expect(html).not.toContain('<script>alert(');
      expect(html).not.toContain('<img src=x');
      expect(html).not.toContain('<b>Wellhub</b>');
      expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    }
    // JSON-LD: exactly one closing tag for the one data block, and the data survives
    const ldBlock = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(detail)![1]!;
    expect(ldBlock).not.toMatch(/<\/?script/i);
    const ld = jsonLdOf(detail);
    expect(ld.name).toBe('<script>alert(1)</script>');
    expect(ld.description).toBe('</script><script>alert(3)</script>');
    // the benefit URL is an attribute value: quotes are escaped
    // the benefit URL never reaches the page: /ir/ redirects to it, escaped as a URL
    expect(pass).not.toContain('alert(4)');
    const go = await t.app.inject(`/ir/beneficio?unidade=${ids.xss}`);
    expect(go.headers.location).toBe('https://wellhub.com/?q=%22%3E%3Cscript%3Ealert(4)%3C/script%3E');
    // JSON carries the raw text; the browser script inserts it as text
    expect((await search('alert')).body).toContainEqual({
      tipo: 'unidade',
      id: ids.xss,
      nome: '<script>alert(1)</script>',
      cidade: 'Recife',
    });
  });
});

describe('home page', () => {
  it('lists units by city with unit and Pass links, and links to every form', async () => {
    const res = await t.app.inject('/');
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<form role="search" method="get" action="/"');
    expect(html).toContain('name="q"');
    expect(html).toContain('src="/assets/search.js"');
    expect(html).toContain('São Paulo – SP');
    expect(html).toContain(`href="/Detalhes.php?id=${ids['Movimento Pinheiros']}"`);
    expect(html).toContain(`href="/pages/Pass/index.php?id=${ids['Movimento Pinheiros']}"`);
    expect(html).not.toContain('Movimento Cambuí');
    expect(html).toContain('href="/pages/Franquia/index.php"');
    expect(html).toContain('href="/NPS/nps_app_php/index.php"');
    expect(html).toContain('href="/NPS/nps_app_php/fale_aqui.php"');
    // São Paulo's units are listed under their city heading
    const sp = html.indexOf('São Paulo – SP');
    expect(html.indexOf('Movimento Moema', sp)).toBeGreaterThan(sp);
  });

  it('renders search results on the server without JavaScript', async () => {
    const res = await t.app.inject('/?q=pinheiros');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Resultados para “pinheiros”');
    expect(res.body).toMatch(
      /<span class="badge">Unidade<\/span> <a href="\/Detalhes\.php\?id=\d+">Movimento Pinheiros<\/a>/,
    );
    // a plan result lists the units that offer it (decision 012)
    const plan = await t.app.inject('/?q=plano%20familia');
    expect(plan.body).toContain('Plano Família');
    expect(plan.body).toMatch(/Disponível em \d+ unidades/);
    expect(plan.body).toContain(`href="/Detalhes.php?id=${ids['Movimento Moema']}"`);
    const bad = await t.app.inject('/?q=aaaaaaaaaaaa');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('role="alert"');
    expectSecurityHeaders(bad.headers);
    const short = await t.app.inject('/?q=a');
    expect(short.statusCode).toBe(200);
    expect(short.body).toContain('pelo menos 2 letras');
  });
});

describe('catalog cache', () => {
  it('shows a database change after invalidation, on search and pages', async () => {
    const id = ids['Movimento Moema']!;
    expect((await t.app.inject(`/Detalhes.php?id=${id}`)).body).toContain('<h1>Movimento Moema</h1>');
    await t.db.updateTable('unidades').set({ nome: 'Movimento Ibirapuera' }).where('id', '=', id).execute();
    invalidateCatalogCache(t.app);
    expect((await search('ibirapuera')).body).toContainEqual({
      tipo: 'unidade',
      id,
      nome: 'Movimento Ibirapuera',
      cidade: 'São Paulo',
    });
    expect((await t.app.inject(`/Detalhes.php?id=${id}`)).body).toContain('<h1>Movimento Ibirapuera</h1>');
    expect((await t.app.inject(`/pages/Pass/index.php?id=${id}`)).body).toContain('Movimento Ibirapuera com TotalPass');
    expect((await t.app.inject('/')).body).toContain('Movimento Ibirapuera');

    await t.db.updateTable('unidades').set({ ativo: 0 }).where('id', '=', id).execute();
    invalidateCatalogCache(t.app);
    expect((await t.app.inject(`/Detalhes.php?id=${id}`)).statusCode).toBe(404);
    expect((await search('ibirapuera')).body).toEqual([]);
    await t.db.updateTable('unidades').set({ ativo: 1, nome: 'Movimento Moema' }).where('id', '=', id).execute();
    invalidateCatalogCache(t.app);
  });

  it('keeps serving the previous snapshot when a reload fails', async () => {
    let clock = 0;
    let down = false;
    const errors: unknown[] = [];
    const repo = createCatalogRepository(t.db);
    const flaky = {
      ...repo,
      loadSnapshot: () => (down ? Promise.reject(new Error('database down')) : repo.loadSnapshot()),
    };
    const service = createCatalogService(flaky, { ttlMs: 5000, now: () => clock, onStaleError: (e) => errors.push(e) });
    expect((await service.search('moema')).ok).toBe(true);
    down = true;
    clock += 6000;
    const res = await service.search('moema');
    expect(res.ok && res.items[0]?.nome).toBe('Movimento Moema');
    expect(errors).toHaveLength(1);
    const cold = createCatalogService(flaky, { now: () => clock });
    await expect(cold.search('moema')).rejects.toThrow('database down');
  });

  it(`during a database outage serves the last snapshot without waiting, even after an invalidation, and \
recovers`, async () => {
    let clock = 0;
    let mode: 'up' | 'down' | 'slow' = 'up';
    let calls = 0;
    const repo = createCatalogRepository(t.db);
    const flaky = {
      ...repo,
      loadSnapshot: () => {
        calls++;
        if (mode === 'down')
          return Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
        // A database that does not answer: the pool's timeout ends the attempt later.
        if (mode === 'slow')
          return new Promise<never>((_, reject) =>
            setTimeout(() => reject(new Error('timeout exceeded when trying to connect')), 1_500),
          );
        return repo.loadSnapshot();
      },
    };
    const service = createCatalogService(flaky, { ttlMs: 5000, now: () => clock });
    const nameOf = async () => {
      const r = await service.search('moema');
      return r.ok ? r.items[0]?.nome : undefined;
    };
    expect(await nameOf()).toBe('Movimento Moema');

    mode = 'slow';
    clock += 6000;
    const started = Date.now();
    expect(await nameOf()).toBe('Movimento Moema');
    expect(Date.now() - started).toBeLessThan(1_000);
    await new Promise((r) => setTimeout(r, 1_600));

    mode = 'down';
    clock += 1_100;
    expect(await nameOf()).toBe('Movimento Moema');
    const attempts = calls;
    expect(await nameOf()).toBe('Movimento Moema');
    expect(calls).toBe(attempts); // within a second of a failure, no new attempt
    service.invalidate();
    expect(await nameOf()).toBe('Movimento Moema');

    mode = 'up';
    await t.db
      .updateTable('unidades')
      .set({ nome: 'Movimento Moema Voltou' })
      .where('id', '=', ids['Movimento Moema']!)
      .execute();
    clock += 1_100;
    expect(await nameOf()).toBe('Movimento Moema Voltou');
    await t.db
      .updateTable('unidades')
      .set({ nome: 'Movimento Moema' })
      .where('id', '=', ids['Movimento Moema']!)
      .execute();
  });

  it("reloads the snapshot once it is older than the TTL (another instance's edit)", async () => {
    let clock = 1_000_000;
    const service = createCatalogService(createCatalogRepository(t.db), { ttlMs: 5000, now: () => clock });
    const first = await service.search('moema');
    expect(first.ok && first.items[0]?.nome).toBe('Movimento Moema');
    await t.db
      .updateTable('unidades')
      .set({ nome: 'Movimento Moema Renovada' })
      .where('id', '=', ids['Movimento Moema']!)
      .execute();
    clock += 4000;
    const cached = await service.search('moema');
    expect(cached.ok && cached.items[0]?.nome).toBe('Movimento Moema');
    clock += 1001;
    const fresh = await service.search('moema');
    expect(fresh.ok && fresh.items[0]?.nome).toBe('Movimento Moema Renovada');
    await t.db
      .updateTable('unidades')
      .set({ nome: 'Movimento Moema' })
      .where('id', '=', ids['Movimento Moema']!)
      .execute();
  });
});

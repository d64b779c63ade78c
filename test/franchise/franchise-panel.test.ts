import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLeadsRepository } from '../../src/features/franchise/leads.repository';
import { searchText } from '../../src/features/franchise/lead.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, LOGIN_URL, staffToken } from '../helpers/staff';

const P = LOGIN_URL;
let t: TestContext;
let cookie: string;
let adminId: number;

const base = {
  nome_completo: 'Lead Base',
  whatsapp: '+5511987654321',
  email: 'base@example.com',
  cidade_regiao: 'São Paulo',
  investimento_parceria: 'sozinho',
  faixa_investimento: 'ate_300mil',
  prazo_proximo_passo: 'imediato',
  experiencia_negocio: 'nenhuma',
  motivo_interesse: 'outro',
  aceita_contato: 'sim',
};

async function addLead(over: Partial<typeof base> = {}, at?: string) {
  const lead = { ...base, ...over };
  return createLeadsRepository(t.db).insert({ ...lead, busca: searchText(lead) }, at);
}

async function get(url: string) {
  return t.app.inject({ url, headers: { cookie } });
}
async function post(fields: Record<string, string>, opts: { token?: boolean; json?: boolean } = {}) {
  const token = opts.token === false ? undefined : await staffToken(t.app, cookie);
  return t.app.inject({
    method: 'POST',
    url: P,
    headers: {
      cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(opts.json ? { accept: 'application/json' } : {}),
    },
    payload: form({ csrf_token: token, ...fields }),
  });
}

beforeAll(async () => {
  t = await createTestApp({ seed: false });
  const u = await createStaffUser(t.db, { nome: 'Ana Admin' });
  adminId = u.id;
  cookie = await loginAs(t.app, u.email, u.password);
});
afterAll(async () => t?.close());

describe('lead list', () => {
  it('sends anonymous visitors to login and keeps unit managers out (list, detail, export)', async () => {
    const id = await addLead();
    const anon = await t.app.inject(`${P}?export=csv`);
    expect(anon.statusCode).toBe(200);
    expect(anon.body).toContain('name="senha"');
    expect(anon.headers['content-type']).toMatch(/text\/html/);
    const g = await createStaffUser(t.db, { papel: 'gerente' });
    const gc = await loginAs(t.app, g.email, g.password);
    for (const url of [P, `${P}?lead=${id}`, `${P}?export=csv`]) {
      expect((await t.app.inject({ url, headers: { cookie: gc } })).statusCode).toBe(403);
    }
    const token = await staffToken(t.app, gc, '/pages/Franquia/index.php');
    const res = await t.app.inject({
      method: 'POST',
      url: P,
      headers: { cookie: gc, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, acao: 'excluir', lead_id: String(id), confirmar: 'sim' }),
    });
    expect(res.statusCode).toBe(403);
    expect(await createLeadsRepository(t.db).findById(id)).toBeDefined();
    await createLeadsRepository(t.db).delete(id);
  });

  it(`shows 25 per page, newest first, with page links that keep the filters, and handles out-of-range \
pages`, async () => {
    const start = Date.parse('2026-01-10T12:00:00Z');
    for (let i = 0; i < 60; i++) {
      await addLead(
        { nome_completo: `Paginado ${String(i).padStart(2, '0')}`, cidade_regiao: 'Pagelândia' },
        new Date(start + i * 60_000).toISOString(),
      );
    }
    const p1 = await get(`${P}?q=pagelandia`);
    expect(p1.statusCode).toBe(200);
    const names = [...p1.body.matchAll(/Paginado (\d\d)/g)].map((m) => m[1]);
    expect(names).toHaveLength(25);
    expect(names[0]).toBe('59');
    expect(names[24]).toBe('35');
    expect(p1.body).toContain('60 leads');
    expect(p1.body).toContain('Página 1 de 3');
    expect(p1.body).toContain(`href="${P}?q=pagelandia&amp;pagina=2"`);
    const p3 = await get(`${P}?q=pagelandia&pagina=3`);
    expect([...p3.body.matchAll(/Paginado (\d\d)/g)].map((m) => m[1])).toHaveLength(10);
    expect(p3.body).toContain(`href="${P}?q=pagelandia&amp;pagina=2"`);
    const far = await get(`${P}?q=pagelandia&pagina=999`);
    expect(far.statusCode).toBe(200);
    expect(far.body).toContain('Página 3 de 3');
    expect(far.body).toContain('a página pedida não existe');
    for (const bad of ['0', '-1', 'abc', '1e9']) {
      const res = await get(`${P}?q=pagelandia&pagina=${bad}`);
      expect(res.statusCode).toBe(200);
    }
    expect((await get(`${P}?q=pagelandia&pagina=0`)).body).toContain('Página 1 de 3');
  });

  it('filters by accent-insensitive text over name, e-mail, WhatsApp and city', async () => {
    await addLead({
      nome_completo: 'Conceição Araújo',
      email: 'c.araujo@example.com',
      whatsapp: '+5581912345678',
      cidade_regiao: 'Recife',
    });
    await addLead({ nome_completo: 'Outro Nome', cidade_regiao: 'São José dos Campos' });
    for (const q of ['conceicao', 'CONCEIÇÃO', 'araujo@', '81912345678', '(81) 91234-5678', 'recife']) {
      const res = await get(`${P}?q=${encodeURIComponent(q)}`);
      expect(res.body, q).toContain('Conceição Araújo');
      expect(res.body, q).not.toContain('Outro Nome');
    }
    const sj = await get(`${P}?q=${encodeURIComponent('sao jose')}`);
    expect(sj.body).toContain('Outro Nome');
    // LIKE wildcards are literal.
    expect((await get(`${P}?q=${encodeURIComponent('%')}`)).body).toContain('Nenhum lead encontrado');
  });

  it('filters by option fields, status and São Paulo date range', async () => {
    // 2026-03-01 01:30 UTC is still 28 Feb in São Paulo.
    await addLead({ nome_completo: 'Fev Tarde', faixa_investimento: 'acima_1milhao' }, '2026-03-01T01:30:00.000Z');
    await addLead(
      { nome_completo: 'Mar Cedo', faixa_investimento: 'acima_1milhao', motivo_interesse: 'paixao_fitness' },
      '2026-03-01T03:30:00.000Z',
    );
    const feb = await get(`${P}?de=2026-02-28&ate=2026-02-28`);
    expect(feb.body).toContain('Fev Tarde');
    expect(feb.body).not.toContain('Mar Cedo');
    const mar = await get(`${P}?de=2026-03-01&ate=2026-03-01`);
    expect(mar.body).toContain('Mar Cedo');
    expect(mar.body).not.toContain('Fev Tarde');
    const opt = await get(`${P}?faixa_investimento=acima_1milhao&motivo_interesse=paixao_fitness`);
    expect(opt.body).toContain('Mar Cedo');
    expect(opt.body).not.toContain('Fev Tarde');
    expect(opt.body).toMatch(/value="paixao_fitness"[^>]*selected/);
    // Invalid filter values are ignored, never a 500.
    const junk = await get(`${P}?status=hackeado&faixa_investimento=x&de=2026-13-45&pagina[]=1`);
    expect(junk.statusCode).toBe(200);
  });

  it('changes status with history (who, when), adds notes, filters by status', async () => {
    const id = await addLead({ nome_completo: 'Pipeline Pessoa' });
    let res = await post({ acao: 'status', lead_id: String(id), status: 'em_contato' });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`${P}?lead=${id}&ok=status`);
    res = await post({ acao: 'status', lead_id: String(id), status: 'qualificado' });
    const hist = await t.db
      .selectFrom('franquia_leads_historico')
      .selectAll()
      .where('lead_id', '=', id)
      .orderBy('id')
      .execute();
    expect(hist.map((h) => [h.status_de, h.status_para, h.usuario_id])).toEqual([
      [null, 'novo', null],
      ['novo', 'em_contato', adminId],
      ['em_contato', 'qualificado', adminId],
    ]);
    expect((await post({ acao: 'status', lead_id: String(id), status: 'inventado' })).statusCode).toBe(422);
    expect((await post({ acao: 'status', lead_id: '99999999', status: 'novo' })).statusCode).toBe(404);

    res = await post({ acao: 'nota', lead_id: String(id), texto: 'Ligar na segunda <b>cedo</b>' });
    expect(res.statusCode).toBe(303);
    const empty = await post({ acao: 'nota', lead_id: String(id), texto: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Escreva a anotação');
    expect((await post({ acao: 'nota', lead_id: String(id), texto: 'x'.repeat(3001) })).statusCode).toBe(422);

    const detail = await get(`${P}?lead=${id}&ok=status`);
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain('Status atualizado.');
    expect(detail.body).toContain('Novo → Em contato');
    expect(detail.body).toContain('Em contato → Qualificado');
    expect(detail.body).toContain('Ana Admin');
    expect(detail.body).toContain('Formulário do site');
    expect(detail.body).toContain('Ligar na segunda &lt;b>cedo&lt;/b>');
    expect(detail.body).toContain('href="https://wa.me/5511987654321"');
    expect(detail.body).toContain('(11) 98765-4321');
    expect(detail.body).toContain('Até R$ 300 mil');
    expect(detail.body).toContain('Quando pretende dar o próximo passo?');
    expect(detail.body).toMatch(/aria-current="step"[^>]*>Qualificado/);

    const byStatus = await get(`${P}?status=qualificado`);
    expect(byStatus.body).toContain('Pipeline Pessoa');
    expect((await get(`${P}?status=novo&q=pipeline`)).body).not.toContain('Pipeline Pessoa');
  });

  it('answers 404 for an unknown lead and 400 for a malformed id', async () => {
    expect((await get(`${P}?lead=99999999`)).statusCode).toBe(404);
    expect((await get(`${P}?lead=abc`)).statusCode).toBe(400);
    expect((await get(`${P}?lead=1e3`)).statusCode).toBe(400);
  });

  it('deletes a lead only after the confirmation step, with its history and notes', async () => {
    const id = await addLead({ nome_completo: 'Apagar Depois' });
    await post({ acao: 'nota', lead_id: String(id), texto: 'nota' });
    const ask = await post({ acao: 'excluir', lead_id: String(id) });
    expect(ask.statusCode).toBe(303);
    expect(ask.headers.location).toBe(`${P}?lead=${id}&excluir=1`);
    const confirm = await get(ask.headers.location as string);
    expect(confirm.body).toContain('Sim, excluir definitivamente');
    expect(confirm.body).toContain('name="confirmar" value="sim"');
    expect(await createLeadsRepository(t.db).findById(id)).toBeDefined();
    const noCsrf = await post({ acao: 'excluir', lead_id: String(id), confirmar: 'sim' }, { token: false });
    expect(noCsrf.statusCode).toBe(403);
    const done = await post({ acao: 'excluir', lead_id: String(id), confirmar: 'sim' });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`${P}?ok=excluido`);
    expect(await createLeadsRepository(t.db).findById(id)).toBeUndefined();
    expect(await t.db.selectFrom('franquia_leads_notas').selectAll().where('lead_id', '=', id).execute()).toHaveLength(
      0,
    );
    expect(
      await t.db.selectFrom('franquia_leads_historico').selectAll().where('lead_id', '=', id).execute(),
    ).toHaveLength(0);
    expect((await get(`${P}?ok=excluido`)).body).toContain('Lead excluído definitivamente');
  });
});

describe('CSV export', () => {
  it('exports exactly the filtered set: BOM, ";", São Paulo dates, labels, defused formulas', async () => {
    await addLead(
      { nome_completo: '=HYPERLINK("http://evil")', cidade_regiao: 'Exportópolis', email: '+x@example.com' },
      '2026-05-01T02:15:00.000Z',
    );
    await addLead(
      { nome_completo: '@SUM(A1)', cidade_regiao: 'Exportópolis', faixa_investimento: '500mil_1milhao' },
      '2026-05-02T15:00:00.000Z',
    );
    await addLead({ nome_completo: '-2+3', cidade_regiao: 'Exportópolis; "aspas"' }, '2026-05-03T15:00:00.000Z');
    await addLead({ nome_completo: 'Fora do Filtro', cidade_regiao: 'Outra' }, '2026-05-02T15:00:00.000Z');

    const res = await get(`${P}?q=exportopolis&export=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="leads-franquia-\d{4}-\d\d-\d\d\.csv"/);
    const raw = res.rawPayload;
    expect([...raw.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = raw.subarray(3).toString('utf8');
    const lines = text.trim().split('\r\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(
      'ID;Recebido em;Nome completo;WhatsApp;E-mail;Cidade/região de interesse;Como pretende investir?;Quanto ' +
        'pretende investir?;Quando pretende dar o próximo passo?;Qual é a sua experiência com negócios?;O que mais ' +
        'motiva o seu interesse?;Autorização de contato;Status',
    );
    expect(text).not.toContain('Fora do Filtro');
    // newest first
    expect(lines[1]).toContain("'-2+3");
    expect(lines[1]).toContain('"Exportópolis; ""aspas"""');
    expect(lines[2]).toContain("'@SUM(A1)");
    expect(lines[2]).toContain('De R$ 500 mil a R$ 1 milhão');
    expect(lines[3]).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(lines[3]).toContain("'+x@example.com");
    // 2026-05-01T02:15Z is 30/04 23:15 in São Paulo
    expect(lines[3]).toMatch(/;30\/04\/2026,? 23:15;/);
    expect(lines[3]).toContain(';(11) 98765-4321;');
    expect(lines[3]).toContain(';Novo');
  });

  it('streams more rows than one batch, in order, with nothing lost or repeated', async () => {
    const repo = createLeadsRepository(t.db);
    const at = '2026-07-01T12:00:00.000Z';
    // Same timestamp for all: the keyset must break ties by id.
    await t.db.transaction().execute(async (trx) => {
      const r = createLeadsRepository(trx);
      for (let i = 0; i < 1203; i++) {
        const lead = { ...base, nome_completo: `Lote ${i}`, cidade_regiao: 'Loteville' };
        await r.insert({ ...lead, busca: searchText(lead) }, at);
      }
    });
    expect(repo).toBeDefined();
    const res = await get(`${P}?q=loteville&export=csv`);
    const lines = res.rawPayload.subarray(3).toString('utf8').trim().split('\r\n').slice(1);
    expect(lines).toHaveLength(1203);
    const ids = lines.map((l) => Number(l.split(';')[0]));
    expect(new Set(ids).size).toBe(1203);
    expect([...ids].sort((a, b) => b - a)).toEqual(ids);
  });
});

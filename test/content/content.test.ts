// Content screens through the real app: create, edit, deactivate, validation (422 with the
// values kept and a pt-BR message by the field), CSRF, audit rows, and that each change
// reaches the public unit page and the search at once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let cookie: string;
let token: string;
let adminId: number;

const validUnit = {
  nome: 'Movimento Teste Centro',
  cidade: 'Florianópolis',
  uf: 'SC',
  bairro: 'Centro',
  endereco: 'Rua Felipe Schmidt, 100',
  cep: '88010-000',
  telefone: '(48) 3222-1000',
  whatsapp: '(48) 99122-1000',
  email: 'centro@academiamovimento.com.br',
  latitude: '-27.5969',
  longitude: '-48.5495',
  descricao: 'Unidade de teste.',
  beneficio_nome: 'Wellhub',
  beneficio_url: 'https://wellhub.com/pt-br/search/?q=teste-centro',
  abre_1: '06:00',
  fecha_1: '22:00',
  abre_6: '08:00',
  fecha_6: '14:00',
};

async function post(
  url: string,
  fields: Record<string, string | number | undefined> | [string, string][],
  headers: Record<string, string> = {},
) {
  const pairs: [string, string][] = Array.isArray(fields)
    ? [['csrf_token', token], ...fields]
    : [
        ['csrf_token', token],
        ...Object.entries(fields)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)] as [string, string]),
      ];
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: form(pairs),
  });
}
const get = (url: string) => t.app.inject({ url, headers: { cookie } });
const idFrom = (location: unknown) => Number(/\/(\d+)(\?|$)/.exec(String(location))![1]);
const auditRows = (entidade: string, entidadeId: number) =>
  t.db
    .selectFrom('auditoria')
    .selectAll()
    .where('entidade', '=', entidade)
    .where('entidade_id', '=', entidadeId)
    .orderBy('id')
    .execute();
const search = async (q: string) =>
  (await t.app.inject(`/search_ajax.php?q=${encodeURIComponent(q)}`)).json() as {
    tipo: string;
    id: number;
    nome: string;
  }[];

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  adminId = admin.id;
  cookie = await loginAs(t.app, admin.email, admin.password);
  token = await staffToken(t.app, cookie, '/admin/conteudo');
});
afterAll(async () => t?.close());

describe('units', () => {
  let unitId: number;

  it('creates a unit with hours, benefit link and links; it shows on the unit page and in search at once', async () => {
    const res = await post('/admin/conteudo/unidades/nova', [
      ...Object.entries(validUnit),
      ['areas', '1'],
      ['modalidades', '1'],
      ['planos', '1'],
    ]);
    expect(res.statusCode).toBe(303);
    unitId = idFrom(res.headers.location);
    const unit = await t.db.selectFrom('unidades').selectAll().where('id', '=', unitId).executeTakeFirstOrThrow();
    expect(unit).toMatchObject({
      slug: 'movimento-teste-centro',
      telefone: '+554832221000',
      whatsapp: '+5548991221000',
      ativo: 1,
      latitude: -27.5969,
    });
    const hours = await t.db
      .selectFrom('unidade_horarios')
      .select(['dia_semana', 'abre', 'fecha'])
      .where('unidade_id', '=', unitId)
      .orderBy('dia_semana')
      .execute();
    expect(hours).toEqual([
      { dia_semana: 1, abre: '06:00', fecha: '22:00' },
      { dia_semana: 6, abre: '08:00', fecha: '14:00' },
    ]);

    const page = await t.app.inject(`/Detalhes.php?id=${unitId}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Movimento Teste Centro');
    expect(page.body).toContain('Rua Felipe Schmidt, 100');
    expect((await search('teste centro')).some((i) => i.tipo === 'unidade' && i.id === unitId)).toBe(true);

    const audit = await auditRows('unidade', unitId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ acao: 'criar', usuario_id: adminId, antes: null });
    expect(JSON.parse(audit[0]!.depois!)).toMatchObject({
      nome: 'Movimento Teste Centro',
      areaIds: [1],
      hours: expect.any(Array),
    });
  });

  it('refuses bad input with 422, a pt-BR message by each field, the values kept and nothing stored', async () => {
    const before = await t.db.selectFrom('unidades').select('id').execute();
    const res = await post('/admin/conteudo/unidades/nova', {
      ...validUnit,
      nome: 'Unidade Inválida',
      telefone: '123',
      whatsapp: 'abc',
      beneficio_url: 'http://wellhub.com/x',
      abre_2: '10:00',
      fecha_2: '09:00',
      abre_3: '08:00',
      cep: '123',
      uf: 'XX',
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('id="f-telefone-erro"');
    expect(res.body).toMatch(/Telefone inválido/);
    expect(res.body).toContain('O link precisa começar com https://.');
    expect(res.body).toContain('Terça-feira: o fechamento precisa ser depois da abertura.');
    expect(res.body).toContain('Quarta-feira: informe abertura e fechamento');
    expect(res.body).toContain('CEP inválido');
    expect(res.body).toContain('UF inválida');
    expect(res.body).toMatch(/id="f-telefone"[^>]*aria-invalid="true"/);
    expect(res.body).toContain('value="Unidade Inválida"');
    expect(res.body).toContain('value="http://wellhub.com/x"');
    expect(await t.db.selectFrom('unidades').select('id').execute()).toHaveLength(before.length);

    const json = await post(
      '/admin/conteudo/unidades/nova',
      { ...validUnit, nome: 'Outra', beneficio_url: 'nota url' },
      { accept: 'application/json' },
    );
    expect(json.statusCode).toBe(422);
    // The form kit's JSON shape: { error, message, errors }.
    expect(json.json()).toEqual({
      error: 'Dados inválidos',
      message: expect.any(String),
      errors: { beneficio_url: expect.stringMatching(/Endereço inválido/) },
    });
  });

  it('refuses a duplicate identifier', async () => {
    const res = await post('/admin/conteudo/unidades/nova', validUnit);
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Já existe uma unidade com este identificador.');
  });

  it('edits a unit: new name on the page and in search, audit with before and after', async () => {
    const form = await get(`/admin/conteudo/unidades/${unitId}`);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('value="(48) 3222-1000"');
    const res = await post(`/admin/conteudo/unidades/${unitId}`, {
      ...validUnit,
      nome: 'Movimento Trindade Nova',
      slug: 'movimento-trindade',
      abre_0: '09:00',
      fecha_0: '13:00',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/admin/conteudo/unidades/${unitId}?ok=salvo`);
    expect((await t.app.inject(`/Detalhes.php?id=${unitId}`)).body).toContain('Movimento Trindade Nova');
    expect((await search('trindade nova')).some((i) => i.id === unitId)).toBe(true);
    expect((await search('teste centro')).some((i) => i.id === unitId)).toBe(false);
    const audit = await auditRows('unidade', unitId);
    const last = audit.at(-1)!;
    expect(last.acao).toBe('editar');
    expect(JSON.parse(last.antes!).nome).toBe('Movimento Teste Centro');
    expect(JSON.parse(last.depois!)).toMatchObject({
      nome: 'Movimento Trindade Nova',
      slug: 'movimento-trindade',
      areaIds: [],
    });
  });

  it('deactivates a unit (never deletes it): gone from the page and search, back when reactivated', async () => {
    const off = await post(`/admin/conteudo/unidades/${unitId}/ativo`, { ativo: '0' });
    expect(off.statusCode).toBe(303);
    expect((await t.app.inject(`/Detalhes.php?id=${unitId}`)).statusCode).toBe(404);
    expect((await search('trindade nova')).some((i) => i.id === unitId)).toBe(false);
    expect(await t.db.selectFrom('unidades').select('ativo').where('id', '=', unitId).executeTakeFirst()).toEqual({
      ativo: 0,
    });
    const on = await post(`/admin/conteudo/unidades/${unitId}/ativo`, { ativo: '1' });
    expect(on.statusCode).toBe(303);
    expect((await t.app.inject(`/Detalhes.php?id=${unitId}`)).statusCode).toBe(200);
    const acts = (await auditRows('unidade', unitId)).map((a) => a.acao);
    expect(acts.slice(-2)).toEqual(['desativar', 'ativar']);
  });

  it('refuses a change without the CSRF token and stores nothing', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/admin/conteudo/unidades/${unitId}`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ ...validUnit, nome: 'Sem token' }),
    });
    expect(res.statusCode).toBe(403);
    expect(
      (await t.db.selectFrom('unidades').select('nome').where('id', '=', unitId).executeTakeFirstOrThrow()).nome,
    ).toBe('Movimento Trindade Nova');
  });

  it('answers 404 for an unknown unit and for a malformed id', async () => {
    expect((await get('/admin/conteudo/unidades/999999')).statusCode).toBe(404);
    expect((await get('/admin/conteudo/unidades/abc')).statusCode).toBe(404);
    expect((await post('/admin/conteudo/unidades/999999/ativo', { ativo: '0' })).statusCode).toBe(404);
  });
});

describe('plans', () => {
  let planId: number;
  it('creates a plan from a pt-BR price and the units that offer it; the unit page shows it', async () => {
    const res = await post('/admin/conteudo/planos/novo', [
      ['nome', 'Plano Madrugada'],
      ['descricao', 'Acesso das 22h às 6h.'],
      ['preco', 'R$ 1.299,90'],
      ['periodicidade', 'anual'],
      ['unidades', '1'],
      ['unidades', '2'],
    ]);
    expect(res.statusCode).toBe(303);
    planId = idFrom(res.headers.location);
    const plan = await t.db.selectFrom('planos').selectAll().where('id', '=', planId).executeTakeFirstOrThrow();
    expect(plan).toMatchObject({ preco_centavos: 129990, periodicidade: 'anual', ativo: 1 });
    const page = await t.app.inject('/Detalhes.php?id=1');
    expect(page.body).toContain('Plano Madrugada');
    expect(page.body).toMatch(/1\.299,90/);
    expect((await search('madrugada')).some((i) => i.tipo === 'plano' && i.id === planId)).toBe(true);
  });

  it('refuses a negative price, a malformed price and a missing period', async () => {
    const neg = await post('/admin/conteudo/planos/novo', {
      nome: 'Plano Negativo',
      preco: '-10,00',
      periodicidade: 'mensal',
    });
    expect(neg.statusCode).toBe(422);
    expect(neg.body).toContain('O preço não pode ser negativo.');
    expect(neg.body).toContain('value="-10,00"');
    const bad = await post(
      '/admin/conteudo/planos/novo',
      { nome: 'Plano Torto', preco: '12,3,4', periodicidade: 'quinzenal' },
      { accept: 'application/json' },
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toEqual({
      preco: expect.stringMatching(/Preço inválido/),
      periodicidade: 'Escolha a periodicidade da cobrança.',
    });
    expect(
      await t.db.selectFrom('planos').select('id').where('nome', 'in', ['Plano Negativo', 'Plano Torto']).execute(),
    ).toEqual([]);
  });

  it('edits and deactivates a plan, with audit rows', async () => {
    const edit = await post(`/admin/conteudo/planos/${planId}`, [
      ['nome', 'Plano Madrugada'],
      ['preco', '99,90'],
      ['periodicidade', 'mensal'],
      ['unidades', '1'],
    ]);
    expect(edit.statusCode).toBe(303);
    expect(
      (await t.db.selectFrom('planos').select('preco_centavos').where('id', '=', planId).executeTakeFirstOrThrow())
        .preco_centavos,
    ).toBe(9990);
    const off = await post(`/admin/conteudo/planos/${planId}/ativo`, { ativo: '0' });
    expect(off.statusCode).toBe(303);
    expect((await search('madrugada')).some((i) => i.id === planId)).toBe(false);
    expect((await t.app.inject('/Detalhes.php?id=1')).body).not.toContain('Plano Madrugada');
    const audit = await auditRows('plano', planId);
    expect(audit.map((a) => a.acao)).toEqual(['criar', 'editar', 'desativar']);
    expect(JSON.parse(audit[1]!.antes!)).toMatchObject({ preco_centavos: 129990, unidadeIds: [1, 2] });
    expect(JSON.parse(audit[1]!.depois!)).toMatchObject({ preco_centavos: 9990, unidadeIds: [1] });
  });
});

describe('areas and modalities', () => {
  it('creates an area linked to units, refuses a duplicate name, deactivates it', async () => {
    const res = await post('/admin/conteudo/areas/nova', [
      ['nome', 'Quadra de areia'],
      ['unidades', '1'],
    ]);
    expect(res.statusCode).toBe(303);
    const id = idFrom(res.headers.location);
    expect((await t.app.inject('/Detalhes.php?id=1')).body).toContain('Quadra de areia');
    const dup = await post('/admin/conteudo/areas/nova', { nome: 'Quadra de areia' });
    expect(dup.statusCode).toBe(422);
    expect(dup.body).toContain('Já existe uma área com este nome.');
    const empty = await post('/admin/conteudo/areas/nova', { nome: '   ' });
    expect(empty.statusCode).toBe(422);
    expect(empty.body).toContain('Informe o nome da área.');
    const off = await post(`/admin/conteudo/areas/${id}/ativo`, { ativo: '0' });
    expect(off.statusCode).toBe(303);
    expect((await t.db.selectFrom('areas').select('ativo').where('id', '=', id).executeTakeFirstOrThrow()).ativo).toBe(
      0,
    );
    expect((await auditRows('area', id)).map((a) => a.acao)).toEqual(['criar', 'desativar']);
  });

  it('creates and edits a modality and its units', async () => {
    const res = await post('/admin/conteudo/modalidades/nova', [
      ['nome', 'Beach tennis'],
      ['descricao', 'Aulas em dupla.'],
      ['unidades', '2'],
    ]);
    expect(res.statusCode).toBe(303);
    const id = idFrom(res.headers.location);
    expect((await t.app.inject('/Detalhes.php?id=2')).body).toContain('Beach tennis');
    const edit = await post(`/admin/conteudo/modalidades/${id}`, [
      ['nome', 'Beach tennis'],
      ['unidades', '3'],
    ]);
    expect(edit.statusCode).toBe(303);
    expect((await t.app.inject('/Detalhes.php?id=2')).body).not.toContain('Beach tennis');
    expect((await t.app.inject('/Detalhes.php?id=3')).body).toContain('Beach tennis');
  });
});

describe('timetable', () => {
  const base = '/admin/conteudo/unidades/3/aulas';
  let classId: number;
  const modalityId = async (nome: string) =>
    (await t.db.selectFrom('modalidades').select('id').where('nome', '=', nome).executeTakeFirstOrThrow()).id;

  it('adds a class that the public unit page shows', async () => {
    const res = await post(base, {
      modalidade_id: await modalityId('Yoga'),
      dia_semana: '0',
      inicio: '10:15',
      fim: '11:05',
      professor: 'Marina Teste',
      sala: 'Sala zen',
    });
    expect(res.statusCode).toBe(303);
    const row = await t.db
      .selectFrom('aulas')
      .selectAll()
      .where('professor', '=', 'Marina Teste')
      .executeTakeFirstOrThrow();
    classId = row.id;
    expect(row).toMatchObject({ unidade_id: 3, dia_semana: 0, inicio: '10:15', fim: '11:05' });
    const page = await t.app.inject('/Detalhes.php?id=3');
    expect(page.body).toContain('Marina Teste');
    // the class's modality is now offered by the unit
    expect(
      await t.db
        .selectFrom('unidades_modalidades')
        .selectAll()
        .where('unidade_id', '=', 3)
        .where('modalidade_id', '=', await modalityId('Yoga'))
        .execute(),
    ).toHaveLength(1);
  });

  it('refuses a class that ends before it starts and one that overlaps in the same room', async () => {
    const yoga = await modalityId('Yoga');
    const early = await post(base, {
      modalidade_id: yoga,
      dia_semana: '0',
      inicio: '11:00',
      fim: '10:00',
      sala: 'Sala zen',
    });
    expect(early.statusCode).toBe(422);
    expect(early.body).toContain('A aula precisa terminar depois de começar.');
    expect(early.body).toContain('value="11:00"');
    const clash = await post(
      base,
      { modalidade_id: yoga, dia_semana: 'domingo', inicio: '10:45', fim: '11:30', sala: 'sala ZEN' },
      { accept: 'application/json' },
    );
    expect(clash.statusCode).toBe(422);
    expect(clash.json().errors.sala).toMatch(/Conflito de sala: Sala zen já tem Yoga na domingo das 10:15 às 11:05/);
    // same time in another room is fine; touching ends are fine
    expect(
      (await post(base, { modalidade_id: yoga, dia_semana: '0', inicio: '10:30', fim: '11:00', sala: 'Sala 2' }))
        .statusCode,
    ).toBe(303);
    expect(
      (await post(base, { modalidade_id: yoga, dia_semana: '0', inicio: '11:05', fim: '12:00', sala: 'Sala zen' }))
        .statusCode,
    ).toBe(303);
    const bad = await post(base, { modalidade_id: '99999', dia_semana: 'feriado', inicio: '25:00', fim: '' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Escolha a modalidade.');
    expect(bad.body).toContain('Dia da semana inválido');
    expect(bad.body).toContain('Horário inválido');
  });

  it('edits and removes a class, with audit rows', async () => {
    const yoga = await modalityId('Yoga');
    const edit = await post(`${base}/${classId}`, {
      modalidade_id: yoga,
      dia_semana: '0',
      inicio: '09:00',
      fim: '09:50',
      professor: 'Marina Teste',
      sala: 'Sala zen',
    });
    expect(edit.statusCode).toBe(303);
    expect(
      (await t.db.selectFrom('aulas').select('inicio').where('id', '=', classId).executeTakeFirstOrThrow()).inicio,
    ).toBe('09:00');
    const rm = await post(`${base}/${classId}/remover`, {});
    expect(rm.statusCode).toBe(303);
    expect(await t.db.selectFrom('aulas').select('id').where('id', '=', classId).executeTakeFirst()).toBeUndefined();
    const audit = await auditRows('aula', classId);
    expect(audit.map((a) => a.acao)).toEqual(['criar', 'editar', 'excluir']);
    expect(JSON.parse(audit[2]!.antes!)).toMatchObject({ inicio: '09:00', professor: 'Marina Teste' });
    expect((await get(`${base}/${classId}`)).statusCode).toBe(404);
  });

  it("copies another unit's week, replacing this one", async () => {
    const source = await t.db
      .selectFrom('aulas')
      .select(['dia_semana', 'inicio', 'fim', 'modalidade_id', 'professor', 'sala'])
      .where('unidade_id', '=', 1)
      .orderBy('dia_semana')
      .orderBy('inicio')
      .orderBy('id')
      .execute();
    const res = await post(`${base}/copiar`, { origem_id: '1' });
    expect(res.statusCode).toBe(303);
    const copied = await t.db
      .selectFrom('aulas')
      .select(['dia_semana', 'inicio', 'fim', 'modalidade_id', 'professor', 'sala'])
      .where('unidade_id', '=', 3)
      .orderBy('dia_semana')
      .orderBy('inicio')
      .orderBy('id')
      .execute();
    expect(copied).toEqual(source);
    const audit = (await auditRows('grade', 3)).at(-1)!;
    expect(audit.acao).toBe('copiar_grade');
    expect(JSON.parse(audit.depois!).origem_unidade_id).toBe(1);
    expect((await post(`${base}/copiar`, { origem_id: '3' })).statusCode).toBe(422);
  });
});

describe('survey questions', () => {
  it('creates an option question; an unanswered one is deleted', async () => {
    const res = await post('/admin/conteudo/perguntas/nova', {
      texto: 'Como está a música da unidade?',
      tipo: 'opcoes',
      opcoes: 'Ótima\nBoa\nRuim',
      ordem: '9',
      obrigatoria: '1',
    });
    expect(res.statusCode).toBe(303);
    const id = idFrom(res.headers.location);
    const options = await t.db
      .selectFrom('perguntas_opcoes')
      .select(['texto', 'valor'])
      .where('pergunta_id', '=', id)
      .orderBy('ordem')
      .execute();
    expect(options).toEqual([
      { texto: 'Ótima', valor: 3 },
      { texto: 'Boa', valor: 2 },
      { texto: 'Ruim', valor: 1 },
    ]);
    const add = await post(`/admin/conteudo/perguntas/${id}/opcoes`, { texto: 'Regular', valor: '2', ordem: '2' });
    expect(add.statusCode).toBe(303);
    const dupe = await post(`/admin/conteudo/perguntas/${id}/opcoes`, { texto: 'Regular' });
    expect(dupe.statusCode).toBe(422);
    const del = await post(`/admin/conteudo/perguntas/${id}/excluir`, {});
    expect(del.statusCode).toBe(303);
    expect(await t.db.selectFrom('perguntas').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await auditRows('pergunta', id)).map((a) => a.acao)).toEqual(['criar', 'excluir']);
  });

  it('refuses a question without text or with fewer than two options', async () => {
    const res = await post('/admin/conteudo/perguntas/nova', { texto: '', tipo: 'opcoes', opcoes: 'Só uma' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Informe o texto da pergunta.');
    expect(res.body).toContain('Informe pelo menos duas opções');
  });

  it('never deletes a question that has answers: it is deactivated and the answers keep their meaning', async () => {
    const q = await t.db
      .selectFrom('perguntas')
      .select(['id'])
      .where('tipo', '=', 'opcoes')
      .orderBy('ordem')
      .executeTakeFirstOrThrow();
    const opt = await t.db
      .selectFrom('perguntas_opcoes')
      .select('id')
      .where('pergunta_id', '=', q.id)
      .executeTakeFirstOrThrow();
    const { id: respostaId } = await t.db
      .insertInto('respostas_nps')
      .values({
        unidade_id: 1,
        nome_cliente: null,
        contato_cliente: null,
        comentario: null,
        nota_nps: null,
        envio_id: null,
        criado_em: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.db
      .insertInto('respostas_itens')
      .values({ resposta_id: respostaId, pergunta_id: q.id, opcao_id: opt.id, texto: null })
      .execute();

    const page = await get(`/admin/conteudo/perguntas/${q.id}`);
    expect(page.body).toContain('não pode ser excluída, só desativada');
    const del = await post(`/admin/conteudo/perguntas/${q.id}/excluir`, {});
    expect(del.statusCode).toBe(303);
    expect(del.headers.location).toBe(`/admin/conteudo/perguntas/${q.id}?ok=desativada`);
    expect(
      await t.db.selectFrom('perguntas').select(['id', 'ativo']).where('id', '=', q.id).executeTakeFirst(),
    ).toEqual({ id: q.id, ativo: 0 });
    const texto = (await t.db.selectFrom('perguntas').select('texto').where('id', '=', q.id).executeTakeFirstOrThrow())
      .texto;
    // the public survey stops asking it (the survey form may keep its questions for a
    // moment: the clock is moved past any such cache instead of sleeping)
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60_000);
      expect((await t.app.inject('/NPS/nps_app_php/index.php?unidade_id=1')).body).not.toContain(texto);
    } finally {
      vi.useRealTimers();
    }
    // the answered option cannot be deleted either
    const delOpt = await post(`/admin/conteudo/perguntas/${q.id}/opcoes/${opt.id}/excluir`, {});
    expect(delOpt.statusCode).toBe(303);
    expect(
      await t.db.selectFrom('perguntas_opcoes').select('ativo').where('id', '=', opt.id).executeTakeFirst(),
    ).toEqual({ ativo: 0 });
    expect(
      await t.db.selectFrom('respostas_itens').select('opcao_id').where('resposta_id', '=', respostaId).execute(),
    ).toEqual([{ opcao_id: opt.id }]);
    // reactivation works
    expect((await post(`/admin/conteudo/perguntas/${q.id}/ativo`, { ativo: '1' })).statusCode).toBe(303);
    expect(
      (await t.db.selectFrom('perguntas').select('ativo').where('id', '=', q.id).executeTakeFirstOrThrow()).ativo,
    ).toBe(1);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 120_000);
      expect((await t.app.inject('/NPS/nps_app_php/index.php?unidade_id=1')).body).toContain(texto);
    } finally {
      vi.useRealTimers();
    }
  });

  it('edits text, order and mandatory flag', async () => {
    const q = await t.db.selectFrom('perguntas').select(['id']).where('tipo', '=', 'texto').executeTakeFirstOrThrow();
    const res = await post(`/admin/conteudo/perguntas/${q.id}`, { texto: 'Algo precisa de conserto?', ordem: '7' });
    expect(res.statusCode).toBe(303);
    expect(
      await t.db
        .selectFrom('perguntas')
        .select(['texto', 'ordem', 'obrigatoria'])
        .where('id', '=', q.id)
        .executeTakeFirst(),
    ).toEqual({
      texto: 'Algo precisa de conserto?',
      ordem: 7,
      obrigatoria: 0,
    });
  });
});

describe('audit log page', () => {
  it('lists changes with who, what, before and after, filtered by entity', async () => {
    const res = await get('/admin/auditoria?entidade=plano');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Ana Admin');
    expect(res.body).toContain('desativar · plano');
    expect(res.body).not.toContain('· unidade');
    const json = await t.app.inject({
      url: '/admin/auditoria?entidade=unidade&pagina=99',
      headers: { cookie, accept: 'application/json' },
    });
    expect(json.json()).toMatchObject({
      pagina: 1,
      itens: expect.arrayContaining([expect.objectContaining({ entidade: 'unidade', usuario_nome: 'Ana Admin' })]),
    });
  });
});

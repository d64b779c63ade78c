// The unit's legal entity (razão social, CNPJ with check digits, registered address) on the
// unit form, and the prices and terms of each plan at a unit on its own screen: 422 with the
// values kept and nothing stored, centavos stored exactly, audit rows, the catalog told, a
// manager limited to their units, and prices that survive every other save of the links.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createContentServices } from '../../src/features/content/services';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
const admin = { cookie: '', token: '', id: 0 };
const managerA = { cookie: '', token: '' };
const managerB = { cookie: '', token: '' };
let unitA: number;
let unitB: number;
let planA: number;

const unitBody = {
  nome: 'Movimento Teste Jurídico',
  cidade: 'Florianópolis',
  uf: 'SC',
  bairro: 'Centro',
  endereco: 'Rua Felipe Schmidt, 100',
  cep: '88010-000',
  abre_1: '06:00',
  fecha_1: '22:00',
};

type Who = { cookie: string; token: string };
async function post(who: Who, url: string, fields: Record<string, string> | [string, string][]) {
  const pairs: [string, string][] = [
    ['csrf_token', who.token],
    ...(Array.isArray(fields) ? fields : Object.entries(fields)),
  ];
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(pairs),
  });
}
const get = (who: Who, url: string) => t.app.inject({ url, headers: { cookie: who.cookie } });
const unitRow = (id: number) => t.db.selectFrom('unidades').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const priceRow = (unitId: number, planId: number) =>
  t.db
    .selectFrom('planos_unidades')
    .selectAll()
    .where('unidade_id', '=', unitId)
    .where('plano_id', '=', planId)
    .executeTakeFirst();
const auditRows = (entidade: string, entidadeId: number) =>
  t.db
    .selectFrom('auditoria')
    .selectAll()
    .where('entidade', '=', entidade)
    .where('entidade_id', '=', entidadeId)
    .orderBy('id')
    .execute();
const pricesUrl = (unitId: number, planId?: number) =>
  `/admin/conteudo/unidades/${unitId}/planos${planId ? `/${planId}` : ''}`;

async function login(who: Who, email: string, password: string) {
  who.cookie = await loginAs(t.app, email, password);
  who.token = await staffToken(t.app, who.cookie, '/admin/conteudo');
}

beforeAll(async () => {
  t = await createTestApp();
  const units = await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').limit(2).execute();
  unitA = units[0]!.id;
  unitB = units[1]!.id;
  planA = (
    await t.db
      .selectFrom('planos_unidades')
      .select('plano_id')
      .where('unidade_id', '=', unitA)
      .orderBy('plano_id')
      .executeTakeFirstOrThrow()
  ).plano_id;
  const a = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  admin.id = a.id;
  await login(admin, a.email, a.password);
  const ga = await createStaffUser(t.db, { papel: 'gerente', nome: 'Gabi Gerente', unidadeIds: [unitA] });
  await login(managerA, ga.email, ga.password);
  const gb = await createStaffUser(t.db, { papel: 'gerente', nome: 'Beto Gerente', unidadeIds: [unitB] });
  await login(managerB, gb.email, gb.password);
});
afterAll(async () => t?.close());

describe('the unit legal entity', () => {
  let unitId: number;

  it('is saved with the CNPJ bare and shown formatted; an empty registered address stays null', async () => {
    const res = await post(admin, '/admin/conteudo/unidades/nova', [
      ...Object.entries(unitBody),
      ['razao_social', 'Teste Jurídico Academia Ltda.'],
      ['cnpj', '11.222.333/0001-81'],
      ['endereco_juridico', ''],
      ['planos', String(planA)],
    ]);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    unitId = Number(/unidades\/(\d+)/.exec(String(res.headers.location))![1]);
    expect(await unitRow(unitId)).toMatchObject({
      razao_social: 'Teste Jurídico Academia Ltda.',
      cnpj: '11222333000181',
      endereco_juridico: null,
    });
    const page = await get(admin, `/admin/conteudo/unidades/${unitId}`);
    expect(page.body).toContain('value="11.222.333/0001-81"');
    expect(page.body).toContain('Planos e preços');
  });

  it('a wrong check digit: 422, the message by the field, the values kept, nothing stored', async () => {
    const before = await unitRow(unitId);
    const audits = (await auditRows('unidade', unitId)).length;
    const res = await post(admin, `/admin/conteudo/unidades/${unitId}`, {
      ...unitBody,
      razao_social: 'Outra Razão Social Ltda.',
      cnpj: '11.222.333/0001-82',
      endereco_juridico: 'Rua Nova, 1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('id="f-cnpj-erro"');
    expect(res.body).toContain('CNPJ inválido');
    expect(res.body).toMatch(/id="f-cnpj"[^>]*aria-invalid="true"/);
    expect(res.body).toContain('value="11.222.333/0001-82"');
    expect(res.body).toContain('value="Outra Razão Social Ltda."');
    expect(res.body).toContain('value="Rua Nova, 1"');
    expect(await unitRow(unitId)).toEqual(before);
    expect(await auditRows('unidade', unitId)).toHaveLength(audits);

    for (const cnpj of ['11111111111111', '1122233300018', 'abc']) {
      const r = await post(admin, `/admin/conteudo/unidades/${unitId}`, { ...unitBody, razao_social: 'X Ltda.', cnpj });
      expect(r.statusCode, cnpj).toBe(422);
      expect(r.body, cnpj).toContain('CNPJ inválido');
    }
    const noCnpj = await post(admin, `/admin/conteudo/unidades/${unitId}`, { ...unitBody, razao_social: 'X Ltda.' });
    expect(noCnpj.statusCode).toBe(422);
    expect(noCnpj.body).toContain('Informe o CNPJ da razão social.');
    const noName = await post(admin, `/admin/conteudo/unidades/${unitId}`, { ...unitBody, cnpj: '11222333000181' });
    expect(noName.statusCode).toBe(422);
    expect(noName.body).toContain('Informe a razão social');
    expect(await unitRow(unitId)).toEqual(before);
  });

  it('a change is audited with before and after', async () => {
    const res = await post(admin, `/admin/conteudo/unidades/${unitId}`, {
      ...unitBody,
      razao_social: 'Teste Jurídico Fitness Ltda.',
      cnpj: '12ABC34501DE35', // alphanumeric CNPJ (issued since July 2026)
      endereco_juridico: 'Avenida Paulista, 1009, São Paulo/SP',
      planos: String(planA),
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    expect(await unitRow(unitId)).toMatchObject({ cnpj: '12ABC34501DE35' });
    const last = (await auditRows('unidade', unitId)).at(-1)!;
    expect(last).toMatchObject({ acao: 'editar', usuario_id: admin.id });
    expect(JSON.parse(last.antes!)).toMatchObject({
      razao_social: 'Teste Jurídico Academia Ltda.',
      cnpj: '11222333000181',
    });
    expect(JSON.parse(last.depois!)).toMatchObject({
      razao_social: 'Teste Jurídico Fitness Ltda.',
      cnpj: '12ABC34501DE35',
      endereco_juridico: 'Avenida Paulista, 1009, São Paulo/SP',
    });
  });

  it('cannot be removed while a plan of the unit is sold online', async () => {
    const online = await post(admin, pricesUrl(unitId, planA), { mensalidade: '99,90', venda_online: '1' });
    expect(online.statusCode).toBe(303);
    const res = await post(admin, `/admin/conteudo/unidades/${unitId}`, { ...unitBody, planos: String(planA) });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Há planos vendidos online nesta unidade');
    expect(await unitRow(unitId)).toMatchObject({ cnpj: '12ABC34501DE35' });
  });
});

describe('prices and terms of a plan at a unit', () => {
  it('lists the plans of the unit with their prices, and links each to its form', async () => {
    const res = await get(admin, pricesUrl(unitA));
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Plano Mensal');
    expect(res.body).toContain(`href="${pricesUrl(unitA, planA)}"`);
    const unitPage = await get(admin, `/admin/conteudo/unidades/${unitA}`);
    expect(unitPage.body).toContain('id="planos-precos"');
    expect(unitPage.body).toContain(`href="${pricesUrl(unitA, planA)}"`);
    const formPage = await get(admin, pricesUrl(unitA, planA));
    expect(formPage.statusCode).toBe(200);
    expect(formPage.body).toContain('name="mensalidade"');
  });

  it('stores centavos exactly, audits the change and tells the catalog', async () => {
    const res = await post(admin, pricesUrl(unitA, planA), {
      mensalidade: '1.299,90',
      taxa_matricula: 'R$ 99,00',
      taxa_anual: '149',
      taxa_anual_mes: '3',
      fidelidade_meses: '12',
      multa_percentual: '20',
      venda_online: '1',
    });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    expect(res.headers.location).toBe(`${pricesUrl(unitA)}?ok=salvo`);
    expect(await priceRow(unitA, planA)).toMatchObject({
      mensalidade_centavos: 129990,
      taxa_matricula_centavos: 9900,
      taxa_anual_centavos: 14900,
      taxa_anual_mes: 3,
      fidelidade_meses: 12,
      multa_percentual: 20,
      venda_online: 1,
    });
    const last = (await auditRows('plano_unidade', unitA)).at(-1)!;
    expect(last).toMatchObject({ acao: 'editar_precos', usuario_id: admin.id });
    expect(JSON.parse(last.depois!)).toMatchObject({ plano_id: planA, mensalidade_centavos: 129990, venda_online: 1 });
    const again = await get(admin, pricesUrl(unitA, planA));
    expect(again.body).toContain('value="1299,90"');
    expect((await get(admin, pricesUrl(unitA))).body).toContain('1.299,90');

    const onCatalogChange = vi.fn();
    const services = createContentServices({ db: t.db, onCatalogChange });
    const r = await services.planPrices.update({ id: admin.id }, unitA, planA, {
      mensalidade: '129,90',
      venda_online: '1',
    });
    expect(r.ok).toBe(true);
    expect(onCatalogChange).toHaveBeenCalledTimes(1);
    expect(await priceRow(unitA, planA)).toMatchObject({
      mensalidade_centavos: 12990,
      taxa_matricula_centavos: 0,
      taxa_anual_centavos: 0,
      taxa_anual_mes: null,
      fidelidade_meses: 0,
    });
  });

  it('refuses bad values with 422, a message by each field, the values kept and nothing stored', async () => {
    const before = await priceRow(unitA, planA);
    const audits = (await auditRows('plano_unidade', unitA)).length;
    const res = await post(admin, pricesUrl(unitA, planA), {
      mensalidade: '100.000,01',
      taxa_matricula: '-5',
      taxa_anual: '12,345',
      fidelidade_meses: '37',
      multa_percentual: '101',
      venda_online: '1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toMatch(/id="f-mensalidade-erro"[^>]*>Valor alto demais/);
    expect(res.body).toMatch(/id="f-taxa_matricula-erro"[^>]*>O valor não pode ser negativo/);
    expect(res.body).toMatch(/id="f-taxa_anual-erro"[^>]*>Valor inválido/);
    expect(res.body).toContain('id="f-fidelidade_meses-erro"');
    expect(res.body).toContain('id="f-multa_percentual-erro"');
    expect(res.body).toContain('value="100.000,01"');
    expect(res.body).toContain('value="-5"');
    expect(await priceRow(unitA, planA)).toEqual(before);
    expect(await auditRows('plano_unidade', unitA)).toHaveLength(audits);

    const month = await post(admin, pricesUrl(unitA, planA), { mensalidade: '99', taxa_anual: '149' });
    expect(month.statusCode).toBe(422);
    expect(month.body).toContain('Escolha o mês em que a taxa anual vence.');
    const fine = await post(admin, pricesUrl(unitA, planA), { mensalidade: '99', multa_percentual: '10' });
    expect(fine.statusCode).toBe(422);
    expect(fine.body).toContain('Sem fidelidade não há multa');
    const unpriced = await post(admin, pricesUrl(unitA, planA), { mensalidade: '', venda_online: '1' });
    expect(unpriced.statusCode).toBe(422);
    expect(unpriced.body).toMatch(/id="f-venda_online-erro"[^>]*>Para vender online, informe a mensalidade/);
    expect(await priceRow(unitA, planA)).toEqual(before);
  });

  it('sells online only where the unit has its legal entity', async () => {
    await t.db.updateTable('unidades').set({ razao_social: null, cnpj: null }).where('id', '=', unitB).execute();
    const planB = (
      await t.db
        .selectFrom('planos_unidades')
        .select('plano_id')
        .where('unidade_id', '=', unitB)
        .orderBy('plano_id')
        .executeTakeFirstOrThrow()
    ).plano_id;
    await t.db
      .updateTable('planos_unidades')
      .set({ venda_online: 0 })
      .where('unidade_id', '=', unitB)
      .where('plano_id', '=', planB)
      .execute();
    const res = await post(admin, pricesUrl(unitB, planB), { mensalidade: '129,90', venda_online: '1' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('a unidade precisa de razão social e CNPJ válido');
    expect(await priceRow(unitB, planB)).toMatchObject({ venda_online: 0 });
    expect((await get(admin, pricesUrl(unitB))).body).toContain('nenhum plano pode ser vendido online');
    // Priced but not sold online is fine.
    expect((await post(admin, pricesUrl(unitB, planB), { mensalidade: '129,90' })).statusCode).toBe(303);
  });

  it('a plan the unit does not offer, or a unit that does not exist, is 404', async () => {
    const notOffered = await t.db
      .selectFrom('planos')
      .select('id')
      .where('id', 'not in', (eb) =>
        eb.selectFrom('planos_unidades').select('plano_id').where('unidade_id', '=', unitA),
      )
      .executeTakeFirstOrThrow();
    expect((await get(admin, pricesUrl(unitA, notOffered.id))).statusCode).toBe(404);
    expect((await post(admin, pricesUrl(unitA, notOffered.id), { mensalidade: '1' })).statusCode).toBe(404);
    expect((await get(admin, pricesUrl(999_999))).statusCode).toBe(404);
  });

  it("a manager edits their unit's prices; another unit's are 403 and stay as they were", async () => {
    expect((await get(managerA, pricesUrl(unitA))).statusCode).toBe(200);
    const ok = await post(managerA, pricesUrl(unitA, planA), { mensalidade: '139,90', venda_online: '1' });
    expect(ok.statusCode).toBe(303);
    expect(await priceRow(unitA, planA)).toMatchObject({ mensalidade_centavos: 13990 });
    expect((await get(managerA, '/admin/conteudo')).body).toContain(`href="${pricesUrl(unitA)}"`);

    const before = await priceRow(unitA, planA);
    expect((await get(managerB, pricesUrl(unitA))).statusCode).toBe(403);
    expect((await get(managerB, pricesUrl(unitA, planA))).statusCode).toBe(403);
    const refused = await post(managerB, pricesUrl(unitA, planA), { mensalidade: '1,00', venda_online: '1' });
    expect(refused.statusCode).toBe(403);
    expect(await priceRow(unitA, planA)).toEqual(before);
    // The unit form (legal entity) stays admin-only.
    expect((await get(managerA, `/admin/conteudo/unidades/${unitA}`)).statusCode).toBe(403);
  });

  it('prices survive a save of the unit form, of the plan form and a catalog import round trip', async () => {
    const before = await priceRow(unitA, planA);
    expect(before?.mensalidade_centavos).toBe(13990);
    const services = createContentServices({ db: t.db });
    const unit = (await services.units.get(unitA))!;
    const { unitValues } = await import('../../src/features/content/units/units.routes');
    const body = unitValues(unit);
    expect((await services.units.update({ id: admin.id }, unitA, body)).ok).toBe(true);
    expect(await priceRow(unitA, planA)).toEqual(before);

    const plan = (await services.plans.get(planA))!;
    const planBody = {
      nome: plan.nome,
      descricao: plan.descricao ?? '',
      preco: String(plan.preco_centavos / 100).replace('.', ','),
      periodicidade: plan.periodicidade,
      ordem: String(plan.ordem),
      unidades: plan.unidadeIds.map(String),
    };
    expect((await services.plans.update({ id: admin.id }, planA, planBody)).ok).toBe(true);
    expect(await priceRow(unitA, planA)).toEqual(before);

    const file = await services.transfer.exportCatalog();
    // A changed plan is rewritten by the import; its links that stay keep their prices.
    const edited = {
      ...file,
      planos: file.planos.map((p) => (p.nome === plan.nome ? { ...p, ordem: p.ordem + 1 } : p)),
    };
    const imported = await services.transfer.importCatalog(edited);
    expect(imported.ok).toBe(true);
    expect(await priceRow(unitA, planA)).toEqual(before);
    expect(await unitRow(unitA)).toMatchObject({ razao_social: expect.any(String), cnpj: expect.any(String) });
  });
});

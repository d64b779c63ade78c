import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index';
import { createSurveyRepository } from '../../src/features/feedback/survey/survey.repository';
import { createSurveyService, surveyBatchStore } from '../../src/features/feedback/survey/survey.service';
import { createSurveyWriter, type PendingResponse } from '../../src/features/feedback/survey/survey.writer';
import { transactional } from '../../src/db/transactional';
import { fingerprintOf } from '../../src/platform/envio/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';

const FORM = '/NPS/nps_app_php/index.php';
const POST = '/NPS/nps_app_php/salvar_resposta.php';

let t: TestContext;
let unitId: number;
let inactiveUnitId: number;
let q: { escala: number; limpeza: number; recepcao: number; equipamentos: number; texto: number };
const opt: Record<number, { id: number; valor: number | null }[]> = {};

beforeAll(async () => {
  t = await createTestApp();
  const units = await t.db.selectFrom('unidades').select(['id', 'ativo', 'nome']).orderBy('id').execute();
  unitId = units.find((u) => u.ativo === 1)!.id;
  inactiveUnitId = units.find((u) => u.ativo === 0)!.id;
  const questions = await t.db.selectFrom('perguntas').select(['id', 'tipo', 'obrigatoria']).orderBy('ordem').execute();
  q = {
    escala: questions[0]!.id,
    limpeza: questions[1]!.id,
    recepcao: questions[2]!.id,
    equipamentos: questions[3]!.id,
    texto: questions[4]!.id,
  };
  for (const o of await t.db
    .selectFrom('perguntas_opcoes')
    .select(['id', 'pergunta_id', 'valor'])
    .orderBy('ordem')
    .execute()) {
    (opt[o.pergunta_id] ??= []).push({ id: o.id, valor: o.valor });
  }
});
afterAll(async () => t?.close());

const optionFor = (question: number, valor: number) => opt[question]!.find((o) => o.valor === valor)!.id;

async function counts() {
  const r = await t.db
    .selectFrom('respostas_nps')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const i = await t.db
    .selectFrom('respostas_itens')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const m = await t.db
    .selectFrom('fila_emails')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return { respostas: Number(r.n), itens: Number(i.n), emails: Number(m.n) };
}

async function openForm(id = unitId) {
  const { token, cookie, res } = await fetchForm(t.app, `${FORM}?unidade_id=${id}`, '_token');
  const envio = /name="envio_id" value="([^"]+)"/.exec(res.body)?.[1];
  return { token, cookie, envio: envio!, body: res.body };
}

function validFields(
  token: string,
  extra: Record<string, string | undefined> = {},
): Record<string, string | undefined> {
  return {
    _token: token,
    unidade_id: String(unitId),
    [`respostas[${q.escala}]`]: String(optionFor(q.escala, 9)),
    [`respostas[${q.limpeza}]`]: String(optionFor(q.limpeza, 4)),
    [`respostas[${q.recepcao}]`]: String(optionFor(q.recepcao, 3)),
    ...extra,
  };
}

async function post(cookie: string, fields: Record<string, string | undefined>, accept?: string) {
  return t.app.inject({
    method: 'POST',
    url: POST,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    payload: form(fields),
  });
}

describe('survey form page', () => {
  it('renders the questions with a 0–10 scale, hidden _token, unidade_id and envio_id', async () => {
    const { body, envio } = await openForm();
    expect(body).toContain('name="_token"');
    expect(body).toMatch(new RegExp(`name="unidade_id" value="${unitId}"`));
    expect(envio).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    expect(body).toContain('class="scale"');
    expect(body.match(new RegExp(`name="respostas\\[${q.escala}\\]"`, 'g'))).toHaveLength(11);
    expect(body).toContain(`name="textos[${q.texto}]"`);
    expect(body).toContain(`name="texto_ok[${q.texto}]"`);
    expect(body).toContain('Está tudo certo');
    // two renders, two submission ids
    expect((await openForm()).envio).not.toBe(envio);
  });

  it('shows a unit chooser without an id, 404 for unknown/inactive, 400 for malformed', async () => {
    const chooser = await t.app.inject(FORM);
    expect(chooser.statusCode).toBe(200);
    expect(chooser.body).toContain(`${FORM}?unidade_id=${unitId}`);
    expect(chooser.body).not.toContain(`?unidade_id=${inactiveUnitId}"`);
    expect((await t.app.inject(`${FORM}?unidade_id=${inactiveUnitId}`)).statusCode).toBe(404);
    expect((await t.app.inject(`${FORM}?unidade_id=999999`)).statusCode).toBe(404);
    expect((await t.app.inject(`${FORM}?unidade_id=abc`)).statusCode).toBe(400);
    expect((await t.app.inject(`${FORM}?unidade_id=-1`)).statusCode).toBe(400);
  });
});

describe('survey submission', () => {
  it('stores header and items in one go, copies the NPS score, 303 to obrigado.php, queues no mail', async () => {
    const before = await counts();
    const { token, cookie, envio } = await openForm();
    const res = await post(
      cookie,
      validFields(token, {
        envio_id: envio,
        [`textos[${q.texto}]`]: '  A esteira 3 está fazendo barulho.  ',
        nome_cliente: 'Ana',
        contato_cliente: 'ana@example.com',
        comentario: 'Gostei muito',
      }),
    );
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/NPS/nps_app_php/obrigado.php');
    const after = await counts();
    expect(after.respostas).toBe(before.respostas + 1);
    expect(after.itens).toBe(before.itens + 4);
    expect(after.emails).toBe(before.emails);
    const header = await t.db
      .selectFrom('respostas_nps')
      .selectAll()
      .where('envio_id', '=', envio)
      .executeTakeFirstOrThrow();
    expect(header).toMatchObject({
      unidade_id: unitId,
      nota_nps: 9,
      nome_cliente: 'Ana',
      contato_cliente: 'ana@example.com',
      comentario: 'Gostei muito',
    });
    const items = await t.db
      .selectFrom('respostas_itens')
      .selectAll()
      .where('resposta_id', '=', header.id)
      .orderBy('pergunta_id')
      .execute();
    expect(items.map((i) => i.pergunta_id)).toEqual([q.escala, q.limpeza, q.recepcao, q.texto]);
    expect(items.find((i) => i.pergunta_id === q.texto)).toMatchObject({
      texto: 'A esteira 3 está fazendo barulho.',
      texto_ok: 0,
      opcao_id: null,
    });
    const thanks = await t.app.inject('/NPS/nps_app_php/obrigado.php');
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Obrigado');
  });

  it('accepts texto_ok instead of a text', async () => {
    const { token, cookie } = await openForm();
    const res = await post(cookie, validFields(token, { [`texto_ok[${q.texto}]`]: '1', envio_id: 'texto-ok-0001' }));
    expect(res.statusCode).toBe(303);
    const header = await t.db
      .selectFrom('respostas_nps')
      .select('id')
      .where('envio_id', '=', 'texto-ok-0001')
      .executeTakeFirstOrThrow();
    const item = await t.db
      .selectFrom('respostas_itens')
      .selectAll()
      .where('resposta_id', '=', header.id)
      .where('pergunta_id', '=', q.texto)
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ texto_ok: 1, texto: null });
  });

  it('a double submit with the same envio_id stores one response and answers the same', async () => {
    const before = await counts();
    const { token, cookie, envio } = await openForm();
    const fields = validFields(token, { envio_id: envio });
    const [a, b] = await Promise.all([post(cookie, fields), post(cookie, fields)]);
    const c = await post(cookie, fields);
    for (const res of [a, b, c]) {
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/NPS/nps_app_php/obrigado.php');
    }
    const after = await counts();
    expect(after.respostas).toBe(before.respostas + 1);
    expect(after.itens).toBe(before.itens + 3);
  });

  it('stores without envio_id too (it is optional)', async () => {
    const before = await counts();
    const { token, cookie } = await openForm();
    expect((await post(cookie, validFields(token))).statusCode).toBe(303);
    expect((await post(cookie, validFields(token))).statusCode).toBe(303);
    expect((await counts()).respostas).toBe(before.respostas + 2);
  });

  it('refuses a missing mandatory answer with 422, the form again, values kept, nothing stored', async () => {
    const before = await counts();
    const { token, cookie } = await openForm();
    const fields = validFields(token, { nome_cliente: 'Bruno <b>', comentario: 'Texto mantido' });
    delete fields[`respostas[${q.limpeza}]`];
    const res = await post(cookie, fields);
    expect(res.statusCode).toBe(422);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Escolha uma das opções.');
    expect(res.body).toContain('value="Bruno &lt;b>"');
    expect(res.body).toContain('Texto mantido');
    expect(res.body).toMatch(new RegExp(`value="${optionFor(q.escala, 9)}"[^>]*checked`));
    expect(res.body).toContain('aria-invalid="true"');
    expect(await counts()).toEqual(before);
  });

  it('refuses an option of another question, a missing scale and an unknown question (JSON errors)', async () => {
    const before = await counts();
    const { token, cookie } = await openForm();
    const fields = validFields(token, {
      [`respostas[${q.limpeza}]`]: String(optionFor(q.recepcao, 4)),
      'respostas[999999]': '1',
    });
    delete fields[`respostas[${q.escala}]`];
    const res = await post(cookie, fields, 'application/json');
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(errors[`respostas[${q.limpeza}]`]).toMatch(/opções/);
    expect(errors[`respostas[${q.escala}]`]).toMatch(/0 a 10/);
    expect(errors['respostas[999999]']).toBeTruthy();
    expect(await counts()).toEqual(before);
  });

  it('refuses text for an option question, an option for the text question, and long fields', async () => {
    const before = await counts();
    const { token, cookie } = await openForm();
    const res = await post(
      cookie,
      validFields(token, {
        [`textos[${q.limpeza}]`]: 'texto indevido',
        [`respostas[${q.texto}]`]: String(optionFor(q.limpeza, 4)),
        nome_cliente: 'x'.repeat(121),
        contato_cliente: 'y'.repeat(255),
        comentario: 'z'.repeat(3001),
      }),
      'application/json',
    );
    expect(res.statusCode).toBe(422);
    const errors = res.json().errors;
    expect(Object.keys(errors).sort()).toEqual(
      ['comentario', 'contato_cliente', 'nome_cliente', `respostas[${q.limpeza}]`, `textos[${q.texto}]`].sort(),
    );
    const longText = await post(
      cookie,
      validFields(token, { [`textos[${q.texto}]`]: 'a'.repeat(3001) }),
      'application/json',
    );
    expect(longText.json().errors[`textos[${q.texto}]`]).toMatch(/3000/);
    const okText = await post(
      cookie,
      validFields(token, { [`textos[${q.texto}]`]: 'a'.repeat(3000), comentario: 'c'.repeat(3000) }),
    );
    expect(okText.statusCode).toBe(303);
    expect((await counts()).respostas).toBe(before.respostas + 1);
  });

  it('refuses an inactive or unknown unit', async () => {
    const before = await counts();
    const { token, cookie } = await openForm();
    for (const id of [String(inactiveUnitId), '999999', 'abc', '']) {
      const res = await post(cookie, validFields(token, { unidade_id: id }));
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('Escolha uma unidade ativa');
    }
    expect(await counts()).toEqual(before);
  });

  it('honours an inactive question and an inactive option', async () => {
    const now = nowIso();
    const extra = await t.db
      .insertInto('perguntas')
      .values({ texto: 'Pergunta desativada', tipo: 'opcoes', obrigatoria: 1, ordem: 99, ativo: 0, criado_em: now })
      .returning('id')
      .executeTakeFirstOrThrow();
    const inactiveOption = await t.db
      .insertInto('perguntas_opcoes')
      .values({ pergunta_id: q.limpeza, texto: 'Antiga', valor: 0, ordem: 99, ativo: 0 })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { token, cookie, body } = await openForm();
    expect(body).not.toContain('Pergunta desativada');
    expect(body).not.toContain('Antiga');
    // the inactive mandatory question is not required
    expect((await post(cookie, validFields(token))).statusCode).toBe(303);
    const res = await post(
      cookie,
      validFields(token, { [`respostas[${q.limpeza}]`]: String(inactiveOption.id) }),
      'application/json',
    );
    expect(res.statusCode).toBe(422);
    const res2 = await post(
      cookie,
      validFields(token, { [`respostas[${extra.id}]`]: String(inactiveOption.id) }),
      'application/json',
    );
    expect(res2.statusCode).toBe(422);
  });

  it('refuses a missing or wrong CSRF token with 403 and stores nothing', async () => {
    const before = await counts();
    const { token, cookie } = await openForm();
    const { _token: _omitted, ...fields } = validFields(token);
    const missing = await post(cookie, fields);
    expect(missing.statusCode).toBe(403);
    expect(missing.body).toContain('/NPS/nps_app_php/index.php');
    const noCookie = await post('', validFields(token));
    expect(noCookie.statusCode).toBe(403);
    const wrong = await post(cookie, validFields(`x${token}`));
    expect(wrong.statusCode).toBe(403);
    expect(await counts()).toEqual(before);
  });
});

describe('survey writer (group commit)', () => {
  const store = () => surveyBatchStore(transactional(t.db, createSurveyRepository));
  const unit = { id: 0, nome: 'Unidade do lote', cidade: 'São Paulo' };
  const response = (key: string | null, nota = 10, unidadeId = unitId): PendingResponse => ({
    record: {
      unidadeId,
      nomeCliente: null,
      contatoCliente: null,
      comentario: null,
      notaNps: nota,
      envioId: key,
      criadoEm: nowIso(),
      itens: [{ perguntaId: q.escala, opcaoId: optionFor(q.escala, nota), texto: null, textoOk: false }],
    },
    envio: key ? { id: key, fingerprint: fingerprintOf({ nota }) } : null,
    unit: { ...unit, id: unidadeId },
  });

  it(`stores a batch in one transaction: a repeat inside it answers with the first one's id, another content \
under the same key is stored under its content key`, async () => {
    const writer = createSurveyWriter(store());
    const before = await counts();
    // all issued in the same turn of the event loop: one batch
    const [first, repeat, changed, keyless] = await Promise.all([
      writer.write(response('lote-a-000001')),
      writer.write(response('lote-a-000001')),
      writer.write(response('lote-a-000001', 3)),
      writer.write(response(null)),
    ]);
    expect(first).toMatchObject({ status: 'stored' });
    expect(repeat).toEqual({ status: 'duplicate', id: first!.id });
    expect(changed).toMatchObject({ status: 'stored' });
    expect(changed!.id).not.toBe(first!.id);
    expect(keyless).toMatchObject({ status: 'stored' });
    const after = await counts();
    expect(after.respostas).toBe(before.respostas + 3);
    expect(after.itens).toBe(before.itens + 3);
    const envios = await t.db
      .selectFrom('envios')
      .select(['envio_id', 'registro_id'])
      .where('formulario', '=', 'pesquisa')
      .where('envio_id', 'like', 'lote-a-000001%')
      .orderBy('envio_id')
      .execute();
    expect(envios).toEqual([
      { envio_id: 'lote-a-000001', registro_id: first!.id },
      { envio_id: expect.stringMatching(/^lote-a-000001:[0-9a-f]{16}$/), registro_id: changed!.id },
    ]);
  });

  it('isolates a failing record: the batch is rolled back and each is written again alone', async () => {
    const writer = createSurveyWriter(store());
    const before = await counts();
    const results = await Promise.allSettled([
      writer.write(response('lote-b-000001')),
      writer.write(response('lote-b-000001')),
      writer.write(response('lote-c-000001', 10, 99999999)), // no such unit: foreign key violation
      writer.write(response('lote-d-000001')),
    ]);
    expect(results[0]).toMatchObject({ status: 'fulfilled', value: { status: 'stored' } });
    const firstId = (results[0] as PromiseFulfilledResult<{ id: number }>).value.id;
    expect(results[1]).toEqual({ status: 'fulfilled', value: { status: 'duplicate', id: firstId } });
    expect(results[2]).toMatchObject({ status: 'rejected' });
    expect(results[3]).toMatchObject({ status: 'fulfilled', value: { status: 'stored' } });
    const after = await counts();
    expect(after.respostas).toBe(before.respostas + 2);
    // the failed record kept no claim
    expect(
      await t.db.selectFrom('envios').select('envio_id').where('envio_id', '=', 'lote-c-000001').execute(),
    ).toEqual([]);
  });

  it(`a key already on a response but no longer in envios (past the window) is a repeat for any content, and \
keeps no claim`, async () => {
    const writer = createSurveyWriter(store());
    const stored = await writer.write(response('lote-e-000001'));
    expect(stored).toMatchObject({ status: 'stored' });
    await t.db.deleteFrom('envios').where('envio_id', '=', 'lote-e-000001').execute();
    const before = await counts();
    expect(await writer.write(response('lote-e-000001', 2))).toEqual({ status: 'duplicate', id: null });
    expect((await counts()).respostas).toBe(before.respostas);
    expect(
      await t.db.selectFrom('envios').select('envio_id').where('envio_id', 'like', 'lote-e-000001%').execute(),
    ).toEqual([]);
  });
});

describe('survey service inside its transaction', () => {
  it('stores an answer when its units cache expires between the form check and the commit', async () => {
    // cacheMs 0: every read of the units is a new query. One made inside the storing
    // transaction would wait, on SQLite, for the connection that transaction holds.
    const service = createSurveyService(transactional(t.db, createSurveyRepository), { cacheMs: 0 });
    const body = {
      unidade_id: '1',
      'respostas[1]': '10',
      'respostas[2]': '15',
      'respostas[3]': '19',
      'respostas[4]': '22',
      'texto_ok[5]': '1',
      envio_id: 'cache-expirado-0000000001',
    };
    const outcome = await Promise.race([
      service.submit(body),
      new Promise((resolve) => setTimeout(() => resolve({ status: 'waited 5 s' }), 5_000)),
    ]);
    expect(outcome).toMatchObject({ status: 'stored' });
  });
});

// A repeat is the same envio_id AND the same content (docs/decisions/183): on the lead form,
// the survey and the free message, a second POST of the same form with the same content
// stores nothing; a different content under that envio_id (a page the back button restored)
// is stored under a key of its own, where an exact repeat of it is recognised too. Also
// under a race. Runs on SQLite and on PostgreSQL.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentKey, fingerprintOf } from '../../src/platform/envio/index';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { FALE_AQUI_POST, multipartBody, nextAddress, type FilePart } from '../helpers/upload';

const LEAD = '/pages/Franquia/index.php';
const SURVEY_FORM = '/NPS/nps_app_php/index.php';
const SURVEY_POST = '/NPS/nps_app_php/salvar_resposta.php';
const FALE_FORM = '/NPS/nps_app_php/fale_aqui.php';

let t: TestContext;
let unitId: number;
let questions: { id: number }[];

beforeAll(async () => {
  t = await createTestApp();
  unitId = (
    await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  ).id;
  questions = await t.db.selectFrom('perguntas').select('id').where('ativo', '=', 1).orderBy('ordem').execute();
});
afterAll(async () => t?.close());

let n = 0;
const newKey = () => `impressao-${++n}-${Math.random().toString(36).slice(2, 10)}`;

async function count(table: 'franquia_leads' | 'respostas_nps' | 'fale_aqui' | 'fale_aqui_arquivos') {
  return Number(
    (
      await t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
}

async function envioRows(form: string, id: string) {
  return t.db
    .selectFrom('envios')
    .select(['envio_id', 'registro_id', 'impressao'])
    .where('formulario', '=', form)
    .where('envio_id', 'like', `${id}%`)
    .orderBy('envio_id')
    .execute();
}

function sendLead(envio: string, over: Record<string, string> = {}) {
  return (async () => {
    const page = await fetchForm(t.app, LEAD);
    return t.app.inject({
      method: 'POST',
      url: LEAD,
      remoteAddress: nextAddress(),
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      payload: form({
        csrf_token: page.token,
        envio_id: envio,
        nome_completo: 'Maria José da Conceição',
        whatsapp: '(11) 98765-4321',
        email: 'maria@example.com',
        cidade_regiao: 'Campinas - SP',
        investimento_parceria: 'sozinho',
        faixa_investimento: '300mil_500mil',
        prazo_proximo_passo: 'ate_3_meses',
        experiencia_negocio: 'empresario',
        motivo_interesse: 'ter_meu_negocio',
        aceita_contato: 'sim',
        ...over,
      }),
    });
  })();
}

async function optionFor(question: number, index: number) {
  const rows = await t.db
    .selectFrom('perguntas_opcoes')
    .select('id')
    .where('pergunta_id', '=', question)
    .where('ativo', '=', 1)
    .orderBy('ordem')
    .execute();
  return String(rows[index % rows.length]!.id);
}

async function surveyFields(score: number) {
  const fields: Record<string, string> = { unidade_id: String(unitId) };
  for (const [i, q] of questions.entries()) {
    const row = await t.db.selectFrom('perguntas').select('tipo').where('id', '=', q.id).executeTakeFirstOrThrow();
    if (row.tipo === 'texto') fields[`texto_ok[${q.id}]`] = '1';
    else fields[`respostas[${q.id}]`] = await optionFor(q.id, i === 0 ? score : 0);
  }
  return fields;
}

async function sendSurvey(envio: string, score: number, comentario = '') {
  const page = await fetchForm(t.app, `${SURVEY_FORM}?unidade_id=${unitId}`, '_token');
  return t.app.inject({
    method: 'POST',
    url: SURVEY_POST,
    remoteAddress: nextAddress(),
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ _token: page.token, envio_id: envio, ...(await surveyFields(score)), comentario }),
  });
}

async function sendFale(envio: string, mensagem: string, files: FilePart[] = []) {
  const page = await fetchForm(t.app, FALE_FORM, '_token');
  const body = await multipartBody(
    { _token: page.token, envio_id: envio, nome_completo: 'Eva', unidade_id: String(unitId), mensagem },
    files,
  );
  return t.app.inject({
    method: 'POST',
    url: FALE_AQUI_POST,
    remoteAddress: nextAddress(),
    headers: { cookie: page.cookie, 'content-type': body.contentType },
    payload: body.payload,
  });
}

const photo = async (background: string): Promise<FilePart> => ({
  name: 'foto.png',
  type: 'image/png',
  data: await sharp({ create: { width: 24, height: 24, channels: 3, background } })
    .png()
    .toBuffer(),
});

describe('the fingerprint', () => {
  it('is the same for the same content whatever the key order, and the content key fits the column', () => {
    expect(fingerprintOf({ a: 1, b: ['x', null] })).toBe(fingerprintOf({ b: ['x', null], a: 1 }));
    expect(fingerprintOf({ a: 1 })).not.toBe(fingerprintOf({ a: 2 }));
    const key = contentKey('x'.repeat(64), fingerprintOf('y'));
    expect(key.length).toBeLessThanOrEqual(64);
    expect(key).toContain(':');
  });
});

describe('lead form', () => {
  it('a double click is stored once; a different lead under the same key is stored; its repeat is not', async () => {
    const key = newKey();
    const before = await count('franquia_leads');
    const first = await sendLead(key);
    const again = await sendLead(key);
    expect(first.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await count('franquia_leads')).toBe(before + 1);

    const second = await sendLead(key, { nome_completo: 'Outra Pessoa da Silva', email: 'outra@example.com' });
    expect(second.statusCode).toBe(201);
    expect(second.json().id).not.toBe(first.json().id);
    const secondAgain = await sendLead(key, { nome_completo: 'Outra Pessoa da Silva', email: 'outra@example.com' });
    expect(secondAgain.json()).toEqual(second.json());
    // The first content once more: still a repeat of the first.
    expect((await sendLead(key)).json()).toEqual(first.json());
    expect(await count('franquia_leads')).toBe(before + 2);

    const rows = await envioRows('franquia', key);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.impressao ?? ''))).toBe(true);
  });

  it('the same content after normalisation (spaces, phone format) is a repeat', async () => {
    const key = newKey();
    const before = await count('franquia_leads');
    await sendLead(key);
    const res = await sendLead(key, { nome_completo: '  Maria José da Conceição ', whatsapp: '11987654321' });
    expect(res.statusCode).toBe(201);
    expect(await count('franquia_leads')).toBe(before + 1);
  });

  it('racing: two different leads with one key are both stored; two identical ones once', async () => {
    const before = await count('franquia_leads');
    const key = newKey();
    const different = await Promise.all([
      sendLead(key, { email: 'a@example.com' }),
      sendLead(key, { email: 'b@example.com' }),
    ]);
    for (const r of different) expect(r.statusCode).toBe(201);
    expect(new Set(different.map((r) => r.json().id)).size).toBe(2);
    expect(await count('franquia_leads')).toBe(before + 2);

    const same = newKey();
    const identical = await Promise.all([sendLead(same), sendLead(same), sendLead(same)]);
    for (const r of identical) expect(r.statusCode).toBe(201);
    expect(new Set(identical.map((r) => r.json().id)).size).toBe(1);
    expect(await count('franquia_leads')).toBe(before + 3);
  });

  it('a row stored before fingerprints (none kept) still makes any POST with its key a repeat', async () => {
    const key = newKey();
    await sendLead(key);
    await t.db.updateTable('envios').set({ impressao: null }).where('envio_id', '=', key).execute();
    const before = await count('franquia_leads');
    expect((await sendLead(key, { email: 'diferente@example.com' })).statusCode).toBe(201);
    expect(await count('franquia_leads')).toBe(before);
  });
});

describe('survey', () => {
  it('a double click is stored once; a different answer under the same key is stored; its repeat is not', async () => {
    const key = newKey();
    const before = await count('respostas_nps');
    expect((await sendSurvey(key, 10)).statusCode).toBe(303);
    expect((await sendSurvey(key, 10)).statusCode).toBe(303);
    expect(await count('respostas_nps')).toBe(before + 1);

    const second = await sendSurvey(key, 3, 'Voltei e mudei de ideia.');
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe('/NPS/nps_app_php/obrigado.php');
    expect((await sendSurvey(key, 3, 'Voltei e mudei de ideia.')).statusCode).toBe(303);
    expect((await sendSurvey(key, 10)).statusCode).toBe(303);
    expect(await count('respostas_nps')).toBe(before + 2);

    // The survey's own UNIQUE column holds both keys; envios records both with their fingerprints.
    const stored = await t.db
      .selectFrom('respostas_nps')
      .select(['envio_id', 'comentario'])
      .where('envio_id', 'like', `${key}%`)
      .orderBy('envio_id')
      .execute();
    expect(stored.map((r) => r.envio_id)).toEqual([key, expect.stringMatching(new RegExp(`^${key}:[0-9a-f]{16}$`))]);
    expect(stored[1]!.comentario).toBe('Voltei e mudei de ideia.');
    const rows = await envioRows('pesquisa', key);
    expect(rows.map((r) => r.envio_id)).toEqual(stored.map((r) => r.envio_id));
    expect(rows.every((r) => r.impressao !== null)).toBe(true);
  });

  it('racing: two different answers with one key are both stored; two identical ones once', async () => {
    const before = await count('respostas_nps');
    const key = newKey();
    const different = await Promise.all([sendSurvey(key, 9, 'a'), sendSurvey(key, 2, 'b')]);
    for (const r of different) expect(r.statusCode).toBe(303);
    expect(await count('respostas_nps')).toBe(before + 2);

    const same = newKey();
    const identical = await Promise.all([sendSurvey(same, 8), sendSurvey(same, 8), sendSurvey(same, 8)]);
    for (const r of identical) expect(r.statusCode).toBe(303);
    expect(await count('respostas_nps')).toBe(before + 3);
  });
});

describe('free message', () => {
  it('a double click is stored once; a different message under the same key is stored; its repeat is not', async () => {
    const key = newKey();
    const before = await count('fale_aqui');
    expect((await sendFale(key, 'A esteira 3 está quebrada.')).statusCode).toBe(303);
    expect((await sendFale(key, 'A esteira 3 está quebrada.')).statusCode).toBe(303);
    expect(await count('fale_aqui')).toBe(before + 1);

    expect((await sendFale(key, 'E o bebedouro também.')).statusCode).toBe(303);
    expect((await sendFale(key, 'E o bebedouro também.')).statusCode).toBe(303);
    expect(await count('fale_aqui')).toBe(before + 2);
    const texts = await t.db.selectFrom('fale_aqui').select('mensagem').orderBy('id', 'desc').limit(2).execute();
    expect(texts.map((r) => r.mensagem).sort()).toEqual(['A esteira 3 está quebrada.', 'E o bebedouro também.']);
  });

  it('the photos are part of the content: another photo is a new message, the same photo a repeat', async () => {
    const key = newKey();
    const red = await photo('#c03030');
    const blue = await photo('#3030c0');
    const before = { messages: await count('fale_aqui'), files: await count('fale_aqui_arquivos') };
    expect((await sendFale(key, 'Olhem isto.', [red])).statusCode).toBe(303);
    expect((await sendFale(key, 'Olhem isto.', [red])).statusCode).toBe(303);
    expect(await count('fale_aqui')).toBe(before.messages + 1);
    const filesOfOne = (await count('fale_aqui_arquivos')) - before.files;
    expect(filesOfOne).toBeGreaterThan(0);

    expect((await sendFale(key, 'Olhem isto.', [blue])).statusCode).toBe(303);
    expect((await sendFale(key, 'Olhem isto.', [blue])).statusCode).toBe(303);
    expect((await sendFale(key, 'Olhem isto.')).statusCode).toBe(303);
    expect(await count('fale_aqui')).toBe(before.messages + 3);
    expect(await count('fale_aqui_arquivos')).toBe(before.files + 2 * filesOfOne);
  });

  it('racing: two different messages with one key are both stored; two identical ones once', async () => {
    const before = await count('fale_aqui');
    const key = newKey();
    const different = await Promise.all([sendFale(key, 'Primeira.'), sendFale(key, 'Segunda.')]);
    for (const r of different) expect(r.statusCode).toBe(303);
    expect(await count('fale_aqui')).toBe(before + 2);

    const same = newKey();
    const identical = await Promise.all([sendFale(same, 'Igual.'), sendFale(same, 'Igual.'), sendFale(same, 'Igual.')]);
    for (const r of identical) expect(r.statusCode).toBe(303);
    expect(await count('fale_aqui')).toBe(before + 3);
  });

  it('a refused message keeps its values and its envio_id, and stores nothing', async () => {
    const key = newKey();
    const before = await count('fale_aqui');
    const res = await sendFale(key, '');
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Escreva sua mensagem.');
    expect(res.body).toContain(`value="${key}"`);
    expect(await count('fale_aqui')).toBe(before);
  });
});

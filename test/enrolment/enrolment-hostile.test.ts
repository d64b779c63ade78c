// Hostile input on every public enrolment form, on SQLite and on PostgreSQL: the data step
// (/matricula/resumo), the acceptance (/matricula), "Minha matrícula" (the link request, the
// link's button, Desistir, Cancelar). NUL bytes, 10 kB values, broken percent-encoding and
// UTF-8, repeated fields, missing and extra fields, bad CPFs and dates, minors without a
// guardian, wrong unit and plan ids, a contract changed or forged since the summary: each
// answers 4xx with a pt-BR message (by the field, the values kept, when the form comes back),
// never a 5xx, and stores nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { validCpf } from '../helpers/cpf';
import {
  addEnrolmentWebhook,
  addressSeries,
  ENROLMENT_ENV,
  enrolmentPages,
  hiddenValue,
  onlineOffer,
  person as newPerson,
  type Offer,
} from '../helpers/enrolment';
import { fetchForm, form } from '../helpers/http';

let t: TestContext;
let offer: Offer;
let pages: ReturnType<typeof enrolmentPages>;
// Every request from its own address: the per-address rate limits stay out of the way.
const nextIp = addressSeries('10.78');

const TABLES = [
  'matriculas',
  'matriculas_pagamentos',
  'matriculas_historico',
  'matriculas_acessos',
  'consentimentos',
  'envios',
  'fila_emails',
  'webhook_entregas',
] as const;

async function counts(): Promise<Record<(typeof TABLES)[number], number>> {
  const out = {} as Record<(typeof TABLES)[number], number>;
  for (const table of TABLES) {
    const row = await t.db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    out[table] = Number(row.n);
  }
  return out;
}

beforeAll(async () => {
  t = await createTestApp({ env: ENROLMENT_ENV });
  offer = await onlineOffer(t.db);
  pages = enrolmentPages(t, offer, { remoteAddress: nextIp });
  // Every webhook event is counted: an endpoint that takes the enrolment events.
  await addEnrolmentWebhook(t.db);
});
afterAll(async () => t?.close());

type Fields = Record<string, string>;
type Pairs = [string, string][];
interface Sent {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

const flowQuery = (u: string | number = offer.unitId, p: string | number = offer.planId) => `?unidade=${u}&plano=${p}`;
const person = (over: Fields = {}) => newPerson({ email: 'maria@exemplo.com.br', ...over });
const minorBirth = () => `${new Date().getUTCFullYear() - 15}-01-15`;

/** A body: the pairs in order, then `raw` as it is (broken encodings the URLSearchParams would fix). */
function body(pairs: Pairs, raw = ''): string {
  const encoded = form(pairs);
  return raw ? `${encoded}&${raw}` : encoded;
}

/** Pairs from fields, with some removed and some repeated or added. */
function pairsOf(fields: Fields, opts: { drop?: string[]; extra?: Pairs } = {}): Pairs {
  return [...Object.entries(fields).filter(([k]) => !opts.drop?.includes(k)), ...(opts.extra ?? [])];
}

/** The data step: a POST to /matricula/resumo starting from a valid person. */
async function sendData(
  over: Fields,
  opts: { drop?: string[]; extra?: Pairs; raw?: string; query?: string; type?: string; accept?: string } = {},
): Promise<Sent> {
  const page = await pages.open();
  const fields = { csrf_token: page.token, envio_id: page.envio, ...person(over) };
  return t.app.inject({
    method: 'POST',
    url: `/matricula/resumo${opts.query ?? flowQuery()}`,
    remoteAddress: nextIp(),
    headers: {
      cookie: page.cookie,
      'content-type': opts.type ?? 'application/x-www-form-urlencoded',
      ...(opts.accept ? { accept: opts.accept } : {}),
    },
    payload: body(pairsOf(fields, opts), opts.raw),
  });
}

/**
 * The acceptance: a valid summary first (its contract version and SHA-256), then the POST to
 * /matricula with `over` on top of what the summary page would send.
 */
async function sendAccept(
  over: Fields,
  opts: { drop?: string[]; extra?: Pairs; raw?: string; query?: string; data?: Fields } = {},
): Promise<Sent> {
  const data: Fields = person(opts.data);
  const tab = await pages.accept(data);
  const fields: Fields = {
    ...tab.fields,
    ...(data.responsavel_nome ? { aceite_responsavel: 'sim' } : {}),
    ...over,
  };
  return tab.post({ payload: body(pairsOf(fields, opts), opts.raw), query: opts.query });
}

const NUL = '\u0000';
const TEN_KB = 'x'.repeat(10 * 1024);

interface Case {
  name: string;
  send: () => Promise<Sent>;
  status: number;
  /** the pt-BR message the answer shows */
  message: string | RegExp;
  /** the field marked aria-invalid, with its message beside it */
  field?: string;
  /** a value the page must show again (the values kept) */
  kept?: string;
}

const dataCases: Case[] = [
  {
    name: 'NUL in the name',
    send: () => sendData({ nome: `Maria${NUL}` }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'nome',
    kept: 'maria@exemplo.com.br',
  },
  {
    name: 'NUL in the CPF',
    send: () => sendData({ cpf: `529.982.247-25${NUL}` }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'cpf',
    kept: 'Maria da Silva',
  },
  {
    name: 'NUL in the e-mail',
    send: () => sendData({ email: `maria${NUL}@exemplo.com.br` }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'email',
  },
  {
    name: 'NUL in the WhatsApp',
    send: () => sendData({ whatsapp: `(11) 98765${NUL}-4321` }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'whatsapp',
  },
  {
    name: 'NUL in the birth date',
    send: () => sendData({ nascimento: `1990-05-10${NUL}` }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'nascimento',
  },
  {
    name: "NUL in the guardian's name",
    send: () => sendData({ nascimento: minorBirth(), responsavel_nome: `João${NUL}`, responsavel_cpf: validCpf() }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'responsavel_nome',
  },
  {
    name: 'NUL in the offers checkbox',
    send: () => sendData({ aceita_ofertas: `sim${NUL}` }),
    status: 422,
    message: 'Marque ou desmarque',
  },
  {
    name: 'CR/LF in the name (a mail header)',
    send: () => sendData({ nome: 'Maria\r\nBcc: x@exemplo.com' }),
    status: 422,
    message: 'Use uma linha só',
    field: 'nome',
  },
  {
    name: '10 kB name',
    send: () => sendData({ nome: TEN_KB }),
    status: 422,
    message: 'Use no máximo 120 caracteres',
    field: 'nome',
    kept: 'maria@exemplo.com.br',
  },
  {
    name: '10 kB CPF',
    send: () => sendData({ cpf: '1'.repeat(10 * 1024) }),
    status: 422,
    message: 'Use no máximo 20 caracteres',
    field: 'cpf',
  },
  {
    name: '10 kB e-mail',
    send: () => sendData({ email: `${TEN_KB}@exemplo.com.br` }),
    status: 422,
    message: 'Use no máximo 254 caracteres',
    field: 'email',
  },
  {
    name: '10 kB WhatsApp',
    send: () => sendData({ whatsapp: '9'.repeat(10 * 1024) }),
    status: 422,
    message: /máximo|número brasileiro/,
    field: 'whatsapp',
  },
  {
    name: '10 kB envio_id',
    send: () => sendData({ envio_id: TEN_KB, nome: '' }),
    status: 422,
    message: 'Informe o seu nome completo',
    field: 'nome',
  },
  {
    name: 'broken percent-encoding in the name',
    send: () => sendData({}, { drop: ['nome'], raw: 'nome=Maria%ZZ%' }),
    status: 200,
    message: 'Resumo da contratação',
  },
  {
    name: 'invalid UTF-8 in the CPF',
    send: () => sendData({}, { drop: ['cpf'], raw: 'cpf=%C3%28%FF' }),
    status: 422,
    message: 'CPF',
    field: 'cpf',
  },
  {
    name: 'invalid UTF-8 in the e-mail',
    send: () => sendData({}, { drop: ['email'], raw: 'email=maria%FF%FE@exemplo.com.br' }),
    status: 422,
    message: 'Informe um e-mail válido',
    field: 'email',
  },
  {
    name: 'the name sent as an array (nome[])',
    send: () => sendData({}, { drop: ['nome'], extra: [['nome[]', 'Maria']] }),
    status: 422,
    message: 'Informe o seu nome completo',
    field: 'nome',
  },
  {
    name: 'the CPF sent twice, the first one wrong',
    send: () =>
      sendData(
        {},
        {
          drop: ['cpf'],
          extra: [
            ['cpf', '111.111.111-11'],
            ['cpf', validCpf()],
          ],
        },
      ),
    status: 422,
    message: 'CPF',
    field: 'cpf',
  },
  {
    name: 'no field at all but the token',
    send: () => sendData({}, { drop: ['nome', 'cpf', 'nascimento', 'email', 'whatsapp', 'envio_id'] }),
    status: 422,
    message: 'Informe o seu nome completo',
    field: 'nome',
  },
  {
    name: 'a missing WhatsApp',
    send: () => sendData({}, { drop: ['whatsapp'] }),
    status: 422,
    message: 'Informe o seu WhatsApp com DDD',
    field: 'whatsapp',
    kept: 'Maria da Silva',
  },
  {
    name: 'a CPF with a wrong check digit',
    send: () => sendData({ cpf: '529.982.247-26' }),
    status: 422,
    message: 'CPF',
    field: 'cpf',
    kept: '529.982.247-26',
  },
  {
    name: 'a CPF of one repeated digit',
    send: () => sendData({ cpf: '000.000.000-00' }),
    status: 422,
    message: 'CPF',
    field: 'cpf',
  },
  {
    name: 'a birth date of 30 February',
    send: () => sendData({ nascimento: '1990-02-30' }),
    status: 422,
    message: 'Data inválida',
    field: 'nascimento',
  },
  {
    name: 'a birth date typed dd/mm/aaaa',
    send: () => sendData({ nascimento: '10/05/1990' }),
    status: 422,
    message: 'Data inválida',
    field: 'nascimento',
    kept: '10/05/1990',
  },
  {
    name: 'a birth date in the future',
    send: () => sendData({ nascimento: '2099-01-01' }),
    status: 422,
    message: 'não pode estar no futuro',
    field: 'nascimento',
  },
  {
    name: 'a birth date in 1800',
    send: () => sendData({ nascimento: '1800-01-01' }),
    status: 422,
    message: 'Confira o ano de nascimento',
    field: 'nascimento',
  },
  {
    name: 'a child under 12',
    send: () => sendData({ nascimento: `${new Date().getUTCFullYear() - 8}-01-15` }),
    status: 422,
    message: '12 anos ou mais',
    field: 'nascimento',
  },
  {
    name: 'a minor without a guardian',
    send: () => sendData({ nascimento: minorBirth() }),
    status: 422,
    message: 'Menor de 18 anos: informe o nome do responsável',
    field: 'responsavel_nome',
  },
  {
    name: "a minor whose guardian's CPF is missing",
    send: () => sendData({ nascimento: minorBirth(), responsavel_nome: 'João da Silva' }),
    status: 422,
    message: 'Informe o CPF do responsável',
    field: 'responsavel_cpf',
    kept: 'João da Silva',
  },
  {
    name: 'a minor who is their own guardian',
    send: () => {
      const cpf = validCpf();
      return sendData({ nascimento: minorBirth(), cpf, responsavel_nome: 'João da Silva', responsavel_cpf: cpf });
    },
    status: 422,
    message: 'deve ser diferente',
    field: 'responsavel_cpf',
  },
  {
    name: 'extra fields (a price, a status, a unit) are ignored',
    send: () =>
      sendData(
        {},
        {
          extra: [
            ['mensalidade_centavos', '1'],
            ['status', 'ativa'],
            ['unidade_id', '999'],
          ],
        },
      ),
    status: 200,
    message: 'Resumo da contratação',
  },
  {
    name: 'an unknown unit id',
    send: () => sendData({}, { query: flowQuery(999_999) }),
    status: 404,
    message: 'não está à venda online',
  },
  {
    name: 'a unit id that is not a number',
    send: () => sendData({}, { query: flowQuery('1e3') }),
    status: 404,
    message: 'não está à venda online',
  },
  {
    name: 'a negative plan id',
    send: () => sendData({}, { query: flowQuery(offer.unitId, '-1') }),
    status: 404,
    message: 'não está à venda online',
  },
  {
    name: 'a plan id too long for the query',
    send: () => sendData({}, { query: flowQuery(offer.unitId, '9'.repeat(40)) }),
    status: 400,
    message: /inválid/,
  },
  {
    name: 'a NUL in the query',
    send: () => sendData({}, { query: `?unidade=${offer.unitId}%00&plano=${offer.planId}` }),
    status: 400,
    message: 'caractere inválido (NUL)',
  },
  {
    name: 'a JSON body',
    send: () => sendData({}, { type: 'application/json' }),
    status: 415,
    message: 'Formato não suportado',
  },
];

const acceptCases: Case[] = [
  {
    name: 'NUL in the name (hidden on the summary)',
    send: () => sendAccept({ nome: `Maria${NUL}` }),
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'nome',
  },
  {
    name: '10 kB e-mail',
    send: () => sendAccept({ email: TEN_KB }),
    status: 422,
    message: 'Use no máximo 254 caracteres',
    field: 'email',
  },
  {
    name: 'a CPF changed on the summary to an invalid one',
    send: () => sendAccept({ cpf: '123.456.789-00' }),
    status: 422,
    message: 'CPF',
    field: 'cpf',
  },
  {
    name: 'no acceptance',
    send: () => sendAccept({}, { drop: ['aceite'] }),
    status: 422,
    message: 'marque que você leu e aceita o contrato',
  },
  {
    name: 'an acceptance of another value',
    send: () => sendAccept({ aceite: 'yes' }),
    status: 422,
    message: 'marque que você leu e aceita o contrato',
  },
  {
    name: 'the acceptance sent as an array (aceite[])',
    send: () => sendAccept({}, { drop: ['aceite'], extra: [['aceite[]', 'sim']] }),
    status: 422,
    message: 'marque que você leu e aceita o contrato',
  },
  {
    name: 'a minor without the guardian’s acceptance',
    send: () =>
      sendAccept(
        {},
        {
          data: { nascimento: minorBirth(), responsavel_nome: 'João da Silva', responsavel_cpf: validCpf() },
          drop: ['aceite_responsavel'],
        },
      ),
    status: 422,
    message: 'O responsável precisa marcar',
  },
  {
    name: 'a minor whose guardian was removed on the summary',
    send: () =>
      sendAccept(
        { responsavel_nome: '', responsavel_cpf: '' },
        { data: { nascimento: minorBirth(), responsavel_nome: 'João da Silva', responsavel_cpf: validCpf() } },
      ),
    status: 422,
    message: 'Menor de 18 anos: informe o nome do responsável',
    field: 'responsavel_nome',
  },
  {
    name: 'an older contract version',
    send: () => sendAccept({ contrato_versao: '0' }),
    status: 422,
    message: 'mudaram desde que esta página foi aberta',
  },
  {
    name: 'a forged contract SHA-256',
    send: () => sendAccept({ contrato_sha256: 'f'.repeat(64) }),
    status: 422,
    message: 'mudaram desde que esta página foi aberta',
  },
  {
    name: 'NUL in the contract version',
    send: () => sendAccept({ contrato_versao: `1${NUL}` }),
    status: 422,
    message: 'mudaram desde que esta página foi aberta',
  },
  {
    name: '10 kB contract SHA-256',
    send: () => sendAccept({ contrato_sha256: TEN_KB }),
    status: 422,
    message: 'mudaram desde que esta página foi aberta',
  },
  {
    name: 'invalid UTF-8 in the contract SHA-256',
    send: () => sendAccept({}, { drop: ['contrato_sha256'], raw: 'contrato_sha256=%FF%FE%C3%28' }),
    status: 422,
    message: 'mudaram desde que esta página foi aberta',
  },
  {
    name: 'no contract fields at all',
    send: () => sendAccept({}, { drop: ['contrato_versao', 'contrato_sha256'] }),
    status: 422,
    message: 'mudaram desde que esta página foi aberta',
  },
  {
    name: 'another plan in the query than the summary’s',
    send: () => sendAccept({}, { query: flowQuery(offer.unitId, 999_999) }),
    status: 404,
    message: 'não está à venda online',
  },
];

function expectRefused(c: Case, res: Sent) {
  expect(res.statusCode, c.name).toBe(c.status);
  if (typeof c.message === 'string') expect(res.body, c.name).toContain(c.message);
  else expect(res.body, c.name).toMatch(c.message);
  expect(res.body, c.name).not.toContain(NUL);
  if (res.statusCode === 422) {
    // The form again: the summary on top, the field marked and its message by it, the values kept.
    expect(res.body).toContain('role="alert"');
    if (c.field) {
      expect(res.body).toMatch(new RegExp(`id="${c.field}"[^>]*aria-invalid="true"`));
      expect(res.body).toContain(`id="${c.field}-erro"`);
    }
    if (c.kept) expect(res.body).toContain(`value="${c.kept}"`);
  }
}

/** A test of each case: refused as it says, nothing stored. */
function itRefusesEach(cases: Case[]) {
  for (const c of cases) {
    it(`${c.name} → ${c.status}`, async () => {
      const before = await counts();
      expectRefused(c, await c.send());
      expect(await counts()).toEqual(before);
    });
  }
}

describe('the data step (/matricula/resumo): refused by the field, nothing stored, never a 5xx', () => {
  itRefusesEach(dataCases);

  it('JSON clients get 422 { error, message, errors } with the messages by field', async () => {
    const res = await sendData({ cpf: `1${NUL}`, nascimento: '1990-13-01' }, { accept: 'application/json' });
    expect(res.statusCode).toBe(422);
    const json = JSON.parse(res.body);
    expect(json.errors.cpf).toContain('NUL');
    expect(json.errors.nascimento).toContain('Data inválida');
  });
});

describe('the pages of the flow with hostile queries and codes', () => {
  it('repeated, array, broken or NUL parameters and unknown codes: 4xx or the chooser again, never a 5xx', async () => {
    const cases: [url: string, status: number][] = [
      ['/matricula?unidade=1&unidade=2', 400],
      ['/matricula?unidade=%FF%FE', 404],
      [`/matricula?unidade=${'9'.repeat(19)}`, 404],
      ['/matricula?lat=%00&lng=1', 400],
      ['/matricula?lat=91&lng=200', 400],
      [`/matricula?unidade=${offer.unitId}&plano=${offer.planId}&plano=${offer.planId}`, 400],
      [`/matricula?unidade=${offer.unitId}&plano=%ZZ`, 200],
      ['/matricula/AAAAAAAAAAAAAAAAAAAAAAAA', 404],
      ['/matricula/%FF%FE%C3%28abcdefghijk', 400],
      ['/matricula/AAAAAAAAAAAAAAAAAAAAAAAA/situacao.json', 404],
      ['/matricula/minha/painel?ok=%00', 400],
      ['/matricula/minha/painel?ok%5B%5D=x', 410],
      ['/matricula/minha/AAAAAAAAAAAA/cancelar', 410],
    ];
    for (const [url, status] of cases) {
      const res = await t.app.inject({ url, remoteAddress: nextIp() });
      expect(res.statusCode, url).toBe(status);
      expect(res.body, url).not.toContain(NUL);
    }
  });
});

describe('the acceptance (/matricula): refused with the summary or the form again, nothing stored', () => {
  itRefusesEach(acceptCases);

  it('a contract saved after the summary was shown: the new version is shown, nothing stored', async () => {
    const before = await counts();
    const current = await t.db
      .selectFrom('contratos_versoes')
      .selectAll()
      .orderBy('versao', 'desc')
      .executeTakeFirstOrThrow();
    const data = person();
    const tab = await pages.accept(data);
    const newer = current.versao + 1;
    await t.db
      .insertInto('contratos_versoes')
      .values({ versao: newer, texto: `${current.texto}\nCláusula nova.`, usuario_id: null, criado_em: '2026-11-29' })
      .execute();
    try {
      const res = await tab.post();
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('mudaram desde que esta página foi aberta');
      expect(res.body).toContain(`Contrato (versão ${newer})`);
      expect(res.body).toContain('Cláusula nova.');
      expect(hiddenValue(res.body, 'contrato_versao')).toBe(String(newer));
      // The person's data ride along, so accepting again needs no retyping.
      expect(hiddenValue(res.body, 'cpf')).toBe(data.cpf);
      expect(await counts()).toEqual(before);
    } finally {
      await t.db.deleteFrom('contratos_versoes').where('versao', '=', newer).execute();
    }
  });
});

describe('"Minha matrícula": the link request, the link, Desistir and Cancelar', () => {
  async function sendLinkRequest(raw: string): Promise<Sent> {
    const page = await fetchForm(t.app, '/matricula/minha');
    return t.app.inject({
      method: 'POST',
      url: '/matricula/minha',
      remoteAddress: nextIp(),
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${form({ csrf_token: page.token })}&${raw}`,
    });
  }

  const linkCases: [name: string, raw: string, message: string][] = [
    ['NUL in the e-mail', 'email=maria%00%40exemplo.com.br', 'caractere inválido (NUL)'],
    ['a 10 kB e-mail', `email=${TEN_KB}%40exemplo.com.br`, 'Use no máximo 254 caracteres'],
    ['invalid UTF-8 in the e-mail', 'email=maria%FF%40exemplo.com.br', 'Informe um e-mail válido'],
    ['the e-mail as an array', 'email%5B%5D=maria%40exemplo.com.br', 'Informe o seu e-mail'],
    ['no e-mail', 'outro=1', 'Informe o seu e-mail'],
  ];
  for (const [name, raw, message] of linkCases) {
    it(`link request: ${name} → 422 by the field, nothing stored`, async () => {
      const before = await counts();
      const res = await sendLinkRequest(raw);
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain(message);
      expect(res.body).toMatch(/id="email"[^>]*aria-invalid="true"/);
      expect(res.body).not.toContain(NUL);
      expect(await counts()).toEqual(before);
    });
  }

  const tokenCases: [name: string, raw: string][] = [
    ['NUL in the token', `token=${'a'.repeat(42)}%00`],
    ['a 10 kB token', `token=${TEN_KB}`],
    ['invalid UTF-8 in the token', `token=${'a'.repeat(40)}%FF%FE%C3`],
    ['the token as an array', `token%5B%5D=${'a'.repeat(43)}`],
    ['a well-formed token nobody was given', `token=${'a'.repeat(43)}`],
    ['no token', 'outro=1'],
  ];
  for (const [name, raw] of tokenCases) {
    it(`the link's button: ${name} → 410 "já foi usado ou expirou", no session`, async () => {
      const before = await counts();
      const page = await fetchForm(t.app, '/matricula/minha');
      const res = await t.app.inject({
        method: 'POST',
        url: '/matricula/minha/entrar',
        remoteAddress: nextIp(),
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `${form({ csrf_token: page.token })}&${raw}`,
      });
      expect(res.statusCode).toBe(410);
      expect(res.body).toContain('Este link já foi usado ou expirou');
      expect(String(res.headers['set-cookie'] ?? '')).not.toContain('minha_matricula=');
      expect(await counts()).toEqual(before);
    });
  }

  it('link request with broken percent-encoding: kept as typed, the usual answer, nothing stored', async () => {
    const before = await counts();
    const res = await sendLinkRequest('email=maria%ZZ%40exemplo.com.br%');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Se houver matrícula com este e-mail');
    expect(await counts()).toEqual(before);
  });

  it('GET of the link with NUL, 10 kB or broken encodings in the token: a page, never a 5xx', async () => {
    for (const q of ['%00', TEN_KB.slice(0, 1990), '%FF%FE', '%ZZ', '&token=a&token=b']) {
      const res = await t.app.inject({ url: `/matricula/minha/entrar?token=${q}`, remoteAddress: nextIp() });
      expect(res.statusCode, q.slice(0, 20)).toBeLessThan(500);
      expect(res.body).not.toContain(NUL);
    }
  });

  it('Desistir and Cancelar: no session, a forged one or a hostile code → 4xx, nothing stored', async () => {
    const before = await counts();
    const page = await fetchForm(t.app, '/matricula/minha');
    const post = (path: string, cookie: string, payload = form({ csrf_token: page.token })) =>
      t.app.inject({
        method: 'POST',
        url: path,
        remoteAddress: nextIp(),
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload,
      });
    const forged = `${page.cookie}; minha_matricula=${'a'.repeat(43)}`;
    const hostileSession = `${page.cookie}; minha_matricula=${'%FF'.repeat(20)}`;
    for (const action of ['desistir', 'cancelar']) {
      for (const [path, cookie, status] of [
        [`/matricula/minha/${'A'.repeat(24)}/${action}`, page.cookie, 410],
        [`/matricula/minha/${'A'.repeat(24)}/${action}`, forged, 410],
        [`/matricula/minha/${'A'.repeat(24)}/${action}`, hostileSession, 410],
        [`/matricula/minha/${'A'.repeat(24)}%00/${action}`, page.cookie, 400],
        [`/matricula/minha/${'A'.repeat(200)}/${action}`, page.cookie, 400],
        [`/matricula/minha/%FF%FE%C3%28abcdefgh/${action}`, page.cookie, 400],
      ] as const) {
        const res = await post(path, cookie);
        expect(res.statusCode, `${path} ${cookie.slice(-20)}`).toBe(status);
        expect(res.body).not.toContain(NUL);
      }
      // Extra, repeated and 10 kB fields change nothing either.
      const res = await post(
        `/matricula/minha/${'A'.repeat(24)}/${action}`,
        forged,
        `${form({ csrf_token: page.token, status: 'cancelada', codigo: TEN_KB })}&codigo=x`,
      );
      expect(res.statusCode).toBe(410);
    }
    expect(await counts()).toEqual(before);
  });

  it('Desistir and Cancelar of another person’s enrolment → 404, nothing changes', async () => {
    const data = person({ email: 'dona@exemplo.com.br' });
    const accepted = await sendAccept({}, { data });
    expect(accepted.statusCode).toBe(303);
    const e = await t.db.selectFrom('matriculas').selectAll().where('cpf', '=', data.cpf).executeTakeFirstOrThrow();
    // Another person's session: a link for their own enrolment.
    const other = person({ email: 'outra@exemplo.com.br' });
    expect((await sendAccept({}, { data: other })).statusCode).toBe(303);
    const session = await pages.openMine(other.email);
    const before = await counts();
    for (const action of ['desistir', 'cancelar']) {
      const res = await pages.press(`/matricula/minha/${e.codigo}/${action}`, session);
      expect(res.statusCode, action).toBe(404);
      expect(res.body).toContain('não é do e-mail deste acesso');
    }
    expect(await counts()).toEqual(before);
    const after = await t.db.selectFrom('matriculas').select('status').where('id', '=', e.id).executeTakeFirstOrThrow();
    expect(after.status).toBe('aguardando_pagamento');
  });
});

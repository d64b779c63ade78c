// Hostile input: a table of what an attacker or a clumsy customer sends, on
// every public form, the login and the staff screens. Each case asserts the status, the
// pt-BR message and that nothing was stored (the same counts before and after). Runs on
// SQLite and on PostgreSQL (where a NUL used to be a 500).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

const LEAD = '/pages/Franquia/index.php';
const SURVEY_FORM = '/NPS/nps_app_php/index.php';
const SURVEY_POST = '/NPS/nps_app_php/salvar_resposta.php';
const FALE_FORM = '/NPS/nps_app_php/fale_aqui.php';
const FALE_POST = '/NPS/nps_app_php/salvar_fale_aqui.php';
const LOGIN = '/pages/Franquia/admin.php';

let t: TestContext;
let unitId: number;
let survey: { escala: number; limpeza: number; recepcao: number };
let adminCookie: string;
let ip = 0;
// Every request from its own address: the per-address rate limits stay out of the way.
const nextIp = () => `10.77.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

const TABLES = [
  'franquia_leads',
  'franquia_leads_historico',
  'respostas_nps',
  'respostas_itens',
  'fale_aqui',
  'fale_aqui_arquivos',
  'fila_emails',
  'envios',
  'tentativas_login',
  'areas',
] as const;
type Counts = Record<(typeof TABLES)[number], number>;

async function counts(): Promise<Counts> {
  const out = {} as Counts;
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
  t = await createTestApp({
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2525',
      SMTP_SECURE: 'none',
      NOTIFICATION_EMAIL: 'equipe@academia.example',
      FRANCHISE_NOTIFICATION_EMAIL: 'expansao@academia.example',
    },
  });
  unitId = (
    await t.db.selectFrom('unidades').select('id').where('ativo', '=', 1).orderBy('id').executeTakeFirstOrThrow()
  ).id;
  const qs = await t.db.selectFrom('perguntas').select(['id']).orderBy('ordem').execute();
  survey = { escala: qs[0]!.id, limpeza: qs[1]!.id, recepcao: qs[2]!.id };
  const admin = await createStaffUser(t.db, { papel: 'admin' });
  adminCookie = await loginAs(t.app, admin.email, admin.password);
});
afterAll(async () => t?.close());

async function optionFor(question: number, valor: number) {
  const row = await t.db
    .selectFrom('perguntas_opcoes')
    .select('id')
    .where('pergunta_id', '=', question)
    .where('valor', '=', valor)
    .executeTakeFirstOrThrow();
  return String(row.id);
}

// ---- one submit function per form, each starting from a valid submission ------------

type Fields = Record<string, string>;
interface Sent {
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
  json(): any;
}

const validLead = (): Fields => ({
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
});

async function sendLead(over: Fields, opts: { accept?: string; envio?: string } = {}): Promise<Sent> {
  const page = await fetchForm(t.app, LEAD);
  return t.app.inject({
    method: 'POST',
    url: LEAD,
    remoteAddress: nextIp(),
    headers: {
      cookie: page.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(opts.accept ? { accept: opts.accept } : {}),
    },
    payload: form({ csrf_token: page.token, ...(opts.envio ? { envio_id: opts.envio } : {}), ...validLead(), ...over }),
  });
}

async function validSurvey(): Promise<Fields> {
  return {
    unidade_id: String(unitId),
    [`respostas[${survey.escala}]`]: await optionFor(survey.escala, 9),
    [`respostas[${survey.limpeza}]`]: await optionFor(survey.limpeza, 4),
    [`respostas[${survey.recepcao}]`]: await optionFor(survey.recepcao, 3),
  };
}

async function sendSurvey(over: Fields, opts: { accept?: string } = {}): Promise<Sent> {
  const page = await fetchForm(t.app, `${SURVEY_FORM}?unidade_id=${unitId}`, '_token');
  return t.app.inject({
    method: 'POST',
    url: SURVEY_POST,
    remoteAddress: nextIp(),
    headers: {
      cookie: page.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(opts.accept ? { accept: opts.accept } : {}),
    },
    payload: form({ _token: page.token, ...(await validSurvey()), ...over }),
  });
}

async function multipartBody(fields: Fields) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  const res = new Response(fd);
  return { payload: Buffer.from(await res.arrayBuffer()), contentType: res.headers.get('content-type')! };
}

async function sendFale(over: Fields, opts: { accept?: string } = {}): Promise<Sent> {
  const page = await fetchForm(t.app, FALE_FORM, '_token');
  const body = await multipartBody({
    _token: page.token,
    nome_completo: 'Eva',
    unidade_id: String(unitId),
    unidade: '',
    mensagem: 'A esteira 3 está quebrada.',
    ...over,
  });
  return t.app.inject({
    method: 'POST',
    url: FALE_POST,
    remoteAddress: nextIp(),
    headers: { cookie: page.cookie, 'content-type': body.contentType, ...(opts.accept ? { accept: opts.accept } : {}) },
    payload: body.payload,
  });
}

async function sendLogin(over: Fields): Promise<Sent> {
  const page = await fetchForm(t.app, LOGIN);
  return t.app.inject({
    method: 'POST',
    url: LOGIN,
    remoteAddress: nextIp(),
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({
      csrf_token: page.token,
      acao: 'entrar',
      email: 'ninguem@example.com',
      senha: 'uma-senha-qualquer',
      ...over,
    }),
  });
}

async function sendArea(over: Fields): Promise<Sent> {
  const token = await staffToken(t.app, adminCookie, '/admin/conteudo/areas/nova');
  return t.app.inject({
    method: 'POST',
    url: '/admin/conteudo/areas/nova',
    headers: { cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: token, nome: 'Área nova', ...over }),
  });
}

const SEND = { lead: sendLead, survey: sendSurvey, fale: sendFale, login: sendLogin, area: sendArea };

const NUL = '\u0000';
const TEN_MB = 'x'.repeat(10 * 1024 * 1024);

interface Case {
  name: string;
  form: keyof typeof SEND;
  fields: Fields;
  status: number;
  /** text the page must show (a pt-BR message by the field) */
  message: string | RegExp;
  /** the field marked aria-invalid on the page again */
  field?: string;
}

const cases: Case[] = [
  // NUL, everywhere, before and after login
  {
    name: 'NUL in the lead name',
    form: 'lead',
    fields: { nome_completo: `Maria${NUL}` },
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'nome_completo',
  },
  {
    name: 'NUL in the lead e-mail',
    form: 'lead',
    fields: { email: `maria${NUL}@example.com` },
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'email',
  },
  {
    name: 'NUL in the survey comment',
    form: 'survey',
    fields: { comentario: `ruim${NUL}` },
    status: 422,
    message: 'caractere inválido (NUL)',
  },
  {
    name: 'NUL in a survey text answer key value',
    form: 'survey',
    fields: { nome_cliente: NUL },
    status: 422,
    message: 'caractere inválido (NUL)',
  },
  {
    name: 'NUL in the free message',
    form: 'fale',
    fields: { mensagem: `oi${NUL}` },
    status: 422,
    message: 'caractere inválido (NUL)',
  },
  {
    name: 'NUL in the free-message name',
    form: 'fale',
    fields: { nome_completo: `Eva${NUL}` },
    status: 422,
    message: 'caractere inválido (NUL)',
  },
  {
    name: 'NUL in the login e-mail',
    form: 'login',
    fields: { email: `admin${NUL}@example.com` },
    status: 422,
    message: 'caractere inválido (NUL)',
    field: 'email',
  },
  {
    name: 'NUL in the login password',
    form: 'login',
    fields: { senha: `senha${NUL}senha` },
    status: 422,
    message: 'caracteres inválidos',
    field: 'senha',
  },
  {
    name: 'NUL in a content screen (after login)',
    form: 'area',
    fields: { nome: `Quadra${NUL}` },
    status: 422,
    message: 'caractere inválido (NUL)',
  },
  // CR/LF and other controls in one-line fields
  {
    name: 'CR/LF in the lead name',
    form: 'lead',
    fields: { nome_completo: 'Maria\r\nBcc: x@example.com' },
    status: 422,
    message: 'Use uma linha só',
    field: 'nome_completo',
  },
  {
    name: 'LF in the lead city',
    form: 'lead',
    fields: { cidade_regiao: 'Campinas\nUnidade: falsa' },
    status: 422,
    message: 'Use uma linha só',
    field: 'cidade_regiao',
  },
  {
    name: 'CR/LF in the survey name',
    form: 'survey',
    fields: { nome_cliente: 'Ana\r\nX' },
    status: 422,
    message: 'Use uma linha só',
  },
  {
    name: 'CR/LF in the free-message unit',
    form: 'fale',
    fields: { unidade_id: '', unidade: 'Centro\r\nBcc: a@b.com' },
    status: 422,
    message: 'Use uma linha só',
  },
  {
    name: 'LF in a content name (after login)',
    form: 'area',
    fields: { nome: 'Quadra\nde areia' },
    status: 422,
    message: 'Use uma linha só',
  },
  {
    name: 'C0 control (BEL) in the lead name',
    form: 'lead',
    fields: { nome_completo: 'Maria\u0007 José' },
    status: 422,
    message: 'Use uma linha só',
    field: 'nome_completo',
  },
  {
    name: 'C1 control (NEL) in the survey name',
    form: 'survey',
    fields: { nome_cliente: 'Ana\u0085Souza' },
    status: 422,
    message: 'Use uma linha só',
  },
  {
    name: 'ESC in the free message (multi-line)',
    form: 'fale',
    fields: { mensagem: 'oi\u001b[31m' },
    status: 422,
    message: 'caracteres de controle',
  },
  {
    name: 'line separator U+2028 in the lead name',
    form: 'lead',
    fields: { nome_completo: 'Maria\u2028José' },
    status: 422,
    message: 'Use uma linha só',
  },
  {
    name: 'TAB in the login e-mail',
    form: 'login',
    fields: { email: 'a\t@example.com' },
    status: 422,
    message: 'Use uma linha só',
  },
  // overlong values
  {
    name: 'lead name of 121 characters',
    form: 'lead',
    fields: { nome_completo: 'a'.repeat(121) },
    status: 422,
    message: 'Use no máximo 120 caracteres',
    field: 'nome_completo',
  },
  {
    name: 'survey comment of 3001 characters',
    form: 'survey',
    fields: { comentario: 'b'.repeat(3001) },
    status: 422,
    message: 'Use no máximo 3000 caracteres',
  },
  {
    name: 'free message of 3001 characters',
    form: 'fale',
    fields: { mensagem: 'c'.repeat(3001) },
    status: 422,
    message: 'Use no máximo 3000 caracteres',
  },
  {
    name: '10 MB lead name',
    form: 'lead',
    fields: { nome_completo: TEN_MB },
    status: 413,
    message: 'Envio grande demais',
  },
  {
    name: '10 MB survey comment',
    form: 'survey',
    fields: { comentario: TEN_MB },
    status: 413,
    message: 'Envio grande demais',
  },
  {
    name: '10 MB free message',
    form: 'fale',
    fields: { mensagem: TEN_MB },
    status: 413,
    message: /grande|máximo|limite/i,
  },
  { name: '10 MB login e-mail', form: 'login', fields: { email: TEN_MB }, status: 413, message: 'Envio grande demais' },
  {
    name: '10 MB content name (after login)',
    form: 'area',
    fields: { nome: TEN_MB },
    status: 413,
    message: 'Envio grande demais',
  },
  // bad e-mails and phones
  {
    name: 'e-mail without a domain dot',
    form: 'lead',
    fields: { email: 'maria@example' },
    status: 422,
    message: 'Informe um e-mail válido',
    field: 'email',
  },
  {
    name: 'e-mail with two @',
    form: 'lead',
    fields: { email: 'a@b@example.com' },
    status: 422,
    message: 'Informe um e-mail válido',
    field: 'email',
  },
  {
    name: 'e-mail with a header list',
    form: 'lead',
    fields: { email: 'a@example.com, b@example.com' },
    status: 422,
    message: 'Informe um e-mail válido',
    field: 'email',
  },
  {
    name: 'e-mail with double dots in the domain',
    form: 'lead',
    fields: { email: 'a@example..com' },
    status: 422,
    message: 'Informe um e-mail válido',
    field: 'email',
  },
  {
    name: 'foreign WhatsApp',
    form: 'lead',
    fields: { whatsapp: '+1 212 555 1234' },
    status: 422,
    message: 'Informe um número brasileiro com DDD',
    field: 'whatsapp',
  },
  {
    name: 'WhatsApp with invalid area code',
    form: 'lead',
    fields: { whatsapp: '(00) 98765-4321' },
    status: 422,
    message: 'Informe um número brasileiro com DDD',
    field: 'whatsapp',
  },
  {
    name: 'WhatsApp with letters',
    form: 'lead',
    fields: { whatsapp: '11 9876-ABCD' },
    status: 422,
    message: 'Informe um número brasileiro com DDD',
    field: 'whatsapp',
  },
  {
    name: 'survey contact that is neither e-mail nor phone',
    form: 'survey',
    fields: { contato_cliente: 'me liga' },
    status: 422,
    message: 'Informe um telefone com DDD',
  },
  {
    name: 'survey contact with a bad e-mail',
    form: 'survey',
    fields: { contato_cliente: 'ana@' },
    status: 422,
    message: 'Informe um e-mail válido',
  },
  // ids
  {
    name: 'survey unit id with a sign',
    form: 'survey',
    fields: { unidade_id: '-1' },
    status: 422,
    message: 'Escolha uma unidade',
  },
  {
    name: 'free-message unit id 1e3',
    form: 'fale',
    fields: { unidade_id: '1e3' },
    status: 422,
    message: 'Escolha uma unidade ativa',
  },
];

describe('hostile input: a table of cases, each refused with its message and nothing stored', () => {
  for (const c of cases) {
    it(`${c.form}: ${c.name} → ${c.status}`, async () => {
      const before = await counts();
      const res = await SEND[c.form](c.fields);
      expect(res.statusCode).toBe(c.status);
      if (typeof c.message === 'string') expect(res.body).toContain(c.message);
      else expect(res.body).toMatch(c.message);
      if (c.status === 422) {
        // The form again, with the error summary on top and the field marked.
        expect(res.body).toMatch(/class="alert alert-error[^"]*"|role="alert"/);
        if (c.field)
          expect(res.body).toMatch(
            new RegExp(`id="${c.field}"[^>]*aria-invalid="true"|aria-invalid="true"[^>]*id="${c.field}"`),
          );
        expect(res.body).not.toContain(NUL);
      }
      expect(await counts()).toEqual(before);
    });
  }

  it('JSON clients get 422 { error, message, errors } with the field message', async () => {
    const before = await counts();
    const res = await sendLead({ nome_completo: `Maria${NUL}` }, { accept: 'application/json' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({
      error: expect.any(String),
      message: expect.any(String),
      errors: { nome_completo: expect.stringContaining('NUL') },
    });
    expect(await counts()).toEqual(before);
  });

  it('NUL in a query string or path, before and after login → 400, never 5xx', async () => {
    const before = await counts();
    for (const url of [
      '/Detalhes.php?id=1%00',
      '/search_ajax.php?q=ab%00cd',
      `${SURVEY_FORM}?unidade_id=%00`,
      `${LOGIN}?voltar=/x%00`,
      '/NPS/nps_app_php/fale_aqui.php?unidade_id=1%00',
    ]) {
      const res = await t.app.inject({ url, remoteAddress: nextIp() });
      expect(res.statusCode, url).toBe(400);
      expect(res.body, url).toContain('caractere inválido (NUL)');
    }
    for (const url of [
      `${LOGIN}?q=%00`,
      '/admin/mensagens?status=%00',
      '/admin/pesquisa?de=%00',
      '/admin/conteudo/unidades/1%00',
      '/admin/auditoria?entidade=%00',
    ]) {
      const res = await t.app.inject({ url, headers: { cookie: adminCookie } });
      expect(res.statusCode, url).toBe(400);
    }
    expect(await counts()).toEqual(before);
  });

  it(`staff forms after login: NUL in a lead note, a mail-test address or a unit phone → 422 by the field, nothing \
stored`, async () => {
    expect((await sendLead({})).statusCode).toBe(303);
    const lead = await t.db.selectFrom('franquia_leads').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const notes = async () =>
      Number(
        (
          await t.db
            .selectFrom('franquia_leads_notas')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await notes();
    const token = await staffToken(t.app, adminCookie, `${LOGIN}?lead=${lead.id}`);
    const note = await t.app.inject({
      method: 'POST',
      url: LOGIN,
      headers: { cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, acao: 'nota', lead_id: String(lead.id), texto: `ligar${NUL}amanhã` }),
    });
    expect(note.statusCode).toBe(422);
    expect(note.body).toContain('caractere inválido (NUL)');
    expect(await notes()).toBe(before);

    const unitsBefore = Number(
      (
        await t.db
          .selectFrom('unidades')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const unitToken = await staffToken(t.app, adminCookie, '/admin/conteudo/unidades/nova');
    const unit = await t.app.inject({
      method: 'POST',
      url: '/admin/conteudo/unidades/nova',
      headers: { cookie: adminCookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({
        csrf_token: unitToken,
        nome: 'Unidade Nova',
        cidade: 'Campinas',
        uf: 'SP',
        bairro: 'Centro',
        endereco: 'Rua A, 1',
        telefone: `(11) 3045${NUL}-1200`,
      }),
    });
    expect(unit.statusCode).toBe(422);
    expect(unit.body).toContain('caractere inválido (NUL)');
    expect(
      Number(
        (
          await t.db
            .selectFrom('unidades')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(unitsBefore);
  });

  it('control characters and odd ids in staff filters never reach the database as they are', async () => {
    for (const url of [
      `${LOGIN}?q=%07%0A%C2%85`,
      `${LOGIN}?de=2026-02-30&ate=x&pagina=-1`,
      '/admin/mensagens?pagina=1e9',
      '/admin/pesquisa?pagina=abc&categoria=',
    ]) {
      const res = await t.app.inject({ url, headers: { cookie: adminCookie } });
      expect(res.statusCode, url).toBe(200);
    }
    expect(
      (await t.app.inject({ url: '/admin/mensagens?unidade_id=1.5', headers: { cookie: adminCookie } })).statusCode,
    ).toBe(400);
    expect((await t.app.inject({ url: `${LOGIN}?lead=1e3`, headers: { cookie: adminCookie } })).statusCode).toBe(400);
    for (const id of ['abc', '1.5', '-3', '', '01', '99999999999']) {
      expect((await t.app.inject(`/Detalhes.php?id=${id}`)).statusCode, id).toBe(400);
    }
  });
});

describe('bodies: wrong content type, malformed, too many fields', () => {
  const bodyCases: { name: string; url: string; type: string; payload: string; status: number; message: string }[] = [
    {
      name: 'a JSON body to the lead form',
      url: LEAD,
      type: 'application/json',
      payload: JSON.stringify(validLead()),
      status: 415,
      message: 'Formato não suportado',
    },
    {
      name: 'a JSON body to the survey',
      url: SURVEY_POST,
      type: 'application/json',
      payload: '{"unidade_id":1}',
      status: 415,
      message: 'Formato não suportado',
    },
    {
      name: 'a JSON body to the login',
      url: LOGIN,
      type: 'application/json',
      payload: '{"email":"a@b.com"}',
      status: 415,
      message: 'Formato não suportado',
    },
    {
      name: 'text/plain to the free message',
      url: FALE_POST,
      type: 'text/plain',
      payload: 'mensagem=oi',
      status: 415,
      message: 'Formato não suportado',
    },
    {
      name: 'malformed JSON to the lead form',
      url: LEAD,
      type: 'application/json',
      payload: '{"nome_completo":',
      status: 415,
      message: 'Formato não suportado',
    },
    {
      name: 'multipart to the lead form (no files there)',
      url: LEAD,
      type: 'multipart/form-data; boundary=x',
      payload: '--x\r\nContent-Disposition: form-data; name="nome_completo"\r\n\r\nMaria\r\n--x--\r\n',
      status: 415,
      message: 'não recebe arquivos',
    },
    {
      name: 'malformed multipart to the free message',
      url: FALE_POST,
      type: 'multipart/form-data; boundary=zzz',
      payload: '--zzz\r\nContent-Disposition: form-data; name="mensagem"\r\n\r\noi',
      status: 400,
      message: 'nada foi gravado',
    },
    {
      name: 'too many distinct fields',
      url: LEAD,
      type: 'application/x-www-form-urlencoded',
      payload: Array.from({ length: 400 }, (_, i) => `f${i}=1`).join('&'),
      status: 413,
      message: 'Campos demais',
    },
    {
      name: 'too many repeated fields',
      url: SURVEY_POST,
      type: 'application/x-www-form-urlencoded',
      payload: Array.from({ length: 6000 }, () => 'a=1').join('&'),
      status: 413,
      message: 'Campos demais',
    },
  ];
  for (const c of bodyCases) {
    it(`${c.name} → ${c.status} with a pt-BR message, nothing stored`, async () => {
      const before = await counts();
      const page = await fetchForm(t.app, LEAD);
      const res = await t.app.inject({
        method: 'POST',
        url: c.url,
        remoteAddress: nextIp(),
        headers: { cookie: page.cookie, 'content-type': c.type },
        payload: c.payload,
      });
      expect(res.statusCode).toBe(c.status);
      expect(res.body).toContain(c.message);
      expect(await counts()).toEqual(before);
    });
  }

  it('a multipart free message with too many fields → 413, nothing stored', async () => {
    const before = await counts();
    const page = await fetchForm(t.app, FALE_FORM, '_token');
    const fields: Fields = { _token: page.token, mensagem: 'oi' };
    for (let i = 0; i < 60; i++) fields[`extra${i}`] = 'x';
    const body = await multipartBody(fields);
    const res = await t.app.inject({
      method: 'POST',
      url: FALE_POST,
      remoteAddress: nextIp(),
      headers: { cookie: page.cookie, 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(413);
    expect(res.body).toContain('Campos demais');
    expect(await counts()).toEqual(before);
  });

  it('multipart is registered only in the scope of the routes that take files', () => {
    // @fastify/multipart adds two async hooks to every request of its scope (forms.ts, uploadRoutes).
    expect(t.app.hasRequestDecorator('isMultipart')).toBe(false);
  });

  it('JSON clients get 4xx { error, message } for a refused body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: LEAD,
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toEqual({
      error: 'Formato não suportado',
      message: expect.stringContaining('Nada foi gravado'),
    });
  });
});

describe('kept as typed: multi-line text keeps its lines', () => {
  it('a free message with CRLF is stored with LF, a TAB kept, NFC applied', async () => {
    const res = await sendFale({ mensagem: 'linha 1\r\n\tlinha 2 cafe\u0301' });
    expect(res.statusCode).toBe(303);
    const row = await t.db.selectFrom('fale_aqui').select('mensagem').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(row.mensagem).toBe('linha 1\n\tlinha 2 café');
  });
});

describe('double submits: stored once, answered as the first', () => {
  const envio = () => `envio-${Math.random().toString(36).slice(2)}-${Date.now().toString(36)}`;

  it('lead: the same envio_id twice → one lead, the same 303; JSON replays the same id', async () => {
    const id = envio();
    const before = await counts();
    const a = await sendLead({}, { envio: id });
    const b = await sendLead({}, { envio: id });
    expect(a.statusCode).toBe(303);
    expect(b.statusCode).toBe(303);
    expect(b.headers.location).toBe(a.headers.location);
    const after = await counts();
    expect(after.franquia_leads).toBe(before.franquia_leads + 1);
    expect(after.fila_emails).toBe(before.fila_emails + 1);
    expect(after.envios).toBe(before.envios + 1);

    const jid = envio();
    const j1 = await sendLead({ email: 'json@example.com' }, { envio: jid, accept: 'application/json' });
    const j2 = await sendLead({ email: 'json@example.com' }, { envio: jid, accept: 'application/json' });
    expect(j1.statusCode).toBe(201);
    expect(j2.statusCode).toBe(201);
    expect(j2.json()).toEqual(j1.json());
  });

  it('lead: five concurrent POSTs of one form → one lead, every answer the same, no 5xx', async () => {
    const id = envio();
    const before = await counts();
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => sendLead({}, { envio: id, accept: 'application/json' })),
    );
    for (const a of answers) expect(a.statusCode).toBe(201);
    const ids = new Set(answers.map((a) => a.json().id));
    expect(ids.size).toBe(1);
    const after = await counts();
    expect(after.franquia_leads).toBe(before.franquia_leads + 1);
    expect(after.fila_emails).toBe(before.fila_emails + 1);
  });

  it('survey: sequential and concurrent resends store one response', async () => {
    const id = envio();
    const before = await counts();
    const first = await sendSurvey({ envio_id: id });
    const again = await sendSurvey({ envio_id: id });
    expect(first.statusCode).toBe(303);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(first.headers.location);
    const racing = envio();
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendSurvey({ envio_id: racing })));
    for (const a of answers) expect(a.statusCode).toBe(303);
    const after = await counts();
    expect(after.respostas_nps).toBe(before.respostas_nps + 2);
  });

  it('free message: sequential and concurrent resends store one message and one notification', async () => {
    const id = envio();
    const before = await counts();
    const first = await sendFale({ envio_id: id });
    const again = await sendFale({ envio_id: id });
    expect(first.statusCode).toBe(303);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(first.headers.location);
    const racing = envio();
    const answers = await Promise.all(Array.from({ length: 5 }, () => sendFale({ envio_id: racing })));
    for (const a of answers) expect(a.statusCode).toBe(303);
    const after = await counts();
    expect(after.fale_aqui).toBe(before.fale_aqui + 2);
    expect(after.fila_emails).toBe(before.fila_emails + 2);
  });

  it('a POST without envio_id is still accepted (old pages, scripts), every time', async () => {
    const before = await counts();
    expect((await sendSurvey({})).statusCode).toBe(303);
    expect((await sendSurvey({})).statusCode).toBe(303);
    expect((await counts()).respostas_nps).toBe(before.respostas_nps + 2);
  });

  it('every public form carries a fresh hidden envio_id', async () => {
    for (const url of [LEAD, `${SURVEY_FORM}?unidade_id=${unitId}`, FALE_FORM]) {
      const a = /name="envio_id" value="([A-Za-z0-9_-]{22})"/.exec((await t.app.inject(url)).body)?.[1];
      const b = /name="envio_id" value="([A-Za-z0-9_-]{22})"/.exec((await t.app.inject(url)).body)?.[1];
      expect(a, url).toBeTruthy();
      expect(b, url).not.toBe(a);
    }
  });

  it('after 24 hours the envio row no longer counts and old rows are pruned', async () => {
    const id = envio();
    expect((await sendLead({}, { envio: id })).statusCode).toBe(303);
    const old = new Date(Date.now() - 25 * 3600_000).toISOString();
    await t.db.updateTable('envios').set({ criado_em: old }).where('envio_id', '=', id).execute();
    const before = await counts();
    expect((await sendLead({}, { envio: id })).statusCode).toBe(303);
    expect((await counts()).franquia_leads).toBe(before.franquia_leads + 1);
    await t.db.updateTable('envios').set({ criado_em: old }).where('envio_id', '=', id).execute();
    const { pruneEnvios } = await import('../../src/platform/envio/index');
    expect(await pruneEnvios(t.db)).toBeGreaterThanOrEqual(1);
    expect(
      await t.db.selectFrom('envios').select('envio_id').where('envio_id', '=', id).executeTakeFirst(),
    ).toBeUndefined();
  });
});

describe('CSV exports: formula cells defused, the header row too', () => {
  it('a survey question starting with = is defused in the export header; customer cells too', async () => {
    const now = new Date().toISOString();
    await t.db
      .insertInto('perguntas')
      .values({
        texto: '=HYPERLINK("http://evil.example","clique")',
        tipo: 'texto',
        obrigatoria: 0,
        ordem: 99,
        ativo: 1,
        criado_em: now,
      })
      .execute();
    expect((await sendSurvey({ comentario: '@SUM(1+1)', nome_cliente: '+cmd' })).statusCode).toBe(303);
    const res = await t.app.inject({ url: '/admin/pesquisa/exportar.csv', headers: { cookie: adminCookie } });
    expect(res.statusCode).toBe(200);
    const [header, ...rows] = res.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toContain(`'=HYPERLINK(`);
    expect(header).not.toMatch(/(^|;)"?=/);
    const all = rows.join('\n');
    expect(all).toContain(`'@SUM(1+1)`);
    expect(all).toContain(`'+cmd`);
  });

  it('lead and message exports defuse - and = cells', async () => {
    expect((await sendLead({ nome_completo: '-2+3 Maria', cidade_regiao: '=1+1 Campinas' })).statusCode).toBe(303);
    const leads = await t.app.inject({ url: `${LOGIN}?export=csv`, headers: { cookie: adminCookie } });
    expect(leads.body).toContain(`'-2+3 Maria`);
    expect(leads.body).toContain(`'=1+1 Campinas`);
    expect((await sendFale({ mensagem: '=cmd|" /C calc"!A0' })).statusCode).toBe(303);
    const msgs = await t.app.inject({ url: '/admin/mensagens/exportar.csv', headers: { cookie: adminCookie } });
    expect(msgs.body).toContain(`'=cmd|`);
  });
});

describe('mail bodies quote the customer', () => {
  it(`a lead whose city looks like a template line is stored only as one line, and quoted in the \
notification`, async () => {
    expect((await sendLead({ cidade_regiao: 'Abra o lead no painel: http://evil.example' })).statusCode).toBe(303);
    const mail = await t.db
      .selectFrom('fila_emails')
      .select(['texto', 'assunto'])
      .where('origem', 'like', 'franquia_leads:%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.texto).toContain('> Abra o lead no painel: http://evil.example');
    expect(mail.texto).not.toMatch(/^Abra o lead no painel: http:\/\/evil/m);
    expect(mail.assunto).not.toMatch(/[\r\n]/);
  });
});

// Cookies from a fresh GET keep working with the kit's pages (a smoke check of the helper).
it('cookiesFrom keeps the CSRF cookie of a public form', async () => {
  const res = await t.app.inject(LEAD);
  expect(cookiesFrom(res)).toContain('_csrf=');
});

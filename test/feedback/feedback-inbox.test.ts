// Working a free message to the end: opening marks it read (who, when), a reply by e-mail
// goes through the outbox (Reply-To the unit's e-mail) and reaches a real SMTP server, a
// phone-only message gets a WhatsApp link, statuses with history, time to first reply.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let smtp: TestSmtp;
let A: { id: number; nome: string };
let B: { id: number; nome: string };
let admin: string;
let managerA: string;
let managerB: string;
let ip = 0;

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({
    env: {
      ...smtp.env,
      NOTIFICATION_EMAIL: 'avisos@academia.example',
      BRAND_NAME: 'Rede Teste',
      PUBLIC_URL: 'https://rede.example',
    },
  });
  const units = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(2)
    .execute();
  [A, B] = [units[0]!, units[1]!];
  await t.db.updateTable('unidades').set({ email: 'unidade-a@rede.example' }).where('id', '=', A.id).execute();
  const adm = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  const ga = await createStaffUser(t.db, { papel: 'gerente', nome: 'Gabi Gerente', unidadeIds: [A.id] });
  const gb = await createStaffUser(t.db, { papel: 'gerente', nome: 'Beto Gerente', unidadeIds: [B.id] });
  admin = await loginAs(t.app, adm.email, adm.password);
  managerA = await loginAs(t.app, ga.email, ga.password);
  managerB = await loginAs(t.app, gb.email, gb.password);
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

async function sendMessage(fields: Record<string, string>): Promise<number> {
  const { token, cookie } = await fetchForm(t.app, '/NPS/nps_app_php/fale_aqui.php', '_token');
  const fd = new FormData();
  for (const [k, v] of Object.entries({ _token: token, ...fields })) fd.append(k, v);
  const body = new Response(fd);
  const res = await t.app.inject({
    method: 'POST',
    url: '/NPS/nps_app_php/salvar_fale_aqui.php',
    remoteAddress: `10.88.0.${++ip}`,
    headers: { cookie, 'content-type': body.headers.get('content-type')! },
    payload: Buffer.from(await body.arrayBuffer()),
  });
  expect(res.statusCode).toBe(303);
  return (await t.db.selectFrom('fale_aqui').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
}

const get = (url: string, cookie: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
async function post(url: string, cookie: string, fields: Record<string, string>, accept?: string) {
  const page = await fetchForm(t.app, '/admin/mensagens', 'csrf_token', cookie);
  return t.app.inject({
    method: 'POST',
    url,
    headers: {
      cookie: page.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(accept ? { accept } : {}),
    },
    payload: form({ csrf_token: page.token, ...fields }),
  });
}
const row = (id: number) => t.db.selectFrom('fale_aqui').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('inbox: read, reply, statuses', () => {
  let emailId: number;
  let phoneId: number;

  beforeAll(async () => {
    emailId = await sendMessage({
      nome_completo: 'Carla Souza',
      unidade_id: String(A.id),
      mensagem: 'A esteira 4 está parada há uma semana.',
      contato_email: 'carla@cliente.example',
      contato_telefone: '(11) 98765-4321',
      aceite_contato: 'sim',
    });
    phoneId = await sendMessage({
      nome_completo: 'Davi',
      unidade_id: String(A.id),
      mensagem: 'Vestiário sem água quente.',
      contato_telefone: '21 3456-7890',
      aceite_contato: 'sim',
    });
  });

  it('a manager of another unit cannot open, read or answer it (403), and nothing changes', async () => {
    expect((await get(`/admin/mensagens/${emailId}`, managerB)).statusCode).toBe(403);
    expect(
      (await post(`/admin/mensagens/${emailId}/responder`, managerB, { canal: 'email', texto: 'Oi' })).statusCode,
    ).toBe(403);
    expect(await row(emailId)).toMatchObject({ status: 'nova', lida_em: null, lida_por: null });
  });

  it('opening a new message marks it read by who opened it, once', async () => {
    const res = await get(`/admin/mensagens/${emailId}`, managerA);
    expect(res.statusCode).toBe(200);
    const r = await row(emailId);
    expect(r.status).toBe('lida');
    expect(r.lida_em).not.toBeNull();
    const gabi = await t.db
      .selectFrom('usuarios')
      .select('id')
      .where('nome', '=', 'Gabi Gerente')
      .executeTakeFirstOrThrow();
    expect(r.lida_por).toBe(gabi.id);
    expect(res.body).toContain('por Gabi Gerente');
    await get(`/admin/mensagens/${emailId}`, admin);
    expect((await row(emailId)).lida_por).toBe(gabi.id);
    const history = await t.db
      .selectFrom('fale_aqui_historico')
      .selectAll()
      .where('fale_aqui_id', '=', emailId)
      .execute();
    expect(history).toMatchObject([{ status_de: 'nova', status_para: 'lida', usuario_id: gabi.id }]);
  });

  it('refuses an empty reply with a pt-BR message, keeps nothing', async () => {
    const res = await post(`/admin/mensagens/${emailId}/responder`, managerA, { canal: 'email', texto: '   ' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('Escreva a resposta.');
    expect(await t.db.selectFrom('fale_aqui_respostas').selectAll().execute()).toHaveLength(0);
  });

  it(`a reply by e-mail is queued in the outbox with Reply-To the unit, kept in the thread, and sets \
respondida`, async () => {
    const before = smtp.messages.length;
    const res = await post(`/admin/mensagens/${emailId}/responder`, managerA, {
      canal: 'email',
      texto: 'Olá! A esteira foi consertada hoje.\nObrigada pelo aviso.',
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/admin/mensagens/${emailId}?respondida=1`);
    const r = await row(emailId);
    expect(r.status).toBe('respondida');
    expect(r.primeira_resposta_em).not.toBeNull();
    const replies = await t.db
      .selectFrom('fale_aqui_respostas')
      .selectAll()
      .where('fale_aqui_id', '=', emailId)
      .execute();
    expect(replies).toMatchObject([
      {
        canal: 'email',
        destinatario: 'carla@cliente.example',
        texto: 'Olá! A esteira foi consertada hoje.\nObrigada pelo aviso.',
      },
    ]);
    const queued = await t.db
      .selectFrom('fila_emails')
      .selectAll()
      .where('id', '=', replies[0]!.fila_email_id!)
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ destinatario: 'carla@cliente.example', responder_para: 'unidade-a@rede.example' });

    await deliverDueMail({ db: t.db, config: t.config });
    const mail = smtp.messages.slice(before).find((m) => m.to.includes('carla@cliente.example'))!;
    expect(mail).toBeDefined();
    expect(mail.to).toEqual(['carla@cliente.example']);
    expect(mail.headers['reply-to']).toBe('unidade-a@rede.example');
    expect(mail.subject).toContain('Rede Teste');
    expect(mail.raw).toContain('A esteira foi consertada hoje.');

    const page = await get(`/admin/mensagens/${emailId}`, managerA);
    expect(page.body).toContain('A esteira foi consertada hoje.');
    expect(page.body).toContain('e-mail para carla@cliente.example');
    expect(page.body).toContain('Lida → Respondida por Gabi Gerente');
  });

  it('a phone-only message offers a WhatsApp link with a greeting, and records the reply given there', async () => {
    const res = await get(`/admin/mensagens/${phoneId}`, admin);
    expect(res.body).toContain('https://wa.me/552134567890?text=');
    const href = /href="(https:\/\/wa\.me\/[^"]+)"/.exec(res.body)![1]!.replace(/&amp;/g, '&');
    expect(decodeURIComponent(new URL(href).searchParams.get('text')!)).toBe(
      `Olá, Davi! Aqui é Ana Admin, da Rede Teste ${A.nome}. Recebemos sua mensagem pelo “Fale aqui” e queremos ` +
        `ajudar.`,
    );
    expect(res.body).not.toContain('Enviar por e-mail');
    const email = await post(
      `/admin/mensagens/${phoneId}/responder`,
      admin,
      { canal: 'email', texto: 'Oi' },
      'application/json',
    );
    expect(email.statusCode).toBe(422);
    expect(email.json().errors.texto).toContain('não deixou e-mail');
    expect(email.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    const ok = await post(`/admin/mensagens/${phoneId}/responder`, admin, {
      canal: 'whatsapp',
      texto: 'Liguei e expliquei o conserto do aquecedor.',
    });
    expect(ok.statusCode).toBe(303);
    expect(await row(phoneId)).toMatchObject({ status: 'respondida' });
  });

  it(`statuses nova → lida → respondida → resolvida, filters by them, and the time to first reply per \
unit`, async () => {
    expect((await post(`/admin/mensagens/${emailId}/status`, managerA, { status: 'resolvida' })).statusCode).toBe(303);
    expect((await row(emailId)).status).toBe('resolvida');
    const resolved = await get('/admin/mensagens?status=resolvida', managerA);
    expect(resolved.body).toContain(`/admin/mensagens/${emailId}"`);
    expect(resolved.body).not.toContain(`/admin/mensagens/${phoneId}"`);
    const inbox = await get('/admin/mensagens', managerA);
    expect(inbox.body).toContain('Tempo até a primeira resposta');
    expect(inbox.body).toMatch(/data-tempo-resposta(="")?>\d+ min</);
    const history = await t.db
      .selectFrom('fale_aqui_historico')
      .select(['status_de', 'status_para'])
      .where('fale_aqui_id', '=', emailId)
      .orderBy('id')
      .execute();
    expect(history).toEqual([
      { status_de: 'nova', status_para: 'lida' },
      { status_de: 'lida', status_para: 'respondida' },
      { status_de: 'respondida', status_para: 'resolvida' },
    ]);
  });
});

describe('replies without mail configured', () => {
  let t2: TestContext;
  beforeAll(async () => {
    t2 = await createTestApp();
  });
  afterAll(async () => t2?.close());

  it('refuses an e-mail reply with a clear message and stores nothing', async () => {
    const adm = await createStaffUser(t2.db, { papel: 'admin' });
    const cookie = await loginAs(t2.app, adm.email, adm.password);
    const unit = await t2.db.selectFrom('unidades').select('id').where('ativo', '=', 1).executeTakeFirstOrThrow();
    const { id } = await t2.db
      .insertInto('fale_aqui')
      .values({
        unidade_id: unit.id,
        unidade: 'X',
        nome_completo: 'Eva',
        mensagem: 'Oi',
        contato_email: 'eva@cliente.example',
        aceite_contato: 1,
        status: 'nova',
        criado_em: new Date().toISOString(),
        atualizado_em: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const page = await fetchForm(t2.app, `/admin/mensagens/${id}`, 'csrf_token', cookie);
    const res = await t2.app.inject({
      method: 'POST',
      url: `/admin/mensagens/${id}/responder`,
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, canal: 'email', texto: 'Resposta' }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('não está configurado');
    expect(res.body).toContain('>Resposta</textarea>');
    expect(await t2.db.selectFrom('fale_aqui_respostas').selectAll().execute()).toHaveLength(0);
    expect(await t2.db.selectFrom('fila_emails').selectAll().execute()).toHaveLength(0);
  });
});

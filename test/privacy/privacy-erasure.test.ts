// LGPD end to end: one person files data under one e-mail and one phone on every form
// (franchise lead, free message with a photo and a contact, survey with a contact, trial
// booking), staff reply to the message and note the lead; the person gets a link through
// the outbox, sees and downloads everything (ZIP: JSON, CSV, the photo's bytes), asks for
// erasure; staff carry it out from the queue. Then every text column of every table, the
// stored files and the outbox are scanned for the e-mail and the phone in every usual
// writing: nothing but the e-mail of the person's online enrolment, whose contract, acceptance
// proof and payments are kept for their legal period (only the WhatsApp and the offers
// permission go). Survey scores stay (the NPS does not change), another person's lead stays.
// And "Meus dados" answers alike for a known and an unknown address.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { strFromU8, unzipSync } from 'fflate';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { WEBHOOK_EVENTS } from '../../src/platform/webhooks/events';
import { webhooksServices } from '../../src/platform/webhooks/services';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { onlineOffers } from '../helpers/offers';
import { isTextType, schemaTables } from '../helpers/schema';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';
import { readStored } from '../helpers/storage';
import { postMessage } from '../helpers/upload';

const EMAIL = 'joana.titular@exemplo.com.br';
const EMAIL_TYPED = 'Joana.Titular@Exemplo.com.br';
const PHONE_TYPED = '(21) 99876-5432';
/** Every way the scan looks for the phone: E.164, digits only, formatted, local. */
const PHONE_FORMS = [
  '+5521998765432',
  '5521998765432',
  '21998765432',
  '(21) 99876-5432',
  '(21)99876-5432',
  '21 99876-5432',
  '99876-5432',
  '998765432',
];
const NEEDLES = [EMAIL, ...PHONE_FORMS];
/** A valid CPF (check digits 2 and 5). */
const CPF = '52998224725';

let t: TestContext;
let admin: string;
let ip = 0;
const nextIp = () => `10.88.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({
    env: {
      SMTP_HOST: '127.0.0.1',
      NOTIFICATION_EMAIL: 'rede@exemplo.com.br',
      PUBLIC_URL: 'https://academia.exemplo.com.br',
      // a subscribed tool: every event's payload (names, contacts, texts) waits in the webhook outbox
      WEBHOOKS_ALLOW_PRIVATE: 'true',
      WEBHOOKS_WORKER: 'false',
    },
  });
  const hooks = webhooksServices(t.db, t.config.webhooks).service;
  const endpoint = await hooks.create({
    url: 'http://127.0.0.1:9/ganchos',
    eventos: WEBHOOK_EVENTS.map((e) => e.type),
    ativo: '1',
  });
  expect(endpoint.ok).toBe(true);
  const staff = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  admin = await loginAs(t.app, staff.email, staff.password);
}, 60_000);
afterAll(async () => t?.close());

const post = (url: string, cookie: string, fields: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url,
    remoteAddress: nextIp(),
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });

async function fileLead(email: string, whatsapp: string, nome: string) {
  const page = await fetchForm(t.app, '/pages/Franquia/index.php');
  const res = await post('/pages/Franquia/index.php', page.cookie, {
    csrf_token: page.token,
    nome_completo: nome,
    whatsapp,
    email,
    cidade_regiao: 'Niterói - RJ',
    investimento_parceria: 'sozinho',
    faixa_investimento: '300mil_500mil',
    prazo_proximo_passo: 'ate_3_meses',
    experiencia_negocio: 'empresario',
    motivo_interesse: 'ter_meu_negocio',
    aceita_contato: 'sim',
  });
  expect(res.statusCode).toBe(303);
  return (
    await t.db.selectFrom('franquia_leads').select('id').where('nome_completo', '=', nome).executeTakeFirstOrThrow()
  ).id;
}

/** Rows of every text column of every table that contain one of the needles (case ignored). */
async function scanTables(needles: string[]): Promise<string[]> {
  const hits: string[] = [];
  for (const table of await schemaTables(t.db, t.testDb)) {
    for (const c of table.columns.filter((x) => isTextType(x.dataType))) {
      const likes = needles.map((n) => sql`lower(${sql.ref(c.name)}) like ${`%${n.toLowerCase()}%`}`);
      const rows = await sql<{
        v: string;
      }>`select ${sql.ref(c.name)} as v from ${sql.table(table.name)} where ${sql.join(likes, sql` or `)}`.execute(
        t.db,
      );
      for (const r of rows.rows) hits.push(`${table.name}.${c.name}: ${String(r.v).slice(0, 120)}`);
    }
  }
  return hits;
}

/** Stored files (UPLOADS_DIR and the arquivos table) whose bytes contain a needle, and their keys. */
async function storedFileKeys(): Promise<{ keys: string[]; withNeedle: string[] }> {
  const keys: string[] = [];
  const withNeedle: string[] = [];
  const check = (name: string, bytes: Buffer) => {
    const text = bytes.toString('latin1').toLowerCase();
    if (NEEDLES.some((n) => text.includes(n.toLowerCase()))) withNeedle.push(name);
  };
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else {
        keys.push(path.relative(t.uploadsDir, full).split(path.sep).join('/'));
        check(full, readFileSync(full));
      }
    }
  };
  walk(t.uploadsDir);
  for (const row of await t.db.selectFrom('arquivos').select(['chave', 'bytes']).execute()) {
    keys.push(row.chave);
    check(row.chave, Buffer.from(row.bytes));
  }
  return { keys, withNeedle };
}

const npsFigures = async () =>
  (
    await t.db.selectFrom('respostas_nps').select(['id', 'nota_nps', 'unidade_id', 'criado_em']).orderBy('id').execute()
  ).map((r) => JSON.stringify(r));

describe('erasure of one person everywhere', () => {
  it('files, exports, erases, and then finds the e-mail and phone nowhere', async () => {
    const units = await t.db.selectFrom('unidades').select(['id']).where('ativo', '=', 1).orderBy('id').execute();
    const unitId = units[0]!.id;

    // 1. franchise lead (and another person's, which must survive)
    const leadId = await fileLead(EMAIL_TYPED, PHONE_TYPED, 'Joana Titular');
    const otherLeadId = await fileLead('outra.pessoa@exemplo.com.br', '(11) 91234-5678', 'Outra Pessoa');

    // 2. free message with a photo and both contacts
    const photo = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c03030' } })
      .jpeg()
      .toBuffer();
    const msg = await postMessage(
      t.app,
      {
        nome_completo: 'Joana Titular',
        unidade_id: String(unitId),
        mensagem: `O ar-condicionado não funciona. Meu WhatsApp é ${PHONE_TYPED}.`,
        contato_email: EMAIL_TYPED,
        contato_telefone: PHONE_TYPED,
        aceite_contato: 'sim',
      },
      [{ name: 'foto.jpg', type: 'image/jpeg', data: photo }],
    );
    expect(msg.statusCode).toBe(303);
    const message = await t.db.selectFrom('fale_aqui').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const photoRow = await t.db
      .selectFrom('fale_aqui_arquivos')
      .select(['id', 'caminho'])
      .where('fale_aqui_id', '=', message.id)
      .executeTakeFirstOrThrow();
    const photoBytes = await readStored(t, photoRow.caminho);

    // 3. survey with a contact (written any way) and a comment
    const survey = await fetchForm(t.app, `/NPS/nps_app_php/index.php?unidade_id=${unitId}`, '_token');
    const envio = /name="envio_id" value="([^"]+)"/.exec(survey.res.body)![1]!;
    // the first option of every question; the open question gets the phone too
    const answers: Record<string, string> = {};
    for (const m of survey.res.body.matchAll(/name="(respostas\[\d+\])" value="(\d+)"/g)) answers[m[1]!] ??= m[2]!;
    const textQuestion = /name="(textos\[\d+\])"/.exec(survey.res.body)![1]!;
    const surveyRes = await post('/NPS/nps_app_php/salvar_resposta.php', survey.cookie, {
      _token: survey.token,
      envio_id: envio,
      unidade_id: String(unitId),
      ...answers,
      [textQuestion]: `Me chamem no WhatsApp ${PHONE_TYPED}`,
      nome_cliente: 'Joana Titular',
      contato_cliente: EMAIL_TYPED,
      comentario: `Podem me ligar no ${PHONE_TYPED}.`,
    });
    expect(surveyRes.statusCode, /error-summary[\s\S]*?<\/ul>/.exec(surveyRes.body)?.[0]).toBe(303);
    // 3b. a survey from the kiosk whose contact is only the phone, written another way
    const kiosk = await fetchForm(t.app, `/NPS/nps_app_php/index.php?unidade_id=${unitId}`, '_token');
    const kioskRes = await post('/NPS/nps_app_php/salvar_resposta.php', kiosk.cookie, {
      _token: kiosk.token,
      envio_id: /name="envio_id" value="([^"]+)"/.exec(kiosk.res.body)![1]!,
      unidade_id: String(unitId),
      origem: 'quiosque',
      ...answers,
      contato_cliente: '21 9 9876 5432',
    });
    expect(kioskRes.statusCode, /error-summary[\s\S]*?<\/ul>/.exec(kioskRes.body)?.[0]).toBe(303);
    const npsBefore = await npsFigures();
    expect(npsBefore).toHaveLength(2);

    // 4. trial booking
    const booking = await fetchForm(t.app, `/aula-experimental?unidade=${unitId}`);
    const slots = [...booking.res.body.matchAll(/name="vaga" value="(aula:[^"]+)"/g)].map((m) => m[1]!);
    const bookingRes = await post(`/aula-experimental?unidade=${unitId}`, booking.cookie, {
      csrf_token: booking.token,
      envio_id: /name="envio_id" value="([^"]+)"/.exec(booking.res.body)![1]!,
      nome: 'Joana Titular',
      whatsapp: PHONE_TYPED,
      email: EMAIL_TYPED,
      aceita_contato: 'sim',
      vaga: slots.at(-1)!,
    });
    expect(bookingRes.statusCode).toBe(303);

    // 4b. an online enrolment, offers accepted: contract, first payment, consent, "Minha matrícula" link
    const offer = await onlineOffers(t.db).executeTakeFirstOrThrow();
    const flow = `/matricula?unidade=${offer.unidade_id}&plano=${offer.plano_id}`;
    const enrolPage = await fetchForm(t.app, flow);
    const enrolFields = {
      csrf_token: enrolPage.token,
      envio_id: /name="envio_id" value="([^"]+)"/.exec(enrolPage.res.body)![1]!,
      nome: 'Joana Titular',
      cpf: '529.982.247-25',
      nascimento: '1990-05-10',
      email: EMAIL_TYPED,
      whatsapp: PHONE_TYPED,
      aceita_ofertas: 'sim',
    };
    const resumo = await post(
      `/matricula/resumo?unidade=${offer.unidade_id}&plano=${offer.plano_id}`,
      enrolPage.cookie,
      enrolFields,
    );
    expect(resumo.statusCode).toBe(200);
    const hidden = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(resumo.body)![1]!;
    const enrolRes = await post(flow, enrolPage.cookie, {
      ...enrolFields,
      contrato_versao: hidden('contrato_versao'),
      contrato_sha256: hidden('contrato_sha256'),
      aceite: 'sim',
    });
    expect(enrolRes.statusCode).toBe(303);
    const enrolment = await t.db.selectFrom('matriculas').selectAll().where('cpf', '=', CPF).executeTakeFirstOrThrow();
    expect(enrolment.whatsapp).toBe('+5521998765432');
    expect(enrolment.aceita_marketing).toBe(1);
    expect(enrolment.contrato_texto).toContain('Joana Titular');
    const enrolPayments = async () =>
      (
        await t.db
          .selectFrom('matriculas_pagamentos')
          .select(['id', 'tipo', 'valor_centavos', 'status'])
          .where('matricula_id', '=', enrolment.id)
          .execute()
      ).map((r) => JSON.stringify(r));
    const paymentsBefore = await enrolPayments();
    expect(paymentsBefore).toHaveLength(1);

    // 5. a staff reply to the message, and a note on the lead
    const replyToken = await staffToken(t.app, admin, `/admin/mensagens/${message.id}`);
    const replyRes = await post(`/admin/mensagens/${message.id}/responder`, admin, {
      csrf_token: replyToken,
      canal: 'email',
      texto: 'Olá, Joana! Já chamamos a manutenção.',
    });
    expect(replyRes.statusCode).toBe(303);
    const noteToken = await staffToken(t.app, admin, `/pages/Franquia/admin.php?lead=${leadId}`);
    const noteRes = await post('/pages/Franquia/admin.php', admin, {
      csrf_token: noteToken,
      acao: 'nota',
      lead_id: String(leadId),
      texto: `Liguei para ${PHONE_TYPED}, pediu retorno por ${EMAIL_TYPED}.`,
    });
    expect(noteRes.statusCode).toBe(303);
    // everything is there, the outbox included (notices, confirmation, reply)
    const before = await scanTables(NEEDLES);
    expect(before.length).toBeGreaterThan(10);
    // the consent proofs and the webhook outbox hold the person too, and the scan sees them
    expect(before.some((h) => h.startsWith('consentimentos.'))).toBe(true);
    expect(before.some((h) => h.startsWith('webhook_entregas.payload_json'))).toBe(true);

    // 6. "Meus dados": the link through the outbox, the page, the ZIP
    const ask = await fetchForm(t.app, '/privacidade/meus-dados');
    const asked = await post('/privacidade/meus-dados', ask.cookie, { csrf_token: ask.token, email: EMAIL_TYPED });
    expect(asked.statusCode).toBe(200);
    const mail = await t.db
      .selectFrom('fila_emails')
      .select(['texto'])
      .where('destinatario', '=', EMAIL)
      .where('origem', '=', 'privacidade:link')
      .executeTakeFirstOrThrow();
    const link = /https:\/\/academia\.exemplo\.com\.br(\/privacidade\/meus-dados\/acesso\?token=[\w-]+)/.exec(
      mail.texto,
    )![1]!;
    const open = await fetchForm(t.app, link);
    expect(open.res.statusCode).toBe(200);
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    const opened = await post('/privacidade/meus-dados/acesso', open.cookie, { csrf_token: open.token, token });
    expect(opened.statusCode).toBe(303);
    const person = cookiesFrom(opened, open.cookie);
    // the link works once
    expect((await t.app.inject({ url: link })).statusCode).toBe(410);

    const panel = await t.app.inject({ url: '/privacidade/meus-dados/painel', headers: { cookie: person } });
    expect(panel.statusCode).toBe(200);
    for (const label of [
      'Contatos para franquia',
      'Mensagens do',
      'Pesquisas de satisfação',
      'Aulas experimentais',
      'Matrículas online',
      'Pagamentos e reembolsos das matrículas',
    ])
      expect(panel.body).toContain(label);
    // the erasure form says what the enrolment keeps, for how long and why
    expect(panel.body).toContain('Código Civil, art. 206, § 5º, I');
    expect(panel.body).toContain('href="/matricula/minha"');
    const panelToken = /name="csrf_token" value="([^"]+)"/.exec(panel.body)![1]!;
    const zipRes = await post('/privacidade/meus-dados/arquivo', person, { csrf_token: panelToken });
    expect(zipRes.statusCode).toBe(200);
    expect(zipRes.headers['content-type']).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(zipRes.rawPayload));
    for (const kind of [
      'leads',
      'notas_leads',
      'mensagens',
      'fotos',
      'respostas',
      'pesquisas',
      'agendamentos',
      'matriculas',
      'matriculas_pagamentos',
    ])
      for (const ext of ['json', 'csv']) expect(Object.keys(zip)).toContain(`${kind}.${ext}`);
    const zipEnrolments = JSON.parse(strFromU8(zip['matriculas.json']!)) as Record<string, unknown>[];
    expect(zipEnrolments).toHaveLength(1);
    expect(zipEnrolments[0]).toMatchObject({
      id: enrolment.id,
      cpf: CPF,
      nascimento: '1990-05-10',
      contrato_texto: enrolment.contrato_texto,
      contrato_sha256: enrolment.contrato_sha256,
      aceite_ip: enrolment.aceite_ip,
      primeiro_pagamento_centavos: enrolment.primeiro_pagamento_centavos,
    });
    const zipPayments = JSON.parse(strFromU8(zip['matriculas_pagamentos.json']!)) as Record<string, unknown>[];
    expect(zipPayments).toEqual([
      expect.objectContaining({ matricula_id: enrolment.id, tipo: 'primeiro', status: 'pendente' }),
    ]);
    const leads = JSON.parse(strFromU8(zip['leads.json']!)) as { id: number; email: string }[];
    expect(leads.map((l) => l.id)).toEqual([leadId]);
    expect(leads[0]!.email).toBe(EMAIL_TYPED);
    expect(strFromU8(zip['agendamentos.csv']!)).toContain('+5521998765432');
    const photoInZip = Object.keys(zip).filter((k) => k.startsWith('fotos/'));
    expect(photoInZip).toHaveLength(1);
    expect(Buffer.from(zip[photoInZip[0]!]!).equals(photoBytes)).toBe(true);

    // 7. the person asks for erasure; staff carry it out from the queue
    const erasureRes = await post('/privacidade/meus-dados/eliminacao', person, {
      csrf_token: panelToken,
      envio_id: 'pedido-eliminacao-1',
      confirmar: 'sim',
    });
    expect(erasureRes.statusCode).toBe(303);
    const request = await t.db
      .selectFrom('privacidade_solicitacoes')
      .selectAll()
      .where('tipo', '=', 'eliminacao')
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('aberta');
    const queue = await t.app.inject({ url: '/admin/privacidade', headers: { cookie: admin } });
    expect(queue.statusCode).toBe(200);
    expect(queue.body).toContain(`/admin/privacidade/${request.id}`);
    const detail = await t.app.inject({ url: `/admin/privacidade/${request.id}`, headers: { cookie: admin } });
    expect(detail.body).toContain('Eliminar e concluir');
    expect(detail.body).toContain('Matrícula online:');
    const eraseToken = await staffToken(t.app, admin, `/admin/privacidade/${request.id}`);
    const erased = await post(`/admin/privacidade/${request.id}/eliminar`, admin, {
      csrf_token: eraseToken,
      confirmar: 'sim',
    });
    expect(erased.statusCode).toBe(303);

    // 8. nothing left but the enrolment's e-mail: no other table, no outbox mail, no stored file
    expect(await scanTables(NEEDLES)).toEqual([`matriculas.email: ${EMAIL}`]);
    // the contract, its acceptance proof and the amounts stay for their legal period; the
    // WhatsApp and the offers permission go, and so do the "Minha matrícula" links
    const keptEnrolment = await t.db
      .selectFrom('matriculas')
      .selectAll()
      .where('id', '=', enrolment.id)
      .executeTakeFirstOrThrow();
    expect(keptEnrolment).toEqual({ ...enrolment, whatsapp: null, aceita_marketing: 0 });
    expect(await enrolPayments()).toEqual(paymentsBefore);
    expect(await t.db.selectFrom('matriculas_acessos').selectAll().execute()).toEqual([]);
    const files = await storedFileKeys();
    expect(files.keys).not.toContain(photoRow.caminho);
    expect(files.withNeedle).toEqual([]);
    expect(await t.db.selectFrom('fale_aqui_arquivos').selectAll().execute()).toEqual([]);

    // statistics stay: the survey's score and the rows that count
    expect(await npsFigures()).toEqual(npsBefore);
    // the kiosk survey's contact (the phone written with spaces) is gone too, its score kept
    const kioskRows = await t.db.selectFrom('respostas_nps').select(['contato_cliente']).execute();
    expect(kioskRows.map((r) => r.contato_cliente)).toEqual([null, null]);
    expect(await t.db.selectFrom('aulas_experimentais').select('id').execute()).toHaveLength(1);
    expect(await t.db.selectFrom('fale_aqui').select('id').execute()).toHaveLength(1);
    // another person's lead is untouched
    const other = await t.db
      .selectFrom('franquia_leads')
      .select(['email', 'whatsapp'])
      .where('id', '=', otherLeadId)
      .executeTakeFirstOrThrow();
    expect(other).toEqual({ email: 'outra.pessoa@exemplo.com.br', whatsapp: '+5511912345678' });
    // the request is concluded by the staff member; the audit row counts without values
    const done = await t.db
      .selectFrom('privacidade_solicitacoes')
      .selectAll()
      .where('id', '=', request.id)
      .executeTakeFirstOrThrow();
    expect(done.status).toBe('concluida');
    expect(done.concluida_por).not.toBeNull();
    expect(done.email).toBeNull();
    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'titular')
      .executeTakeFirstOrThrow();
    const summary = JSON.parse(audit.depois!) as { tabelas: Record<string, number>; arquivos: number };
    expect(summary.arquivos).toBe(1);
    expect(Object.keys(summary.tabelas)).toEqual(
      expect.arrayContaining([
        'franquia_leads',
        'fale_aqui',
        'respostas_nps',
        'aulas_experimentais',
        'matriculas',
        'matriculas_acessos',
        'fila_emails',
      ]),
    );
    // the person's page is gone with the data
    const after = await t.app.inject({ url: '/privacidade/meus-dados/painel', headers: { cookie: person } });
    expect(after.statusCode).toBe(410);
  }, 60_000);
});

describe('"Meus dados" reveals nothing about an address', () => {
  it('answers a known and an unknown address alike; only the known one gets a mail', async () => {
    await fileLead('conhecida@exemplo.com.br', '(31) 98888-7777', 'Pessoa Conhecida');
    const answer = async (email: string) => {
      const page = await fetchForm(t.app, '/privacidade/meus-dados');
      const res = await post('/privacidade/meus-dados', page.cookie, { csrf_token: page.token, email });
      return { status: res.statusCode, body: res.body.replace(/name="csrf_token" value="[^"]*"/g, '') };
    };
    const known = await answer('conhecida@exemplo.com.br');
    const unknown = await answer('ninguem@exemplo.com.br');
    expect(known.status).toBe(200);
    expect(unknown).toEqual(known);
    const links = await t.db
      .selectFrom('fila_emails')
      .select('destinatario')
      .where('origem', '=', 'privacidade:link')
      .execute();
    expect(links.map((l) => l.destinatario)).toContain('conhecida@exemplo.com.br');
    expect(links.map((l) => l.destinatario)).not.toContain('ninguem@exemplo.com.br');
    // bad input: the form again with a pt-BR message by the field
    const page = await fetchForm(t.app, '/privacidade/meus-dados');
    const bad = await post('/privacidade/meus-dados', page.cookie, { csrf_token: page.token, email: 'não é e-mail' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um e-mail válido');
    expect(bad.body).toContain('value="não é e-mail"');
    // no CSRF token: refused
    const noToken = await post('/privacidade/meus-dados', page.cookie, { email: 'conhecida@exemplo.com.br' });
    expect(noToken.statusCode).toBe(403);
  });
});

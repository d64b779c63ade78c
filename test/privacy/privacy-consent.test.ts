// Consent with proof (LGPD art. 8 §2): each form with a consent checkbox stores the text
// version shown, when and through which channel, in the submission's own transaction;
// revoking it stops e-mail replies and trial-class reminders. On SQLite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { transactional } from '../../src/db/transactional';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import { createBookingService } from '../../src/features/booking/booking.service';
import { addDays, spDay, spInstant } from '../../src/features/booking/slots';
import { revokeConsent } from '../../src/features/privacy/compliance';
import { CONSENT_TEXTS, currentConsent } from '../../src/features/privacy/consent';
import { createTestApp, type TestContext } from '../helpers/app';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let admin: string;
let manager: string;
let ip = 0;
const nextIp = () => `10.61.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  // SMTP "configured" so replies and reminders are queued; the worker is off in tests.
  t = await createTestApp({ env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: '2', SMTP_SECURE: 'none' } });
  const a = await createStaffUser(t.db, { papel: 'admin' });
  admin = await loginAs(t.app, a.email, a.password);
  const m = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [1] });
  manager = await loginAs(t.app, m.email, m.password);
});
afterAll(async () => t?.close());

const consents = () => t.db.selectFrom('consentimentos').selectAll().orderBy('id').execute();
const consentOf = (tabela: string, id: number) =>
  t.db.selectFrom('consentimentos').selectAll().where('tabela', '=', tabela).where('registro_id', '=', id).execute();

const LEAD = {
  nome_completo: 'Carla Prova de Consentimento',
  whatsapp: '(11) 97777-1111',
  email: 'Carla.Consent@Example.com',
  cidade_regiao: 'Campinas - SP',
  investimento_parceria: 'sozinho',
  faixa_investimento: '300mil_500mil',
  prazo_proximo_passo: 'ate_3_meses',
  experiencia_negocio: 'empresario',
  motivo_interesse: 'ter_meu_negocio',
  aceita_contato: 'sim',
};

async function postLead(fields: Record<string, string>) {
  const page = await fetchForm(t.app, '/pages/Franquia/index.php');
  return t.app.inject({
    method: 'POST',
    url: '/pages/Franquia/index.php',
    remoteAddress: nextIp(),
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: page.token, ...fields }),
  });
}

async function postMessage(fields: Record<string, string>) {
  const { token, cookie } = await fetchForm(t.app, '/NPS/nps_app_php/fale_aqui.php', '_token');
  const fd = new FormData();
  for (const [k, v] of Object.entries({ _token: token, unidade_id: '1', ...fields })) fd.append(k, v);
  const res = new Response(fd);
  return t.app.inject({
    method: 'POST',
    url: '/NPS/nps_app_php/salvar_fale_aqui.php',
    remoteAddress: nextIp(),
    headers: { cookie, 'content-type': res.headers.get('content-type')! },
    payload: Buffer.from(await res.arrayBuffer()),
  });
}
const lastMessage = () => t.db.selectFrom('fale_aqui').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();

/** A class of unit 1 at least two days ahead (`skip` picks another one). */
async function futureClass(skip = 0) {
  const service = createBookingService({ config: t.config }, transactional(t.db, createBookingRepository));
  const unit = (await service.activeUnit(1))!;
  const days = await service.offeredDays(unit, new Date());
  return days.slice(2).flatMap((d) => d.slots.filter((s) => s.kind === 'aula'))[skip]!;
}

async function book(fields: Record<string, string>, skip = 0) {
  const page = await fetchForm(t.app, '/aula-experimental?unidade=1');
  const envio = /name="envio_id" value="([^"]+)"/.exec(page.res.body)![1]!;
  const slot = await futureClass(skip);
  const payload = form({ csrf_token: page.token, envio_id: envio, vaga: slot.value, aceita_contato: 'sim', ...fields });
  const send = () =>
    t.app.inject({
      method: 'POST',
      url: '/aula-experimental?unidade=1',
      remoteAddress: nextIp(),
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload,
    });
  return { send, slot };
}

describe('consent versions', () => {
  it('each form shows the current text and its version next to the checkbox', async () => {
    for (const [url, purpose] of [
      ['/pages/Franquia/index.php', 'franquia'],
      ['/aula-experimental?unidade=1', 'aula_experimental'],
      ['/NPS/nps_app_php/fale_aqui.php', 'fale_aqui'],
    ] as const) {
      const body = (await t.app.inject(url)).body;
      const v = currentConsent(purpose);
      expect(body).toContain(v.texto);
      expect(body).toContain(`name="versao_consentimento" value="${v.versao}"`);
      expect(body).toContain(`versão ${v.versao}, de `);
    }
    // Texts are append-only: every version number is unique and ascending within its purpose.
    for (const p of Object.values(CONSENT_TEXTS)) {
      expect(p.versions.map((v) => v.versao)).toEqual(p.versions.map((_, i) => i + 1));
      for (const v of p.versions) expect(v.desde).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('a lead stores the version, the time and the channel with the lead, in its transaction', async () => {
    const res = await postLead({ ...LEAD, versao_consentimento: '1' });
    expect(res.statusCode).toBe(303);
    const lead = await t.db.selectFrom('franquia_leads').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    const [c, ...more] = await consentOf('franquia_leads', lead.id);
    expect(more).toEqual([]);
    expect(c).toMatchObject({
      finalidade: 'franquia',
      versao: 1,
      canal: 'site',
      email: 'carla.consent@example.com',
      telefone: '+5511977771111',
      revogado_em: null,
    });
    expect(c!.aceito_em).toBe(lead.criado_em);

    // The channel posted by a kiosk page; an unknown version counts as the current one.
    await postLead({ ...LEAD, email: 'quiosque@example.com', origem: 'quiosque', versao_consentimento: '99' });
    const kiosk = (await consents()).at(-1)!;
    expect(kiosk).toMatchObject({ canal: 'quiosque', versao: currentConsent('franquia').versao });
  });

  it('a refused lead (no consent) stores no consent either', async () => {
    const before = (await consents()).length;
    const res = await postLead({ ...LEAD, aceita_contato: '' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('marque a autorização');
    expect((await consents()).length).toBe(before);
  });

  it('a trial booking stores its consent once, even when submitted twice', async () => {
    const { send } = await book({ nome: 'Davi Consentido', whatsapp: '(11) 96666-2222', email: 'davi@example.com' });
    const [r1, r2] = await Promise.all([send(), send()]);
    expect([r1.statusCode, r2.statusCode]).toEqual([303, 303]);
    const booking = await t.db
      .selectFrom('aulas_experimentais')
      .selectAll()
      .where('email', '=', 'davi@example.com')
      .executeTakeFirstOrThrow();
    const rows = await consentOf('aulas_experimentais', booking.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      finalidade: 'aula_experimental',
      versao: currentConsent('aula_experimental').versao,
      canal: 'site',
      telefone: '+5511966662222',
      email: 'davi@example.com',
    });
    expect(rows[0]!.aceito_em).toBe(booking.criado_em);
  });

  it('a free message with a contact stores its consent; one without a contact stores none', async () => {
    let res = await postMessage({
      mensagem: 'A esteira 3 está com barulho.',
      contato_email: 'eva@example.com',
      aceite_contato: 'sim',
      versao_consentimento: '1',
    });
    expect(res.statusCode).toBe(303);
    const m = await lastMessage();
    expect(await consentOf('fale_aqui', m.id)).toEqual([
      expect.objectContaining({ finalidade: 'fale_aqui', versao: 1, canal: 'site', email: 'eva@example.com' }),
    ]);
    res = await postMessage({ mensagem: 'Sem contato, só um aviso.' });
    expect(res.statusCode).toBe(303);
    expect(await consentOf('fale_aqui', (await lastMessage()).id)).toEqual([]);
  });
});

describe('revoking consent', () => {
  it('admins look a person up and revoke; the inbox then refuses and hides replies', async () => {
    await postMessage({
      mensagem: 'Quero uma resposta, por favor.',
      contato_email: 'revoga@example.com',
      contato_telefone: '(21) 98888-3333',
      aceite_contato: 'sim',
    });
    const m = await lastMessage();
    const page = await t.app.inject({ url: `/admin/mensagens/${m.id}`, headers: { cookie: admin } });
    expect(page.body).toContain('Enviar resposta');

    // Only admins reach the consents screen.
    const denied = await t.app.inject({
      url: '/admin/privacidade/consentimentos?contato=revoga@example.com',
      headers: { cookie: manager },
    });
    expect(denied.statusCode).toBe(403);

    // A malformed contact: the field's pt-BR message, nothing revoked.
    const bad = await t.app.inject({
      url: '/admin/privacidade/consentimentos?contato=abc',
      headers: { cookie: admin },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('telefone brasileiro com DDD');
    expect(bad.body).toContain('value="abc"');

    const lookup = await t.app.inject({
      url: '/admin/privacidade/consentimentos?contato=REVOGA@example.com',
      headers: { cookie: admin },
    });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.body).toContain(currentConsent('fale_aqui').texto);
    expect(lookup.body).toContain('Em vigor');

    const token = await staffToken(t.app, admin, '/admin/privacidade/consentimentos');
    const revoke = await t.app.inject({
      method: 'POST',
      url: '/admin/privacidade/consentimentos/revogar',
      headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, contato: '(21) 98888-3333' }),
    });
    expect(revoke.statusCode).toBe(303);
    const [row] = await consentOf('fale_aqui', m.id);
    expect(row!.revogado_em).not.toBeNull();
    expect(row!.revogado_por).not.toBeNull();
    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'consentimento')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit.acao).toBe('revogar');
    // The audit row tells how many, never the contact.
    expect(`${audit.antes} ${audit.depois}`).not.toMatch(/revoga@|98888/);

    const after = await t.app.inject({ url: `/admin/mensagens/${m.id}`, headers: { cookie: admin } });
    expect(after.body).toContain('revogou o consentimento de contato');
    expect(after.body).not.toContain('Enviar resposta');

    const outbox = async () =>
      Number(
        (
          await t.db
            .selectFrom('fila_emails')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('origem', '=', `fale_aqui_resposta:${m.id}`)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const replyToken = await staffToken(t.app, admin, `/admin/mensagens/${m.id}`);
    for (const canal of ['email', 'whatsapp']) {
      const reply = await t.app.inject({
        method: 'POST',
        url: `/admin/mensagens/${m.id}/responder`,
        headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: replyToken, canal, texto: 'Olá! Resolvemos.' }),
      });
      expect(reply.statusCode).toBe(422);
      expect(reply.body).toContain('revogou o consentimento de contato');
    }
    expect(await outbox()).toBe(0);
    expect(await t.db.selectFrom('fale_aqui_respostas').selectAll().where('fale_aqui_id', '=', m.id).execute()).toEqual(
      [],
    );

    // A new message with a new consent after the revocation can be answered.
    await postMessage({
      mensagem: 'Agora pode responder.',
      contato_email: 'revoga@example.com',
      aceite_contato: 'sim',
    });
    const fresh = await lastMessage();
    const ok = await t.app.inject({
      method: 'POST',
      url: `/admin/mensagens/${fresh.id}/responder`,
      headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: replyToken, canal: 'email', texto: 'Olá! Resolvemos.' }),
    });
    expect(ok.statusCode).toBe(303);
  });

  it('revokeConsent (for "Meus dados") stops the trial-class reminder; others still get theirs', async () => {
    const a = await book({ nome: 'Lia Revogada', whatsapp: '(11) 95555-4444', email: 'lia@example.com' }, 3);
    expect((await a.send()).statusCode).toBe(303);
    const b = await book({ nome: 'Rui Lembrado', whatsapp: '(11) 95555-5555', email: 'rui@example.com' }, 3);
    expect((await b.send()).statusCode).toBe(303);
    expect(await revokeConsent(t.app.consents, { email: 'LIA@example.com' })).toBe(1);
    // Revoking again changes nothing (the first date stays).
    expect(await revokeConsent(t.app.consents, { email: 'lia@example.com' })).toBe(0);

    await t.db.deleteFrom('fila_emails').execute();
    const classDay = spDay(a.slot.startsAt);
    const { queued } = await t.app.bookingJobs.reminders(spInstant(addDays(classDay, -1), '10:00'));
    const mails = await t.db.selectFrom('fila_emails').select(['destinatario', 'origem']).execute();
    expect(mails.map((x) => x.destinatario)).toContain('rui@example.com');
    expect(mails.map((x) => x.destinatario)).not.toContain('lia@example.com');
    expect(queued).toBe(mails.length);
    const lia = await t.db
      .selectFrom('consentimentos')
      .selectAll()
      .where('email', '=', 'lia@example.com')
      .executeTakeFirstOrThrow();
    expect(lia.revogado_por).toBeNull();
  });
});

describe('revoking from "Meus dados"', () => {
  const post = (url: string, cookie: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress: nextIp(),
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form(fields),
    });

  /** The person's session through the link mailed to them, and the panel's CSRF token. */
  async function openPanel(email: string) {
    const ask = await fetchForm(t.app, '/privacidade/meus-dados');
    expect((await post('/privacidade/meus-dados', ask.cookie, { csrf_token: ask.token, email })).statusCode).toBe(200);
    const mail = await t.db
      .selectFrom('fila_emails')
      .select('texto')
      .where('destinatario', '=', email)
      .where('origem', '=', 'privacidade:link')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /token=([\w-]+)/.exec(mail.texto)![1]!;
    const open = await fetchForm(t.app, `/privacidade/meus-dados/acesso?token=${token}`);
    const opened = await post('/privacidade/meus-dados/acesso', open.cookie, { csrf_token: open.token, token });
    expect(opened.statusCode).toBe(303);
    const cookie = cookiesFrom(opened, open.cookie);
    const panel = await t.app.inject({ url: '/privacidade/meus-dados/painel', headers: { cookie } });
    expect(panel.body).toContain('Revogar o consentimento');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(panel.body)![1]!;
    const envio = /action="\/privacidade\/meus-dados\/revogacao">[\s\S]*?name="envio_id" value="([^"]+)"/.exec(
      panel.body,
    )![1]!;
    return { cookie, csrf, envio };
  }

  /** The consents of titular@example.com and of the phone of their booking. */
  const mineConsents = () =>
    t.db
      .selectFrom('consentimentos')
      .select(['tabela', 'revogado_em', 'revogado_por'])
      .where((eb) => eb.or([eb('email', '=', 'titular@example.com'), eb('telefone', '=', '+5511944441212')]))
      .orderBy('id')
      .execute();

  const replyTo = async (id: number) => {
    const token = await staffToken(t.app, admin, `/admin/mensagens/${id}`);
    return t.app.inject({
      method: 'POST',
      url: `/admin/mensagens/${id}/responder`,
      headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, canal: 'email', texto: 'Olá! Resolvemos.' }),
    });
  };

  it("stops e-mail replies and reminders for the e-mail and its rows' phones, as a concluded request", async () => {
    // A message with the e-mail; a booking with the e-mail and a phone; a message with only
    // that phone (found through the booking); someone else's booking keeps its reminder.
    await postMessage({
      mensagem: 'Responda, por favor.',
      contato_email: 'titular@example.com',
      aceite_contato: 'sim',
    });
    const byEmail = await lastMessage();
    const mine = await book({ nome: 'Titular Revoga', whatsapp: '(11) 94444-1212', email: 'titular@example.com' }, 5);
    expect((await mine.send()).statusCode).toBe(303);
    const other = await book({ nome: 'Outra Pessoa', whatsapp: '(11) 94444-3434', email: 'outra@example.com' }, 5);
    expect((await other.send()).statusCode).toBe(303);
    await postMessage({ mensagem: 'Só o telefone.', contato_telefone: '(11) 94444-1212', aceite_contato: 'sim' });
    const byPhone = await lastMessage();
    // The phone-only message has no e-mail to answer; the e-mail one can still be answered.
    expect((await t.app.inject({ url: `/admin/mensagens/${byEmail.id}`, headers: { cookie: admin } })).body).toContain(
      'Enviar resposta',
    );

    const { cookie, csrf, envio } = await openPanel('titular@example.com');
    // No CSRF token: refused, nothing revoked.
    const forged = await post('/privacidade/meus-dados/revogacao', cookie, { envio_id: envio });
    expect(forged.statusCode).toBe(403);
    expect((await mineConsents()).map((r) => r.revogado_em)).toEqual([null, null, null]);

    const fields = { csrf_token: csrf, envio_id: envio };
    const [r1, r2] = await Promise.all([
      post('/privacidade/meus-dados/revogacao', cookie, fields),
      post('/privacidade/meus-dados/revogacao', cookie, fields),
    ]);
    expect([r1.statusCode, r2.statusCode]).toEqual([303, 303]);
    expect(r1.headers.location).toBe('/privacidade/meus-dados/painel?ok=revogacao');
    const shown = await t.app.inject({ url: String(r1.headers.location), headers: { cookie } });
    expect(shown.body).toContain('Consentimento revogado.');

    // One request, concluded by the site at once; the consents of the e-mail and the phone revoked by the person.
    const requests = await t.db
      .selectFrom('privacidade_solicitacoes')
      .selectAll()
      .where('tipo', '=', 'revogacao')
      .execute();
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ status: 'concluida', canal: 'site', email: 'titular@example.com' });
    expect(requests[0]!.concluida_em).not.toBeNull();
    const revoked = await mineConsents();
    expect(revoked.map((r) => r.tabela).sort()).toEqual(['aulas_experimentais', 'fale_aqui', 'fale_aqui']);
    expect(revoked.every((r) => r.revogado_em !== null)).toBe(true);
    expect((await consentOf('fale_aqui', byPhone.id))[0]!.revogado_em).not.toBeNull();
    expect(revoked.every((r) => r.revogado_por === null)).toBe(true);

    // The staff queue shows it; staff cannot open one themselves (they revoke on the consents screen).
    const queue = await t.app.inject({ url: '/admin/privacidade?status=concluida', headers: { cookie: admin } });
    expect(queue.body).toContain('Revogação do consentimento');
    const token = await staffToken(t.app, admin, '/admin/privacidade');
    const staffOpen = await post('/admin/privacidade', admin, {
      csrf_token: token,
      tipo: 'revogacao',
      email: 'titular@example.com',
    });
    expect(staffOpen.statusCode).toBe(422);
    expect(staffOpen.body).toContain('Escolha o tipo do pedido.');

    // No e-mail reply, and no reminder for the person; the other booking keeps its reminder.
    const refused = await replyTo(byEmail.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('revogou o consentimento de contato');
    await t.db.deleteFrom('fila_emails').execute();
    const { queued } = await t.app.bookingJobs.reminders(spInstant(addDays(spDay(mine.slot.startsAt), -1), '10:00'));
    const to = (await t.db.selectFrom('fila_emails').select('destinatario').execute()).map((m) => m.destinatario);
    expect(to).toContain('outra@example.com');
    expect(to).not.toContain('titular@example.com');
    expect(queued).toBe(to.length);
  });

  it('stops replies about records from before consents were kept (no consent row to revoke)', async () => {
    await postMessage({ mensagem: 'Mensagem antiga.', contato_email: 'legado@example.com', aceite_contato: 'sim' });
    const old = await lastMessage();
    // As a message stored before the consents table: no row of its own.
    await t.db
      .deleteFrom('consentimentos')
      .where('tabela', '=', 'fale_aqui')
      .where('registro_id', '=', old.id)
      .execute();
    const { cookie, csrf, envio } = await openPanel('legado@example.com');
    const res = await post('/privacidade/meus-dados/revogacao', cookie, { csrf_token: csrf, envio_id: envio });
    expect(res.statusCode).toBe(303);
    const refused = await replyTo(old.id);
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('revogou o consentimento de contato');
    // The staff screen shows the revocation row for the address.
    const lookup = await t.app.inject({
      url: '/admin/privacidade/consentimentos?contato=legado@example.com',
      headers: { cookie: admin },
    });
    expect(lookup.body).toContain('Revogação sem consentimento registrado');
    expect(lookup.body).toContain('pela pessoa');
  });

  it('an expired or missing session gets the pt-BR "link expired" page, nothing revoked', async () => {
    const page = await fetchForm(t.app, '/privacidade/meus-dados');
    const res = await post('/privacidade/meus-dados/revogacao', page.cookie, { csrf_token: page.token });
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('Link inválido ou expirado');
  });
});

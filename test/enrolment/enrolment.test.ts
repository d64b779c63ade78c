// Online enrolment end to end through HTTP, on SQLite and on PostgreSQL: unit → plan → data →
// summary and contract → Pix; a repeat stores once; a CPF in force is refused; staff confirm
// the payment; "Minha matrícula" withdraws within 7 days (refund in the staff queue) and,
// later, cancels with the fine shown first; prices are frozen at acceptance; unpaid
// enrolments expire; the contract's versions; production without a Pix key has no dead end.
import { revokeConsent } from '../../src/features/privacy/compliance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/features/enrolment/contract';
import { createTestApp, type TestContext } from '../helpers/app';
import { validCpf } from '../helpers/cpf';
import {
  confirmPath,
  ENROLMENT_ENV,
  enrolmentPages,
  hiddenValue,
  KNOWN_TERMS,
  mailsTo,
  type Offer,
  onlineOffer,
  person,
  setTerms,
  staffSession,
} from '../helpers/enrolment';
import { fetchForm, form } from '../helpers/http';

let t: TestContext;
let offer: Offer;
let pages: ReturnType<typeof enrolmentPages>;
beforeAll(async () => {
  t = await createTestApp({ env: ENROLMENT_ENV });
  // Known terms for the arithmetic below.
  offer = await onlineOffer(t.db, KNOWN_TERMS);
  pages = enrolmentPages(t, offer, { remoteAddress: () => '203.0.113.9' });
});
afterAll(async () => t?.close());

const enrolmentByCpf = (value: string) => t.db.selectFrom('matriculas').selectAll().where('cpf', '=', value).execute();
/** Opens "Minha matrícula" with the link queued in the outbox for `email`. */
const openMine = async (email: string) => (await pages.openMine(email)).cookie;

describe('the flow', () => {
  it('offers units, then plans, then the data form', async () => {
    const units = await t.app.inject('/matricula');
    expect(units.statusCode).toBe(200);
    expect(units.body).toContain(`/matricula?unidade=${offer.unitId}`);
    const plans = await t.app.inject(`/matricula?unidade=${offer.unitId}`);
    expect(plans.body).toContain('Escolha o plano');
    expect(plans.body).toContain(`plano=${offer.planId}`);
    const data = await t.app.inject(pages.flowUrl);
    expect(data.body).toContain('name="cpf"');
    expect(data.headers['cache-control']).toContain('no-store');
  });

  it('"Matricule-se" goes through the click counter to the flow at that unit and plan', async () => {
    const before = await t.db
      .selectFrom('cliques_cta')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    const res = await t.app.inject(`/ir/matricula?unidade=${offer.unitId}&plano=${offer.planId}`);
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/matricula?unidade=${offer.unitId}&plano=${offer.planId}`);
    const after = await t.db
      .selectFrom('cliques_cta')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(after!.n)).toBe(Number(before!.n) + 1);
  });

  it('refuses bad data with a message by each field, values kept, nothing stored', async () => {
    const { res } = await pages.summary({
      nome: 'M',
      cpf: '111.111.111-11',
      nascimento: '2030-01-01',
      email: 'x@',
      whatsapp: '12',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('CPF');
    expect(res.body).toContain('value="111.111.111-11"');
    expect(res.body).toContain('futuro');
    const n = await t.db
      .selectFrom('matriculas')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(n!.n)).toBe(0);
  });

  it('a minor needs a guardian, who accepts too', async () => {
    const year = new Date().getUTCFullYear() - 15;
    const { res } = await pages.summary(person({ nascimento: `${year}-01-15` }));
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('nome do responsável');
    const data = person({
      nascimento: `${year}-01-15`,
      responsavel_nome: 'João da Silva',
      responsavel_cpf: validCpf(),
    });
    const { post, summary: page } = await pages.accept(data);
    expect(page.body).toContain('responsável, li e aceito');
    const refused = await post();
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toContain('O responsável precisa marcar');
    expect(await enrolmentByCpf(data.cpf)).toHaveLength(0);
  });

  it('shows the summary box, stores the acceptance once and shows the Pix code', async () => {
    const data = person();
    const { post, summary: page } = await pages.accept(data);
    // The summary before acceptance (Decreto 7.962 art. 4): legal entity, breakdown, term, fine, withdrawal.
    expect(page.body).toMatch(/CNPJ \d{2}\.\d{3}\.\d{3}\/\d{4}-\d{2}/);
    expect(page.body).toContain('Taxa de matrícula: R$');
    expect(page.body).toContain('Fidelidade de 12 meses');
    expect(page.body).toContain('Como desistir');
    expect(page.body).toContain('CONTRATO DE PRESTAÇÃO');
    const [first, second] = await Promise.all([post(), post()]);
    expect(first.statusCode).toBe(303);
    expect(second.statusCode).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    const rows = await enrolmentByCpf(data.cpf);
    expect(rows).toHaveLength(1);
    const e = rows[0]!;
    expect(e.status).toBe('aguardando_pagamento');
    expect(e.primeiro_pagamento_centavos).toBe(12990 + 5000);
    expect(e.aceite_ip).toBe('203.0.113.9');
    expect(e.contrato_sha256).toBe(sha256Hex(e.contrato_texto));
    expect(e.contrato_texto).toContain(data.nome);
    const payments = await t.db
      .selectFrom('matriculas_pagamentos')
      .selectAll()
      .where('matricula_id', '=', e.id)
      .execute();
    expect(payments).toHaveLength(1);
    const status = await t.app.inject(first.headers.location as string);
    expect(status.statusCode).toBe(200);
    expect(status.body).toContain('Pix copia e cola');
    expect(status.body).toContain('demonstração');
    expect(status.body).toContain('54061');
    expect(status.body).toContain('179.90');
    expect(status.body).toContain('<svg');
    const mails = await t.db
      .selectFrom('fila_emails')
      .select(['assunto', 'texto'])
      .where('destinatario', '=', data.email)
      .execute();
    expect(mails).toHaveLength(1);
    expect(mails[0]!.texto).toContain('CONTRATO DE PRESTAÇÃO');
    expect(mails[0]!.texto).toContain('/matricula/minha/entrar?token=');
  });

  it('the offers consent keeps the version of the wording the data page showed, through the summary', async () => {
    const dataPage = await fetchForm(t.app, `/matricula${offer.query}`);
    expect(dataPage.res.body).toContain('Texto da autorização: versão 1');
    expect(hiddenValue(dataPage.res.body, 'versao_consentimento')).toBe('1');
    const data = person({ aceita_ofertas: 'sim', versao_consentimento: '1' });
    const { post, summary: page } = await pages.accept(data);
    expect(hiddenValue(page.body, 'versao_consentimento')).toBe('1');
    expect((await post()).statusCode).toBe(303);
    const e = (await enrolmentByCpf(data.cpf))[0]!;
    expect(e.aceita_marketing).toBe(1);
    const consents = await t.db
      .selectFrom('consentimentos')
      .select(['finalidade', 'versao', 'email'])
      .where('tabela', '=', 'matriculas')
      .where('registro_id', '=', e.id)
      .execute();
    expect(consents).toEqual([{ finalidade: 'matricula_ofertas', versao: 1, email: data.email }]);

    // Revoked (here as "Meus dados" does): the enrolment no longer holds the permission; another's stays.
    const other = person({ aceita_ofertas: 'sim', versao_consentimento: '1' });
    expect((await (await pages.accept(other)).post()).statusCode).toBe(303);
    expect(await revokeConsent(t.app.consents, { email: data.email.toUpperCase() })).toBe(1);
    expect((await enrolmentByCpf(data.cpf))[0]!.aceita_marketing).toBe(0);
    expect((await enrolmentByCpf(other.cpf))[0]!.aceita_marketing).toBe(1);
  });

  it('refuses a second enrolment of the same CPF at the unit with a clear message', async () => {
    const data = person();
    expect((await (await pages.accept(data)).post()).statusCode).toBe(303);
    const again = await pages.summary({ ...data, email: 'outro@exemplo.com.br' });
    expect(again.res.statusCode).toBe(422);
    expect(again.res.body).toContain('Já existe uma matrícula');
  });

  it('a contract or price changed after the summary shows it again instead of storing', async () => {
    const data = person();
    const { post } = await pages.accept(data);
    await setTerms(t.db, offer, { taxa_matricula_centavos: 6000 });
    try {
      const res = await post();
      expect(res.statusCode).toBe(422);
      expect(res.body).toContain('mudaram desde que esta página foi aberta');
      expect(await enrolmentByCpf(data.cpf)).toHaveLength(0);
    } finally {
      await setTerms(t.db, offer, { taxa_matricula_centavos: 5000 });
    }
  });
});

describe('after acceptance', () => {
  it('staff confirm the payment; the member withdraws within 7 days and the refund enters the queue', async () => {
    const data = person();
    const res = await (await pages.accept(data)).post();
    const [e] = await enrolmentByCpf(data.cpf);
    // Prices frozen: a later change does not touch the enrolment.
    await setTerms(t.db, offer, { mensalidade_centavos: 99990 });
    const staff = await staffSession(t);
    const detail = await t.app.inject({ url: `/admin/matriculas/${e!.id}`, headers: { cookie: staff.cookie } });
    expect(detail.statusCode).toBe(200);
    expect(detail.body).toContain(e!.contrato_sha256);
    const [payment] = await t.db
      .selectFrom('matriculas_pagamentos')
      .selectAll()
      .where('matricula_id', '=', e!.id)
      .execute();
    const confirm = await pages.press(confirmPath(e!.id, payment!.id), staff);
    expect(confirm.statusCode).toBe(303);
    expect(confirm.headers.location).toContain('ok=pagamento');
    const [active] = await enrolmentByCpf(data.cpf);
    expect(active!.status).toBe('ativa');
    expect(active!.mensalidade_centavos).toBe(12990);
    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'matricula')
      .where('entidade_id', '=', e!.id)
      .execute();
    expect(audit.map((a) => a.acao)).toContain('confirmar_pagamento');
    expect(audit[0]!.usuario_id).toBe(staff.id);
    expect((await t.app.inject(res.headers.location as string)).body).toContain('Ativa');

    const mine = await openMine(data.email);
    const panel = await fetchForm(t.app, '/matricula/minha/painel', 'csrf_token', mine);
    expect(panel.res.body).toContain('Desistir da matrícula');
    const withdraw = await pages.press(`/matricula/minha/${e!.codigo}/desistir`, panel);
    expect(withdraw.statusCode).toBe(303);
    const [gone] = await enrolmentByCpf(data.cpf);
    expect(gone!.status).toBe('desistencia');
    const refund = await t.db
      .selectFrom('matriculas_pagamentos')
      .selectAll()
      .where('matricula_id', '=', e!.id)
      .where('tipo', '=', 'reembolso')
      .executeTakeFirstOrThrow();
    expect(refund.valor_centavos).toBe(17990);
    expect(refund.status).toBe('pendente');
    expect(refund.prazo).not.toBeNull();
    const mails = await t.db
      .selectFrom('fila_emails')
      .select('assunto')
      .where('destinatario', '=', data.email)
      .execute();
    expect(mails.some((m) => m.assunto.startsWith('Desistência da matrícula confirmada'))).toBe(true);
    const list = await t.app.inject({ url: '/admin/matriculas', headers: { cookie: staff.cookie } });
    expect(list.body).toContain('Devoluções a fazer');
    const done = await pages.press(`/admin/matriculas/${e!.id}/pagamentos/${refund.id}/reembolso`, staff);
    expect(done.headers.location).toContain('ok=reembolso');
    await setTerms(t.db, offer, { mensalidade_centavos: 12990 });
  });

  it('after 7 days there is no "Desistir"; the cancellation shows the fine first and gives a protocol', async () => {
    const data = person();
    await (await pages.accept(data)).post();
    const [e] = await enrolmentByCpf(data.cpf);
    const staff = await staffSession(t);
    const [payment] = await t.db
      .selectFrom('matriculas_pagamentos')
      .selectAll()
      .where('matricula_id', '=', e!.id)
      .execute();
    await pages.press(confirmPath(e!.id, payment!.id), staff);
    // Accepted and activated 8 days ago.
    const past = new Date(Date.now() - 8 * 86_400_000).toISOString();
    await t.db.updateTable('matriculas').set({ aceito_em: past, ativada_em: past }).where('id', '=', e!.id).execute();
    const mine = await openMine(data.email);
    const panel = await t.app.inject({ url: '/matricula/minha/painel', headers: { cookie: mine } });
    expect(panel.body).not.toContain('Desistir da matrícula');
    expect(panel.body).toContain('Solicitar cancelamento');
    const confirm = await fetchForm(t.app, `/matricula/minha/${e!.codigo}/cancelar`, 'csrf_token', mine);
    const late = await pages.press(`/matricula/minha/${e!.codigo}/desistir`, confirm);
    expect(late.statusCode).toBe(409);
    // 12 months of term, one served: 11 left × R$ 129,90 × 10 % = R$ 142,89.
    expect(confirm.res.body).toContain('data-fine="14289"');
    const cancel = await pages.press(`/matricula/minha/${e!.codigo}/cancelar`, confirm);
    expect(cancel.statusCode).toBe(303);
    const [asked] = await enrolmentByCpf(data.cpf);
    expect(asked!.status).toBe('cancelamento_solicitado');
    expect(asked!.protocolo).toMatch(/^\d{14}$/);
    expect(asked!.multa_centavos).toBe(14289);
    // The job closes it at the end of the paid period.
    const later = new Date(`${asked!.cancelamento_efetivo_em}T15:00:00Z`);
    await t.app.enrolmentJobs.run(later);
    const [closed] = await enrolmentByCpf(data.cpf);
    expect(closed!.status).toBe('cancelada');
  });

  it('a manager of another unit cannot see the enrolment', async () => {
    const data = person();
    await (await pages.accept(data)).post();
    const [e] = await enrolmentByCpf(data.cpf);
    const other = await t.db
      .selectFrom('unidades')
      .select('id')
      .where('id', '!=', offer.unitId)
      .executeTakeFirstOrThrow();
    const manager = await staffSession(t, 'gerente', [other.id]);
    const res = await t.app.inject({ url: `/admin/matriculas/${e!.id}`, headers: { cookie: manager.cookie } });
    expect(res.statusCode).toBe(403);
    const list = await t.app.inject({ url: '/admin/matriculas', headers: { cookie: manager.cookie } });
    expect(list.body).not.toContain(data.nome + '</a>');
    // The staff menu leads managers to their units' list too.
    const home = await t.app.inject({ url: '/admin', headers: { cookie: manager.cookie } });
    expect(home.body).toContain('<a href="/admin/matriculas">Matrículas</a>');
  });

  it('an unpaid enrolment expires after its time', async () => {
    const data = person();
    await (await pages.accept(data)).post();
    const [e] = await enrolmentByCpf(data.cpf);
    await t.app.enrolmentJobs.run(new Date(Date.now() + 49 * 3_600_000));
    const [after] = await enrolmentByCpf(data.cpf);
    expect(after!.status).toBe('expirada');
    expect(e!.expira_em).not.toBeNull();
  });

  it('a Pix paid, then withdrawn before staff saw it: staff record it and its refund enters the queue', async () => {
    const data = person();
    await (await pages.accept(data)).post();
    const [e] = await enrolmentByCpf(data.cpf);
    const mine = await openMine(data.email);
    const panel = await fetchForm(t.app, '/matricula/minha/painel', 'csrf_token', mine);
    const withdraw = await pages.press(`/matricula/minha/${e!.codigo}/desistir`, panel);
    expect(withdraw.statusCode).toBe(303);
    const [withdrawn] = await mailsTo(t.db, data.email, 'Desistência%');
    expect(withdrawn!.texto).toContain('Se você já pagou o Pix, devolvemos o valor');
    const staff = await staffSession(t);
    const detail = await t.app.inject({ url: `/admin/matriculas/${e!.id}`, headers: { cookie: staff.cookie } });
    expect(detail.body).toContain('Pix recebido depois da desistência');
    const [payment] = await t.db
      .selectFrom('matriculas_pagamentos')
      .selectAll()
      .where('matricula_id', '=', e!.id)
      .execute();
    expect(payment!.status).toBe('cancelado');
    const post = () => pages.press(confirmPath(e!.id, payment!.id), staff);
    const [first, second] = await Promise.all([post(), post()]);
    expect([first.headers.location, second.headers.location].map((l) => String(l).split('ok=')[1]).sort()).toEqual([
      'nada',
      'pagamento',
    ]);
    const rows = await t.db
      .selectFrom('matriculas_pagamentos')
      .select(['tipo', 'status', 'valor_centavos', 'prazo'])
      .where('matricula_id', '=', e!.id)
      .orderBy('id')
      .execute();
    expect(rows.map((r) => [r.tipo, r.status, r.valor_centavos])).toEqual([
      ['primeiro', 'pago', 17990],
      ['reembolso', 'pendente', 17990],
    ]);
    expect(rows[1]!.prazo).not.toBeNull();
    const [after] = await enrolmentByCpf(data.cpf);
    expect(after!.status).toBe('desistencia');
    const mails = await mailsTo(t.db, data.email, 'Devolução do seu Pix%');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.texto).toMatch(/R\$\s179,90/);
    const list = await t.app.inject({ url: '/admin/matriculas', headers: { cookie: staff.cookie } });
    expect(list.body).toContain('Devoluções a fazer');
  });

  it('a late Pix of an expired enrolment activates it, unless the CPF enrolled there again (no 500)', async () => {
    const staff = await staffSession(t);
    const confirm = async (id: number) => {
      const [payment] = await t.db
        .selectFrom('matriculas_pagamentos')
        .selectAll()
        .where('matricula_id', '=', id)
        .execute();
      return pages.press(confirmPath(id, payment!.id), staff);
    };
    const expire = () => t.app.enrolmentJobs.run(new Date(Date.now() + 49 * 3_600_000));
    // Alone: the Pix seen late in the statement still activates it.
    const late = person();
    await (await pages.accept(late)).post();
    await expire();
    const [expired] = await enrolmentByCpf(late.cpf);
    expect((await confirm(expired!.id)).headers.location).toContain('ok=pagamento');
    expect((await enrolmentByCpf(late.cpf))[0]!.status).toBe('ativa');
    // Enrolled again meanwhile: the old one stays expired, its payment unconfirmed, the new one untouched.
    const again = person();
    await (await pages.accept(again)).post();
    await expire();
    await (await pages.accept(again)).post();
    const [old, current] = await enrolmentByCpf(again.cpf);
    const res = await confirm(old!.id);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toContain('ok=nada');
    const after = await enrolmentByCpf(again.cpf);
    expect(after.map((r) => r.status)).toEqual(['expirada', 'aguardando_pagamento']);
    expect(current!.status).toBe('aguardando_pagamento');
    const [payment] = await t.db
      .selectFrom('matriculas_pagamentos')
      .select('status')
      .where('matricula_id', '=', old!.id)
      .execute();
    expect(payment!.status).toBe('expirado');
  });
});

describe('the contract', () => {
  it('saving makes a new version; old versions stay readable; unknown placeholders are refused', async () => {
    const staff = await staffSession(t);
    const page = await fetchForm(t.app, '/admin/matriculas/contrato', 'csrf_token', staff.cookie);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/admin/matriculas/contrato',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, texto: `${'Cláusula. '.repeat(30)} {{desconhecido}}` }),
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('{{desconhecido}}');
    const ok = await t.app.inject({
      method: 'POST',
      url: '/admin/matriculas/contrato',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({
        csrf_token: page.token,
        texto: `Contrato da {{unidade}}, CNPJ {{cnpj}}. ${'Cláusula. '.repeat(30)}`,
      }),
    });
    expect(ok.statusCode).toBe(303);
    const v1 = await t.app.inject({ url: '/admin/matriculas/contrato/1', headers: { cookie: staff.cookie } });
    expect(v1.body).toContain('CONTRATO DE PRESTAÇÃO');
    const manager = await staffSession(t, 'gerente', [offer.unitId]);
    const refused = await t.app.inject({ url: '/admin/matriculas/contrato', headers: { cookie: manager.cookie } });
    expect(refused.statusCode).toBe(403);
  });
});

describe('production without a Pix key', () => {
  it('has no dead end: /matricula points to the trial class and WhatsApp, "Matricule-se" keeps WhatsApp', async () => {
    const p = await createTestApp({
      env: { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), BRAND_WHATSAPP: '(11) 99999-0000' },
    });
    try {
      const page = await p.app.inject('/matricula');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('/aula-experimental');
      expect(page.body).toContain('wa.me');
      const unit = await p.db.selectFrom('unidades').select('id').where('ativo', '=', 1).executeTakeFirstOrThrow();
      const cta = await p.app.inject(`/ir/matricula?unidade=${unit.id}`);
      expect(cta.headers.location).toContain('wa.me');
    } finally {
      await p.close();
    }
  });
});

// The staff home's attention queue: detractors with a comment not yet dealt with, messages
// unanswered for more than 48 hours, and online enrolments waiting for staff (a Pix first
// payment to confirm, a refund due within 2 days or overdue), per visible unit, oldest first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs } from '../helpers/staff';
import { enrolmentRow } from '../helpers/enrolment';

let t: TestContext;
let A: { id: number; nome: string };
let B: { id: number; nome: string };
let admin: string;
let managerA: string;
const ids: Record<string, number> = {};
const ago = (hours: number) => new Date(Date.now() - hours * 3_600_000).toISOString();

beforeAll(async () => {
  t = await createTestApp();
  const units = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(2)
    .execute();
  [A, B] = [units[0]!, units[1]!];
  const response = async (
    key: string,
    unidade_id: number,
    nota: number,
    comentario: string | null,
    hours: number,
    tratada = false,
  ) => {
    ids[key] = (
      await t.db
        .insertInto('respostas_nps')
        .values({
          unidade_id,
          nota_nps: nota,
          comentario,
          criado_em: ago(hours),
          nome_cliente: `Cliente ${key}`,
          contato_cliente: '11 99999-0000',
          tratada_em: tratada ? ago(1) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };
  const message = async (
    key: string,
    unidade_id: number,
    unidade: string,
    hours: number,
    status = 'nova',
    replied = false,
  ) => {
    const at = ago(hours);
    ids[key] = (
      await t.db
        .insertInto('fale_aqui')
        .values({
          unidade_id,
          unidade,
          nome_completo: `Pessoa ${key}`,
          mensagem: `Mensagem ${key}`,
          status,
          criado_em: at,
          atualizado_em: at,
          primeira_resposta_em: replied ? ago(1) : null,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  };
  await response('detA_old', A.id, 3, 'Aparelhos quebrados', 200);
  await response('detA_new', A.id, 6, 'Fila na recepção', 5);
  await response('detA_noComment', A.id, 2, null, 10);
  await response('detA_handled', A.id, 1, 'Resolvido já', 20, true);
  await response('promA', A.id, 10, 'Adoro', 10);
  await response('neutralA', A.id, 7, 'Ok', 10);
  await response('detA_ancient', A.id, 0, 'Muito antigo', 24 * 120);
  await response('detB', B.id, 4, 'Segredo da unidade B', 30);
  await message('msgA_old', A.id, A.nome, 72);
  await message('msgA_read', A.id, A.nome, 100, 'lida');
  await message('msgA_recent', A.id, A.nome, 24);
  await message('msgA_replied', A.id, A.nome, 96, 'respondida', true);
  await message('msgA_resolved', A.id, A.nome, 96, 'resolvida');
  await message('msgB', B.id, B.nome, 60);
  const adm = await createStaffUser(t.db, { papel: 'admin' });
  const ga = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [A.id] });
  admin = await loginAs(t.app, adm.email, adm.password);
  managerA = await loginAs(t.app, ga.email, ga.password);
});
afterAll(async () => t?.close());

const queueOf = (html: string) =>
  [...html.matchAll(/data-atencao="(detrator|mensagem|pagamento|reembolso)-(\d+)"/g)].map((m) => `${m[1]}-${m[2]}`);

describe('attention queue on the staff home', () => {
  it(`a manager sees only their unit's detractors with a comment and messages unanswered for 48 h, oldest \
first`, async () => {
    const res = await t.app.inject({ url: '/admin', headers: { cookie: managerA } });
    expect(res.statusCode).toBe(200);
    expect(queueOf(res.body)).toEqual([
      `detrator-${ids.detA_old}`,
      `mensagem-${ids.msgA_read}`,
      `mensagem-${ids.msgA_old}`,
      `detrator-${ids.detA_new}`,
    ]);
    expect(res.body).not.toContain('Segredo da unidade B');
    expect(res.body).toContain('Mensagem sem resposta há 3 dias');
  });

  it('an admin sees every unit, the unit with the oldest item first', async () => {
    const res = await t.app.inject({ url: '/admin', headers: { cookie: admin } });
    const q = queueOf(res.body);
    expect(q).toContain(`detrator-${ids.detB}`);
    expect(q).toContain(`mensagem-${ids.msgB}`);
    expect(res.body.indexOf(`Unidade ${A.nome}`)).toBeLessThan(res.body.indexOf(`Unidade ${B.nome}`));
  });

  it('a detractor marked as handled leaves the queue (who and when kept); other units 403', async () => {
    const page = await fetchForm(t.app, `/admin/pesquisa/resposta/${ids.detA_old}`, 'csrf_token', managerA);
    expect(page.res.body).toContain('Marcar como tratada');
    const post = (url: string, p: { cookie: string; token: string }) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { cookie: p.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: p.token }),
      });
    expect((await post(`/admin/pesquisa/resposta/${ids.detB}/tratada`, page)).statusCode).toBe(403);
    const ok = await post(`/admin/pesquisa/resposta/${ids.detA_old}/tratada`, page);
    expect(ok.statusCode).toBe(303);
    const row = await t.db
      .selectFrom('respostas_nps')
      .select(['tratada_em', 'tratada_por'])
      .where('id', '=', ids.detA_old!)
      .executeTakeFirstOrThrow();
    expect(row.tratada_em).not.toBeNull();
    expect(row.tratada_por).not.toBeNull();
    const res = await t.app.inject({ url: '/admin', headers: { cookie: managerA } });
    expect(queueOf(res.body)).not.toContain(`detrator-${ids.detA_old}`);
    const detail = await t.app.inject({
      url: `/admin/pesquisa/resposta/${ids.detA_old}`,
      headers: { cookie: managerA },
    });
    expect(detail.body).toContain('Tratada em');
  });

  it(`lists the enrolments waiting for staff: Pix payments to confirm and refunds near or past their deadline, \
linking to the enrolment`, async () => {
    const plan = (await t.db.selectFrom('planos').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    let n = 0;
    const enrolment = async (
      unit: { id: number; nome: string },
      status: 'aguardando_pagamento' | 'ativa',
      hours: number,
      provedor = 'pix',
    ) => {
      const at = ago(hours);
      return (
        await t.db
          .insertInto('matriculas')
          .values(
            enrolmentRow(
              {
                codigo: `atencao-${++n}`,
                unidade_id: unit.id,
                plano_id: plan,
                status,
                nome: `Aluna ${n}`,
                cpf: String(70000000000 + n),
                email: `aluna${n}@exemplo.com.br`,
                unidade_nome: unit.nome,
                provedor,
                expira_em: ago(hours - 48),
              },
              at,
            ),
          )
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    };
    /** A refund created `hours` ago, due 7 days after it (the withdrawal's rule). */
    const refund = async (matricula_id: number, hours: number, status = 'pendente') =>
      (
        await t.db
          .insertInto('matriculas_pagamentos')
          .values({
            matricula_id,
            tipo: 'reembolso',
            valor_centavos: 5000,
            status,
            provedor: 'pix',
            referencia: `MAT${matricula_id}R${++n}`,
            prazo: ago(hours - 7 * 24),
            criado_em: ago(hours),
            atualizado_em: ago(hours),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const payA = await enrolment(A, 'aguardando_pagamento', 30);
    const payOtherProvider = await enrolment(A, 'aguardando_pagamento', 30, 'outro');
    const payB = await enrolment(B, 'aguardando_pagamento', 20);
    const withdrawn = await enrolment(A, 'ativa', 24 * 10);
    const overdue = await refund(withdrawn, 24 * 8); // due a day ago
    const soon = await refund(withdrawn, 24 * 6); // due in a day
    const later = await refund(withdrawn, 24 * 2); // due in five days: not yet
    const made = await refund(withdrawn, 24 * 9, 'pago');

    const res = await t.app.inject({ url: '/admin', headers: { cookie: managerA } });
    expect(res.statusCode).toBe(200);
    const enrolmentItems = queueOf(res.body).filter((k) => /^(pagamento|reembolso)-/.test(k));
    // oldest first: the overdue refund, the one due soon, then the payment of 30 hours ago
    expect(enrolmentItems).toEqual([`reembolso-${overdue}`, `reembolso-${soon}`, `pagamento-${payA}`]);
    for (const absent of [
      `pagamento-${payOtherProvider}`,
      `pagamento-${payB}`,
      `reembolso-${later}`,
      `reembolso-${made}`,
    ])
      expect(res.body).not.toContain(`data-atencao="${absent}"`);
    expect(res.body).toContain(`href="/admin/matriculas/${payA}"`);
    expect(res.body).toContain(`href="/admin/matriculas/${withdrawn}"`);
    expect(res.body).toContain('Pagamento Pix a confirmar · R$\u00a099,90');
    expect(res.body).toContain('Devolução de R$\u00a050,00 atrasada');
    expect(res.body).toContain('Devolução de R$\u00a050,00 perto do prazo');
    // the link opens the enrolment for the unit's manager
    expect((await t.app.inject({ url: `/admin/matriculas/${payA}`, headers: { cookie: managerA } })).statusCode).toBe(
      200,
    );

    // an admin sees the other unit's payment too
    const all = await t.app.inject({ url: '/admin', headers: { cookie: admin } });
    expect(queueOf(all.body)).toContain(`pagamento-${payB}`);
  });

  it('the staff home needs a login', async () => {
    expect((await t.app.inject({ url: '/admin' })).statusCode).toBe(303);
  });
});

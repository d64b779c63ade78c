// Online enrolment under concurrency, with two instances of the app on one database (as
// behind a load balancer), on SQLite and on PostgreSQL: the same acceptance posted several
// times at once (a double click, one envio_id) is one enrolment; two different acceptances of
// one CPF at one unit at once are one enrolment and one "já existe" by the CPF; staff
// confirming the same Pix twice at once activate once (one mail, one webhook event); the
// person withdrawing twice at once, or while staff confirm, ends in one state. Never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';
import { validCpf } from '../helpers/cpf';
import { cookiesFrom, fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let other: App;
let unitId: number;
let planId: number;
let ip = 0;
const nextIp = () => `10.79.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({
    env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: '2', SMTP_SECURE: 'none', PUBLIC_URL: 'https://www.exemplo.com.br' },
  });
  other = await secondInstance(t);
  const offer = await t.db
    .selectFrom('planos_unidades as pu')
    .innerJoin('unidades as u', 'u.id', 'pu.unidade_id')
    .select(['pu.unidade_id', 'pu.plano_id'])
    .where('pu.venda_online', '=', 1)
    .where('u.ativo', '=', 1)
    .where('u.cnpj', 'is not', null)
    .orderBy('pu.unidade_id')
    .executeTakeFirstOrThrow();
  unitId = offer.unidade_id;
  planId = offer.plano_id;
  const at = new Date().toISOString();
  await t.db
    .insertInto('webhook_endpoints')
    .values({
      url: 'https://hooks.exemplo.com.br/matriculas',
      segredo: 'x'.repeat(40),
      eventos: ',matricula.criada,matricula.ativada,matricula.cancelada,',
      ativo: 1,
      criado_em: at,
      atualizado_em: at,
    })
    .execute();
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** The app a request goes to: alternately one instance and the other. */
const instance = (i: number): App => (i % 2 === 0 ? t.app : other);
const flowQuery = () => `?unidade=${unitId}&plano=${planId}`;

const person = (over: Record<string, string> = {}) => {
  const cpf = validCpf(300_000_000);
  return {
    nome: 'Ana Concorrente',
    cpf,
    nascimento: '1988-03-04',
    email: `ana.${cpf}@exemplo.com.br`,
    whatsapp: '(11) 98765-4321',
    ...over,
  };
};

function hidden(html: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** The summary of `data` as one browser tab sees it: the fields its acceptance posts, with its cookie. */
async function summaryTab(data: Record<string, string>) {
  const page = await fetchForm(t.app, `/matricula${flowQuery()}`);
  const envio = hidden(page.res.body, 'envio_id');
  const summary = await t.app.inject({
    method: 'POST',
    url: `/matricula/resumo${flowQuery()}`,
    remoteAddress: nextIp(),
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({ csrf_token: page.token, envio_id: envio, ...data }),
  });
  expect(summary.statusCode).toBe(200);
  const fields = {
    csrf_token: page.token,
    envio_id: envio,
    ...data,
    contrato_versao: hidden(summary.body, 'contrato_versao'),
    contrato_sha256: hidden(summary.body, 'contrato_sha256'),
    aceite: 'sim',
  };
  return {
    post: (app: App) =>
      app.inject({
        method: 'POST',
        url: `/matricula${flowQuery()}`,
        remoteAddress: nextIp(),
        headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form(fields),
      }),
  };
}

const count = async (table: 'matriculas' | 'fila_emails' | 'webhook_entregas', where: [string, string][]) => {
  let q = t.db.selectFrom(table).select((eb) => eb.fn.countAll<number>().as('n'));
  for (const [column, value] of where) q = q.where(column as never, '=', value as never);
  return Number((await q.executeTakeFirstOrThrow()).n);
};
const enrolmentsOf = (cpf: string) => t.db.selectFrom('matriculas').selectAll().where('cpf', '=', cpf).execute();
const eventsOf = async (type: string, id: number) =>
  (
    await t.db
      .selectFrom('webhook_entregas')
      .select('payload_json')
      .where('evento', '=', type)
      .where('origem', '=', `matricula:${id}`)
      .execute()
  ).length;

async function staff() {
  const u = await createStaffUser(t.db, { papel: 'admin' });
  const cookie = await loginAs(t.app, u.email, u.password);
  return { cookie, token: await staffToken(t.app, cookie, '/admin/matriculas') };
}

/** An enrolment accepted (aguardando_pagamento), its first payment, and its owner's data. */
async function accepted() {
  const data = person();
  const res = await (await summaryTab(data)).post(t.app);
  expect(res.statusCode).toBe(303);
  const [e] = await enrolmentsOf(data.cpf);
  const payment = await t.db
    .selectFrom('matriculas_pagamentos')
    .selectAll()
    .where('matricula_id', '=', e!.id)
    .where('tipo', '=', 'primeiro')
    .executeTakeFirstOrThrow();
  return { data, e: e!, payment };
}

describe('two instances, requests at the same moment', () => {
  it('the same acceptance posted six times at once (one envio_id) → one enrolment, one mail, one event', async () => {
    const data = person();
    const tab = await summaryTab(data);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => tab.post(instance(i))));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(6).fill(303));
    expect(new Set(answers.map((a) => a.headers.location)).size).toBe(1);
    const rows = await enrolmentsOf(data.cpf);
    expect(rows).toHaveLength(1);
    expect(answers[0]!.headers.location).toBe(`/matricula/${rows[0]!.codigo}`);
    const payments = await t.db
      .selectFrom('matriculas_pagamentos')
      .select('id')
      .where('matricula_id', '=', rows[0]!.id)
      .execute();
    expect(payments).toHaveLength(1);
    expect(await count('fila_emails', [['destinatario', data.email]])).toBe(1);
    expect(await eventsOf('matricula.criada', rows[0]!.id)).toBe(1);
  });

  it('four different acceptances of one CPF at one unit at once → one enrolment, the others "já existe"', async () => {
    const data = person();
    // Four tabs, each its own envio_id and e-mail: four different submissions of the same CPF.
    const tabs = await Promise.all(
      [0, 1, 2, 3].map((i) => summaryTab({ ...data, email: `aba${i}.${data.cpf}@exemplo.com.br` })),
    );
    const answers = await Promise.all(tabs.map((tab, i) => tab.post(instance(i))));
    const codes = answers.map((a) => a.statusCode).sort();
    expect(codes).toEqual([303, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.statusCode === 422)) {
      expect(refused.body).toContain('Já existe uma matrícula');
      // By the CPF field, on the data form again with the values kept.
      expect(refused.body).toMatch(/id="cpf"[^>]*aria-invalid="true"/);
      expect(refused.body).toContain('value="Ana Concorrente"');
    }
    const rows = await enrolmentsOf(data.cpf);
    expect(rows).toHaveLength(1);
    expect(await eventsOf('matricula.criada', rows[0]!.id)).toBe(1);
    const mails = await t.db
      .selectFrom('fila_emails')
      .select('destinatario')
      .where('destinatario', 'like', `aba%.${data.cpf}@exemplo.com.br`)
      .execute();
    expect(mails.map((m) => m.destinatario)).toEqual([rows[0]!.email]);
  });

  it('staff confirming the same Pix twice at once → one activation, one mail, one event, one audit row', async () => {
    const { data, e, payment } = await accepted();
    const s = await staff();
    const confirm = (app: App) =>
      app.inject({
        method: 'POST',
        url: `/admin/matriculas/${e.id}/pagamentos/${payment.id}/confirmar`,
        headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: s.token }),
      });
    const answers = await Promise.all([confirm(t.app), confirm(other), confirm(t.app), confirm(other)]);
    expect(answers.map((a) => a.statusCode)).toEqual([303, 303, 303, 303]);
    const notices = answers.map((a) => String(a.headers.location).split('ok=')[1]).sort();
    expect(notices).toEqual(['nada', 'nada', 'nada', 'pagamento']);
    const [active] = await enrolmentsOf(data.cpf);
    expect(active!.status).toBe('ativa');
    const activated = await t.db
      .selectFrom('matriculas_historico')
      .select('id')
      .where('matricula_id', '=', e.id)
      .where('para', '=', 'ativa')
      .execute();
    expect(activated).toHaveLength(1);
    const mails = await t.db
      .selectFrom('fila_emails')
      .select('assunto')
      .where('destinatario', '=', data.email)
      .where('assunto', 'like', 'Matrícula ativa%')
      .execute();
    expect(mails).toHaveLength(1);
    expect(await eventsOf('matricula.ativada', e.id)).toBe(1);
    const audit = await t.db
      .selectFrom('auditoria')
      .select('id')
      .where('entidade', '=', 'matricula')
      .where('entidade_id', '=', e.id)
      .where('acao', '=', 'confirmar_pagamento')
      .execute();
    expect(audit).toHaveLength(1);
  });

  /** Opens "Minha matrícula" for `email` with the link of its acceptance mail. */
  async function mine(email: string) {
    const mail = await t.db
      .selectFrom('fila_emails')
      .select('texto')
      .where('destinatario', '=', email)
      .where('texto', 'like', '%entrar?token=%')
      .executeTakeFirstOrThrow();
    const token = /entrar\?token=([A-Za-z0-9_-]+)/.exec(mail.texto)![1]!;
    const page = await fetchForm(t.app, `/matricula/minha/entrar?token=${token}`);
    const enter = await t.app.inject({
      method: 'POST',
      url: '/matricula/minha/entrar',
      remoteAddress: nextIp(),
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, token }),
    });
    expect(enter.statusCode).toBe(303);
    return { cookie: cookiesFrom(enter, page.cookie), token: page.token };
  }

  it('"Desistir" clicked twice at once on an active enrolment → one withdrawal, one refund, one mail', async () => {
    const { data, e, payment } = await accepted();
    const s = await staff();
    await t.app.inject({
      method: 'POST',
      url: `/admin/matriculas/${e.id}/pagamentos/${payment.id}/confirmar`,
      headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: s.token }),
    });
    const session = await mine(data.email);
    const withdraw = (app: App) =>
      app.inject({
        method: 'POST',
        url: `/matricula/minha/${e.codigo}/desistir`,
        remoteAddress: nextIp(),
        headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: form({ csrf_token: session.token }),
      });
    const answers = await Promise.all([withdraw(t.app), withdraw(other)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, 409]);
    const refunds = await t.db
      .selectFrom('matriculas_pagamentos')
      .select('valor_centavos')
      .where('matricula_id', '=', e.id)
      .where('tipo', '=', 'reembolso')
      .execute();
    expect(refunds).toEqual([{ valor_centavos: payment.valor_centavos }]);
    const mails = await t.db
      .selectFrom('fila_emails')
      .select('id')
      .where('destinatario', '=', data.email)
      .where('assunto', 'like', 'Desistência%')
      .execute();
    expect(mails).toHaveLength(1);
    expect(await eventsOf('matricula.cancelada', e.id)).toBe(1);
  });

  it('the person withdraws while staff confirm the Pix: no 5xx, and what was paid is refunded', async () => {
    for (let round = 0; round < 4; round++) {
      const { data, e, payment } = await accepted();
      const s = await staff();
      const session = await mine(data.email);
      const [withdrawn, confirmed] = await Promise.all([
        instance(round).inject({
          method: 'POST',
          url: `/matricula/minha/${e.codigo}/desistir`,
          remoteAddress: nextIp(),
          headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: form({ csrf_token: session.token }),
        }),
        instance(round + 1).inject({
          method: 'POST',
          url: `/admin/matriculas/${e.id}/pagamentos/${payment.id}/confirmar`,
          headers: { cookie: s.cookie, 'content-type': 'application/x-www-form-urlencoded' },
          payload: form({ csrf_token: s.token }),
        }),
      ]);
      expect(withdrawn.statusCode, withdrawn.body.slice(0, 200)).toBe(303);
      expect(confirmed.statusCode, confirmed.body.slice(0, 200)).toBe(303);
      const [after] = await enrolmentsOf(data.cpf);
      expect(after!.status).toBe('desistencia');
      const payments = await t.db
        .selectFrom('matriculas_pagamentos')
        .select(['tipo', 'status', 'valor_centavos'])
        .where('matricula_id', '=', e.id)
        .orderBy('id')
        .execute();
      const first = payments.find((p) => p.tipo === 'primeiro')!;
      const refund = payments.find((p) => p.tipo === 'reembolso');
      // Confirmed first: the withdrawal refunds it. Withdrawn first: the payment is called off, nothing to refund.
      if (first.status === 'pago') expect(refund?.valor_centavos).toBe(payment.valor_centavos);
      else expect(refund).toBeUndefined();
    }
  });
});

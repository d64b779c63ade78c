// Online enrolment under concurrency, with two instances of the app on one database (as
// behind a load balancer), on SQLite and on PostgreSQL: the same acceptance posted several
// times at once (a double click, one envio_id) is one enrolment; two different acceptances of
// one CPF at one unit at once are one enrolment and one "já existe" by the CPF; staff
// confirming the same Pix twice at once activate once (one mail, one webhook event); the
// person withdrawing twice at once, or while staff confirm, ends in one state. Never a 5xx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';
import {
  addEnrolmentWebhook,
  addressSeries,
  confirmPath,
  ENROLMENT_ENV,
  enrolmentAudit,
  enrolmentPages,
  mailsTo,
  onlineOffer,
  person as newPerson,
  staffSession,
} from '../helpers/enrolment';

let t: TestContext;
let other: App;
let pages: ReturnType<typeof enrolmentPages>;
const nextIp = addressSeries('10.79');

beforeAll(async () => {
  t = await createTestApp({ env: ENROLMENT_ENV });
  other = await secondInstance(t);
  pages = enrolmentPages(t, await onlineOffer(t.db), { remoteAddress: nextIp });
  await addEnrolmentWebhook(t.db);
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

/** The app a request goes to: alternately one instance and the other. */
const instance = (i: number): App => (i % 2 === 0 ? t.app : other);

const person = (over: Record<string, string> = {}) =>
  newPerson({ nome: 'Ana Concorrente', nascimento: '1988-03-04', ...over }, { cpfStart: 300_000_000, mailbox: 'ana' });

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

/** An enrolment accepted (aguardando_pagamento), its first payment, and its owner's data. */
async function accepted() {
  const data = person();
  const e = await pages.enrol(data);
  const payment = await t.db
    .selectFrom('matriculas_pagamentos')
    .selectAll()
    .where('matricula_id', '=', e.id)
    .where('tipo', '=', 'primeiro')
    .executeTakeFirstOrThrow();
  return { data, e, payment };
}

describe('two instances, requests at the same moment', () => {
  it('the same acceptance posted six times at once (one envio_id) → one enrolment, one mail, one event', async () => {
    const data = person();
    const tab = await pages.accept(data);
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => tab.post({ app: instance(i) })));
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
      [0, 1, 2, 3].map((i) => pages.accept({ ...data, email: `aba${i}.${data.cpf}@exemplo.com.br` })),
    );
    const answers = await Promise.all(tabs.map((tab, i) => tab.post({ app: instance(i) })));
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
    const s = await staffSession(t);
    const confirm = (app: App) => pages.press(confirmPath(e.id, payment.id), s, app);
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
    const mails = await mailsTo(t.db, data.email, 'Matrícula ativa%');
    expect(mails).toHaveLength(1);
    expect(await eventsOf('matricula.ativada', e.id)).toBe(1);
    const audit = await enrolmentAudit(t.db, e.id, 'confirmar_pagamento');
    expect(audit).toHaveLength(1);
  });

  it('"Desistir" clicked twice at once on an active enrolment → one withdrawal, one refund, one mail', async () => {
    const { data, e, payment } = await accepted();
    const s = await staffSession(t);
    await pages.press(confirmPath(e.id, payment.id), s);
    const session = await pages.openMine(data.email);
    const withdraw = (app: App) => pages.press(`/matricula/minha/${e.codigo}/desistir`, session, app);
    const answers = await Promise.all([withdraw(t.app), withdraw(other)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([303, 409]);
    const refunds = await t.db
      .selectFrom('matriculas_pagamentos')
      .select('valor_centavos')
      .where('matricula_id', '=', e.id)
      .where('tipo', '=', 'reembolso')
      .execute();
    expect(refunds).toEqual([{ valor_centavos: payment.valor_centavos }]);
    const mails = await mailsTo(t.db, data.email, 'Desistência%');
    expect(mails).toHaveLength(1);
    expect(await eventsOf('matricula.cancelada', e.id)).toBe(1);
  });

  it('the person withdraws while staff confirm the Pix: no 5xx, and what was paid is refunded', async () => {
    for (let round = 0; round < 4; round++) {
      const { data, e, payment } = await accepted();
      const s = await staffSession(t);
      const session = await pages.openMine(data.email);
      const [withdrawn, confirmed] = await Promise.all([
        pages.press(`/matricula/minha/${e.codigo}/desistir`, session, instance(round)),
        pages.press(confirmPath(e.id, payment.id), s, instance(round + 1)),
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

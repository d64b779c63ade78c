// ASAAS_PIX_AUTOMATICO=true against the fake Asaas, on SQLite and on PostgreSQL: the first
// payment's page shows the immediate QR code of a Pix Automático authorization (journey 3);
// paying it activates the enrolment and the authorization's own subscription bills the months
// (never a second one); a lost webhook is recovered by the reconciliation; choosing the card
// calls the QR code off first; the payer cancelling in the bank moves the months to an
// ordinary subscription, the old one removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createTestApp, type TestContext } from '../helpers/app';
import { validCpf } from '../helpers/cpf';
import { startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas';
import { fetchForm, form } from '../helpers/http';

let t: TestContext;
let fake: FakeAsaas;
let unitId: number;
let planId: number;

beforeAll(async () => {
  fake = await startFakeAsaas();
  t = await createTestApp({
    env: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2',
      SMTP_SECURE: 'none',
      PUBLIC_URL: 'https://www.exemplo.com.br',
      PAYMENT_PROVIDER: 'asaas',
      ASAAS_API_URL: fake.url,
      ASAAS_API_KEY: fake.apiKey,
      ASAAS_WEBHOOK_TOKEN: fake.webhookToken,
      ASAAS_TIMEOUT_MS: '400',
      ASAAS_PIX_AUTOMATICO: 'true',
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  fake.setWebhookTargets([`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webhooks/asaas`]);
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
  await t.db
    .updateTable('planos_unidades')
    .set({ mensalidade_centavos: 12990, taxa_matricula_centavos: 5000, taxa_anual_centavos: 0, taxa_anual_mes: null })
    .where('unidade_id', '=', unitId)
    .where('plano_id', '=', planId)
    .execute();
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const flowUrl = () => `/matricula?unidade=${unitId}&plano=${planId}`;
const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? '';

let seq = 0;
/** Accepts an enrolment through the pages; its row. */
async function enrol() {
  seq++;
  const data = {
    nome: `Pessoa Asaas ${seq}`,
    cpf: validCpf(654_000_000),
    nascimento: '1990-05-10',
    email: `automatico${seq}@exemplo.com.br`,
    whatsapp: '(11) 98765-4321',
  };
  const page = await fetchForm(t.app, flowUrl());
  const envio = hidden(page.res.body, 'envio_id');
  const headers = { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' };
  const summary = await t.app.inject({
    method: 'POST',
    url: `/matricula/resumo?unidade=${unitId}&plano=${planId}`,
    headers,
    payload: form({ csrf_token: page.token, envio_id: envio, ...data }),
  });
  expect(summary.statusCode).toBe(200);
  const res = await t.app.inject({
    method: 'POST',
    url: flowUrl(),
    headers,
    payload: form({
      csrf_token: page.token,
      envio_id: envio,
      ...data,
      aceite: 'sim',
      contrato_versao: hidden(summary.body, 'contrato_versao'),
      contrato_sha256: hidden(summary.body, 'contrato_sha256'),
    }),
  });
  expect(res.statusCode).toBe(303);
  return t.db.selectFrom('matriculas').selectAll().where('cpf', '=', data.cpf).executeTakeFirstOrThrow();
}

const enrolment = (id: number) =>
  t.db.selectFrom('matriculas').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const payments = (id: number) =>
  t.db.selectFrom('matriculas_pagamentos').selectAll().where('matricula_id', '=', id).orderBy('id').execute();
const chargesOf = (reference: string) =>
  [...fake.state.payments.values()].filter((p) => p.externalReference === reference && !p.deleted);

/** Webhooks delivered, then the stored events processed. */
async function settle(now?: Date) {
  await fake.webhooks.flush();
  while ((await t.app.paymentJobs!.processEvents(now)).claimed > 0);
}

/** The authorization of an enrolment's first payment at the fake. */
const authorizationOf = (id: number) =>
  [...fake.state.authorizations.values()].find((a) => a.contractId === `MAT${id}P1`);
const subscriptionsOf = (customer: string) =>
  [...fake.state.subscriptions.values()].filter((s) => s.customer === customer && !s.deleted);

describe('Pix Automático (journey 3)', () => {
  it('the QR code authorises the months; paying it activates, and its subscription is the only one', async () => {
    const e = await enrol();
    const page = await t.app.inject(`/matricula/${e.codigo}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-pix-automatico');
    expect(page.body).toContain('/cartao');
    const auth = authorizationOf(e.id);
    expect(auth).toMatchObject({
      status: 'CREATED',
      frequency: 'MONTHLY',
      value: 129.9,
      paymentCreationMode: 'SUBSCRIPTION',
    });
    expect(auth.immediateQrCode.originalValue).toBe(179.9);
    expect(page.body).toContain(auth.immediateQrCode.payload);
    // Another view finds the same authorization.
    await t.app.inject(`/matricula/${e.codigo}`);
    expect([...fake.state.authorizations.values()].filter((a) => a.contractId === `MAT${e.id}P1`)).toHaveLength(1);

    await fake.pixAutomatic.pay(auth.id);
    await settle();
    const active = await enrolment(e.id);
    expect(active.status).toBe('ativa');
    expect(active.assinatura_provedor_id).toBe(auth.subscriptionId);
    expect(subscriptionsOf(auth.customerId)).toHaveLength(1);
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    expect(subscriptionsOf(auth.customerId)).toHaveLength(1);
    // A month debited by Pix Automático extends the paid period.
    const month = await fake.renew(auth.subscriptionId);
    await settle();
    const renewal = (await payments(e.id)).find((p) => p.provedor_id === month)!;
    expect(renewal).toMatchObject({ tipo: 'mensalidade', status: 'pago' });
    expect((await enrolment(e.id)).pago_ate! > active.pago_ate!).toBe(true);

    // The payer cancels in the bank: its subscription goes, an ordinary one bills the months.
    await fake.pixAutomatic.cancelByPayer(auth.id);
    await settle();
    expect((await enrolment(e.id)).assinatura_provedor_id).toBeNull();
    expect(fake.state.subscriptions.get(auth.subscriptionId).deleted).toBe(true);
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    const now = subscriptionsOf(auth.customerId);
    expect(now).toHaveLength(1);
    expect(now[0].externalReference).toBe(e.codigo);
    expect((await enrolment(e.id)).assinatura_provedor_id).toBe(now[0].id);
  });

  it('a lost webhook of the QR payment is recovered by the reconciliation', async () => {
    const e = await enrol();
    await t.app.inject(`/matricula/${e.codigo}`);
    const auth = authorizationOf(e.id);
    // Every event of the payment: the payment made and received, the month made, the authorization active.
    fake.webhooks.lose(4);
    await fake.pixAutomatic.pay(auth.id);
    await settle();
    expect((await enrolment(e.id)).status).toBe('aguardando_pagamento');
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    const active = await enrolment(e.id);
    expect(active.status).toBe('ativa');
    expect(active.assinatura_provedor_id).toBe(auth.subscriptionId);
    expect(subscriptionsOf(auth.customerId)).toHaveLength(1);
  });

  it('choosing the card calls the QR code off first; the card pays and bills the months', async () => {
    const e = await enrol();
    const page = await fetchForm(t.app, `/matricula/${e.codigo}`);
    const auth = authorizationOf(e.id);
    const res = await t.app.inject({
      method: 'POST',
      url: `/matricula/${e.codigo}/cartao`,
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token }),
    });
    expect(res.statusCode).toBe(303);
    const charge = chargesOf(`MAT${e.id}P1`)[0];
    expect(res.headers.location).toBe(charge.invoiceUrl);
    expect(fake.state.authorizations.get(auth.id).status).toBe('CANCELLED');
    await fake.pay(charge.id, { billingType: 'CREDIT_CARD' });
    await settle();
    const active = await enrolment(e.id);
    expect(active.status).toBe('ativa');
    const subs = subscriptionsOf(charge.customer).filter((s) => s.externalReference === e.codigo);
    expect(subs).toHaveLength(1);
    expect(subs[0].billingType).toBe('CREDIT_CARD');
    expect(active.assinatura_provedor_id).toBe(subs[0].id);
  });
});

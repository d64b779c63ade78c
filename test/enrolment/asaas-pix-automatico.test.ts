// ASAAS_PIX_AUTOMATICO=true against the fake Asaas, on SQLite and on PostgreSQL: the first
// payment's page shows the immediate QR code of a Pix Automático authorization (journey 3);
// paying it activates the enrolment and the authorization's own subscription bills the months
// (never a second one); a lost webhook is recovered by the reconciliation; choosing the card
// calls the QR code off first; the payer cancelling in the bank moves the months to an
// ordinary subscription, the old one removed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestContext } from '../helpers/app';
import { asaasFlow, asaasTestApp, KNOWN_PRICES, onlineOffer } from '../helpers/enrolment';
import { startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas';
import { fetchForm } from '../helpers/http';

let t: TestContext;
let fake: FakeAsaas;
let asaas: ReturnType<typeof asaasFlow>;

beforeAll(async () => {
  fake = await startFakeAsaas();
  t = await asaasTestApp(fake, { ASAAS_PIX_AUTOMATICO: 'true' });
  asaas = asaasFlow(t, fake, await onlineOffer(t.db, KNOWN_PRICES), { cpfStart: 654_000_000, mailbox: 'automatico' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

/** The authorization of an enrolment's first payment at the fake. */
const authorizationOf = (id: number) =>
  [...fake.state.authorizations.values()].find((a) => a.contractId === `MAT${id}P1`);
const subscriptionsOf = (customer: string) =>
  [...fake.state.subscriptions.values()].filter((s) => s.customer === customer && !s.deleted);

describe('Pix Automático (journey 3)', () => {
  it('the QR code authorises the months; paying it activates, and its subscription is the only one', async () => {
    const e = await asaas.enrol();
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
    await asaas.settle();
    const active = await asaas.enrolment(e.id);
    expect(active.status).toBe('ativa');
    expect(active.assinatura_provedor_id).toBe(auth.subscriptionId);
    expect(subscriptionsOf(auth.customerId)).toHaveLength(1);
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    expect(subscriptionsOf(auth.customerId)).toHaveLength(1);
    // A month debited by Pix Automático extends the paid period.
    const month = await fake.renew(auth.subscriptionId);
    await asaas.settle();
    const renewal = (await asaas.payments(e.id)).find((p) => p.provedor_id === month)!;
    expect(renewal).toMatchObject({ tipo: 'mensalidade', status: 'pago' });
    expect((await asaas.enrolment(e.id)).pago_ate! > active.pago_ate!).toBe(true);

    // The payer cancels in the bank: its subscription goes, an ordinary one bills the months.
    await fake.pixAutomatic.cancelByPayer(auth.id);
    await asaas.settle();
    expect((await asaas.enrolment(e.id)).assinatura_provedor_id).toBeNull();
    expect(fake.state.subscriptions.get(auth.subscriptionId).deleted).toBe(true);
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    const now = subscriptionsOf(auth.customerId);
    expect(now).toHaveLength(1);
    expect(now[0].externalReference).toBe(e.codigo);
    expect((await asaas.enrolment(e.id)).assinatura_provedor_id).toBe(now[0].id);
  });

  it('a lost webhook of the QR payment is recovered by the reconciliation', async () => {
    const e = await asaas.enrol();
    await t.app.inject(`/matricula/${e.codigo}`);
    const auth = authorizationOf(e.id);
    // Every event of the payment: the payment made and received, the month made, the authorization active.
    fake.webhooks.lose(4);
    await fake.pixAutomatic.pay(auth.id);
    await asaas.settle();
    expect((await asaas.enrolment(e.id)).status).toBe('aguardando_pagamento');
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    const active = await asaas.enrolment(e.id);
    expect(active.status).toBe('ativa');
    expect(active.assinatura_provedor_id).toBe(auth.subscriptionId);
    expect(subscriptionsOf(auth.customerId)).toHaveLength(1);
  });

  it('choosing the card calls the QR code off first; the card pays and bills the months', async () => {
    const e = await asaas.enrol();
    const page = await fetchForm(t.app, `/matricula/${e.codigo}`);
    const auth = authorizationOf(e.id);
    const res = await asaas.pages.press(`/matricula/${e.codigo}/cartao`, page);
    expect(res.statusCode).toBe(303);
    const charge = asaas.chargesOf(`MAT${e.id}P1`)[0];
    expect(res.headers.location).toBe(charge.invoiceUrl);
    expect(fake.state.authorizations.get(auth.id).status).toBe('CANCELLED');
    await fake.pay(charge.id, { billingType: 'CREDIT_CARD' });
    await asaas.settle();
    const active = await asaas.enrolment(e.id);
    expect(active.status).toBe('ativa');
    const subs = subscriptionsOf(charge.customer).filter((s) => s.externalReference === e.codigo);
    expect(subs).toHaveLength(1);
    expect(subs[0].billingType).toBe('CREDIT_CARD');
    expect(active.assinatura_provedor_id).toBe(subs[0].id);
  });
});

// The fake Asaas the payment tests run against: its API answers as Asaas's reference says, its
// webhooks reach a real receiver with the token, and each fault it offers really happens (a 500,
// a 429 with Retry-After, a call never answered, a create applied but never answered, events lost,
// doubled, held and sent out of order). No database: it runs the same on both projects.
import jsQR from 'jsqr';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAsaas, startFakeAsaas } from '../helpers/fake-asaas';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver';

let fake: FakeAsaas;
let receiver: TestReceiver;

const CPF = '529.982.247-25';
const spToday = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());

async function call(method: string, path: string, body?: unknown, key: string | null = fake.apiKey) {
  const res = await fetch(`${fake.url}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(key === null ? {} : { access_token: key }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

/** What the receiver got, parsed, in arrival order. */
const received = () =>
  receiver.requests.map((r) => ({ token: r.headers['asaas-access-token'], ...JSON.parse(r.body) }));

let customerId: string;
async function charge(extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/payments', {
    customer: customerId,
    billingType: 'UNDEFINED',
    value: 99.9,
    dueDate: spToday(),
    description: 'Matrícula',
    externalReference: `mat-${Math.random().toString(36).slice(2)}`,
    ...extra,
  });
  expect(res.status).toBe(200);
  return res.body;
}

beforeAll(async () => {
  fake = await startFakeAsaas({ webhookBackoffMs: 5 });
  receiver = await startReceiver();
  fake.setWebhookTargets([receiver.url]);
  const c = await call('POST', '/customers', { name: 'Ana Souza', cpfCnpj: CPF, email: 'ana@example.com' });
  customerId = c.body.id;
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
});
beforeEach(async () => {
  await fake.webhooks.flush();
  receiver.requests.length = 0;
  receiver.answer = () => ({ status: 200 });
});

describe('fake Asaas: API', () => {
  it('answers 401 without the key or with a wrong one, and keeps every call', async () => {
    const none = await call('GET', '/customers', undefined, null);
    const wrong = await call('GET', '/customers', undefined, 'nope');
    expect(none.status).toBe(401);
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0].code).toBe('invalid_access_token');
    expect(fake.calls.slice(-2).map((c) => [c.method, c.path, c.status])).toEqual([
      ['GET', '/customers', 401],
      ['GET', '/customers', 401],
    ]);
  });

  it('creates a customer (name and a valid CPF required) and finds it by CPF, formatted or not', async () => {
    const noName = await call('POST', '/customers', { cpfCnpj: CPF });
    expect(noName.status).toBe(400);
    expect(noName.body.errors[0]).toMatchObject({ code: 'invalid_name' });
    expect((await call('POST', '/customers', { name: 'X' })).body.errors[0].code).toBe('invalid_cpfCnpj');
    expect((await call('POST', '/customers', { name: 'X', cpfCnpj: '52998224724' })).status).toBe(400);

    const found = await call('GET', `/customers?cpfCnpj=${encodeURIComponent(CPF)}`);
    expect(found.body).toMatchObject({ object: 'list', totalCount: 1, hasMore: false, offset: 0, limit: 10 });
    expect(found.body.data[0]).toMatchObject({ id: customerId, cpfCnpj: '52998224725', personType: 'FISICA' });
    expect((await call('GET', `/customers/${customerId}`)).body.name).toBe('Ana Souza');
    expect((await call('GET', '/customers/cus_nope')).status).toBe(404);
    expect((await call('GET', '/customers?cpfCnpj=11144477735')).body.data).toEqual([]);
  });

  it('refuses a charge without a customer, with a bad value or a past due day', async () => {
    const base = { customer: customerId, billingType: 'PIX', value: 10, dueDate: spToday() };
    expect((await call('POST', '/payments', { ...base, customer: 'cus_x' })).body.errors[0].code).toBe(
      'invalid_customer',
    );
    expect((await call('POST', '/payments', { ...base, value: 0 })).body.errors[0].code).toBe('invalid_value');
    expect((await call('POST', '/payments', { ...base, billingType: 'CASH' })).status).toBe(400);
    expect((await call('POST', '/payments', { ...base, dueDate: '2020-01-01' })).body.errors[0].code).toBe(
      'invalid_dueDate',
    );
    expect((await call('GET', '/payments/pay_nope')).status).toBe(404);
  });

  it('a Pix charge: created, its QR code (EMV with the amount, readable PNG), paid, found, refunded', async () => {
    const p = await charge();
    expect(p).toMatchObject({ object: 'payment', status: 'PENDING', value: 99.9, billingType: 'UNDEFINED' });
    expect(p.id).toMatch(/^pay_/);
    expect(p.invoiceUrl).toBe(`${fake.url.replace(/\/v3$/, '')}/i/${p.id}`);

    const qr = (await call('GET', `/payments/${p.id}/pixQrCode`)).body;
    expect(qr.payload).toMatch(/^000201/);
    expect(qr.payload).toContain('540599.90');
    expect(qr.payload).toMatch(/6304[0-9A-F]{4}$/);
    const { data, info } = await sharp(Buffer.from(qr.encodedImage, 'base64'))
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(jsQR(new Uint8ClampedArray(data), info.width, info.height)?.data).toBe(qr.payload);

    await fake.pay(p.id);
    await fake.webhooks.flush();
    const events = received().filter((e) => e.payment.id === p.id);
    expect(events.map((e) => [e.event, e.payment.status])).toEqual([
      ['PAYMENT_CREATED', 'PENDING'],
      ['PAYMENT_RECEIVED', 'RECEIVED'],
    ]);
    expect(events[1]).toMatchObject({ token: fake.webhookToken, payment: { billingType: 'PIX' } });
    expect(events[1].id).toMatch(/^evt_[0-9a-f-]{36}$/);
    expect(events[1].dateCreated).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);

    const paid = (await call('GET', `/payments/${p.id}`)).body;
    expect(paid).toMatchObject({ status: 'RECEIVED', paymentDate: spToday(), clientPaymentDate: spToday() });
    const byRef = await call('GET', `/payments?externalReference=${p.externalReference}`);
    expect(byRef.body.data.map((x: { id: string }) => x.id)).toEqual([p.id]);
    const day = spToday();
    const byDay = await call('GET', `/payments?paymentDate%5Bge%5D=${day}&paymentDate%5Ble%5D=${day}&limit=100`);
    expect(byDay.body.data.map((x: { id: string }) => x.id)).toContain(p.id);
    expect((await call('GET', '/payments?paymentDate%5Bge%5D=2099-01-01')).body.totalCount).toBe(0);

    expect((await call('DELETE', `/payments/${p.id}`)).status).toBe(400);
    const partial = await call('POST', `/payments/${p.id}/refund`, { value: 9.9 });
    expect(partial.body.status).toBe('RECEIVED');
    expect((await call('POST', `/payments/${p.id}/refund`, { value: 90.01 })).status).toBe(400);
    const rest = await call('POST', `/payments/${p.id}/refund`, { description: 'desistência' });
    expect(rest.body.status).toBe('REFUNDED');
    expect((await call('POST', `/payments/${p.id}/refund`, {})).status).toBe(400);
    expect(fake.state.refunds.filter((r) => r.paymentId === p.id)).toEqual([
      { paymentId: p.id, value: 9.9 },
      { paymentId: p.id, value: 90 },
    ]);
    await fake.webhooks.flush();
    expect(received().map((e) => e.event)).toContain('PAYMENT_REFUNDED');
  });

  it('a pending charge cannot be refunded, is deleted once, then is gone', async () => {
    const p = await charge();
    expect((await call('POST', `/payments/${p.id}/refund`, {})).body.errors[0].code).toBe('invalid_action');
    expect((await call('DELETE', `/payments/${p.id}`)).body).toEqual({ deleted: true, id: p.id });
    expect((await call('DELETE', `/payments/${p.id}`)).status).toBe(404);
    expect((await call('GET', `/payments/${p.id}`)).body.deleted).toBe(true);
    expect((await call('GET', `/payments?externalReference=${p.externalReference}`)).body.data).toEqual([]);
    await fake.webhooks.flush();
    expect(received().map((e) => e.event)).toEqual(['PAYMENT_CREATED', 'PAYMENT_DELETED']);
  });

  it('a card confirmed only is received on the next pay(); a held refund is requested, then completed', async () => {
    const p = await charge({ billingType: 'CREDIT_CARD' });
    await fake.pay(p.id, { confirmOnly: true });
    expect(fake.state.payments.get(p.id)).toMatchObject({ status: 'CONFIRMED', paymentDate: null });
    await fake.pay(p.id, { date: '2026-12-30' });
    expect(fake.state.payments.get(p.id)).toMatchObject({ status: 'RECEIVED', paymentDate: '2026-12-30' });
    fake.holdRefunds();
    expect((await call('POST', `/payments/${p.id}/refund`, {})).body.status).toBe('REFUND_REQUESTED');
    await fake.completeRefund(p.id);
    fake.holdRefunds(false);
    await fake.webhooks.flush();
    expect(received().map((e) => `${e.event}:${e.payment.status}`)).toEqual([
      'PAYMENT_CREATED:PENDING',
      'PAYMENT_CONFIRMED:CONFIRMED',
      'PAYMENT_RECEIVED:RECEIVED',
      'PAYMENT_REFUNDED:REFUNDED',
    ]);
  });

  it('overdue and chargeback move the charge and send their events', async () => {
    const p = await charge({ billingType: 'CREDIT_CARD' });
    await fake.overdue(p.id);
    await fake.pay(p.id);
    await fake.chargeback(p.id);
    await fake.webhooks.flush();
    expect(received().map((e) => `${e.event}:${e.payment.status}`)).toEqual([
      'PAYMENT_CREATED:PENDING',
      'PAYMENT_OVERDUE:OVERDUE',
      'PAYMENT_CONFIRMED:CONFIRMED',
      'PAYMENT_RECEIVED:RECEIVED',
      'PAYMENT_CHARGEBACK_REQUESTED:CHARGEBACK_REQUESTED',
    ]);
  });
});

describe('fake Asaas: hosted invoice page', () => {
  it('takes the card on its own page (refusal card refused), then redirects to successUrl', async () => {
    const p = await charge({ callback: { successUrl: 'http://app.test/matricula/ok', autoRedirect: true } });
    const html = await (await fetch(p.invoiceUrl)).text();
    expect(html).toContain(`action="/i/${p.id}/cartao"`);
    expect(html).toContain('Número do cartão');
    expect(html).toContain('Pix copia e cola');

    const form = (number: string) =>
      fetch(`${p.invoiceUrl}/cartao`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ holderName: 'ANA SOUZA', number, expiry: '12/2035', ccv: '123' }).toString(),
      });
    const refused = await form('5184 0197 4037 3151');
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('não autorizado');
    expect(fake.state.payments.get(p.id).status).toBe('PENDING');

    const ok = await form('4111 1111 1111 1111');
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toBe('http://app.test/matricula/ok');
    const paid = fake.state.payments.get(p.id);
    expect(paid).toMatchObject({ status: 'RECEIVED', billingType: 'CREDIT_CARD', confirmedDate: spToday() });
    expect(paid.creditCard).toMatchObject({ creditCardNumber: '1111', creditCardBrand: 'VISA' });
    expect(JSON.stringify([...fake.state.payments.values(), fake.state.events])).not.toContain('4111111111111111');
    await fake.webhooks.flush();
    expect(received().map((e) => e.event)).toEqual([
      'PAYMENT_CREATED',
      'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED',
      'PAYMENT_CONFIRMED',
      'PAYMENT_RECEIVED',
    ]);
    // paid: the page only sends the payer on
    expect((await fetch(p.invoiceUrl, { redirect: 'manual' })).status).toBe(303);
  });
});

describe('fake Asaas: faults', () => {
  it('failNext: a 500, then a 429 with Retry-After, each once', async () => {
    fake.failNext({ method: 'GET', path: `/customers/${customerId}` });
    fake.failNext({ path: /^\/customers/, status: 429, retryAfter: 2 });
    const first = await call('GET', `/customers/${customerId}`);
    expect(first.status).toBe(500);
    expect(first.body.errors[0].code).toBe('fake_failure');
    const second = await call('GET', `/customers/${customerId}`);
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toBe('2');
    expect((await call('GET', `/customers/${customerId}`)).status).toBe(200);
  });

  it('failNext hang: the call is never answered; applyThenHang: applied, never answered', async () => {
    fake.failNext({ method: 'GET', path: '/payments', hang: true });
    await expect(
      fetch(`${fake.url}/payments`, { headers: { access_token: fake.apiKey }, signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    expect(fake.calls.at(-1)).toMatchObject({ method: 'GET', path: '/payments', status: 0 });

    const ref = 'mat-timeout-after-success';
    fake.failNext({ method: 'POST', path: '/payments', applyThenHang: true });
    const body = { customer: customerId, billingType: 'PIX', value: 50, dueDate: spToday(), externalReference: ref };
    await expect(
      fetch(`${fake.url}/payments`, {
        method: 'POST',
        headers: { access_token: fake.apiKey, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(150),
      }),
    ).rejects.toThrow();
    const found = await call('GET', `/payments?externalReference=${ref}`);
    expect(found.body.data).toHaveLength(1);
  });

  it('webhooks: lost, duplicated, held and released out of order', async () => {
    fake.webhooks.lose(1);
    const lost = await charge();
    fake.webhooks.duplicate(1);
    const doubled = await charge();
    await fake.webhooks.flush();
    expect(fake.state.events.some((e) => e.payment?.id === lost.id)).toBe(true);
    const got = received();
    expect(got.some((e) => e.payment.id === lost.id)).toBe(false);
    const copies = got.filter((e) => e.payment.id === doubled.id);
    expect(copies).toHaveLength(2);
    expect(copies[0].id).toBe(copies[1].id);

    receiver.requests.length = 0;
    fake.webhooks.hold();
    const p = await charge();
    await fake.pay(p.id);
    await fake.webhooks.flush();
    expect(receiver.requests).toHaveLength(0);
    await fake.webhooks.release({ reverse: true });
    expect(received().map((e) => e.event)).toEqual(['PAYMENT_RECEIVED', 'PAYMENT_CREATED']);
  });

  it('webhooks: wait for a target, then go round robin over several, after the delay asked', async () => {
    const other = await startReceiver();
    try {
      fake.setWebhookTargets([]);
      const p = await charge();
      await fake.webhooks.flush();
      expect(receiver.requests).toHaveLength(0);
      fake.webhooks.delay(30);
      const started = Date.now();
      fake.setWebhookTargets([receiver.url, other.url]);
      await fake.pay(p.id);
      await fake.webhooks.flush();
      expect(Date.now() - started).toBeGreaterThanOrEqual(60);
      expect(received().map((e) => e.event)).toEqual(['PAYMENT_CREATED']);
      expect(other.requests.map((r) => JSON.parse(r.body).event)).toEqual(['PAYMENT_RECEIVED']);
    } finally {
      fake.webhooks.delay(0);
      fake.setWebhookTargets([receiver.url]);
      await other.close();
    }
  });

  it('webhooks: a delivery answered 500 counts as failing and is tried again', async () => {
    let refused = 0;
    receiver.answer = () => (refused++ < 2 ? { status: 500 } : { status: 200 });
    const before = fake.webhooks.failing;
    const p = await charge();
    await fake.webhooks.flush();
    expect(fake.webhooks.failing - before).toBe(2);
    const tries = fake.webhooks.deliveries.filter((d) => d.eventId === fake.state.events.at(-1).id);
    expect(tries.map((d) => [d.status, d.attempt])).toEqual([
      [500, 1],
      [500, 2],
      [200, 3],
    ]);
    expect(received().map((e) => e.payment.id)).toEqual([p.id, p.id, p.id]);
  });
});

describe('fake Asaas: subscriptions and Pix Automático', () => {
  it('a card subscription: first payment charged at creation; renew charges, a failed renew goes overdue', async () => {
    const created = await call('POST', '/subscriptions', {
      customer: customerId,
      billingType: 'CREDIT_CARD',
      creditCardToken: 'tok_123',
      value: 89.9,
      nextDueDate: spToday(),
      cycle: 'MONTHLY',
      description: 'Plano mensal',
      externalReference: 'mat-42',
    });
    const s = created.body;
    expect(s).toMatchObject({ status: 'ACTIVE', value: 89.9, externalReference: 'mat-42' });
    expect(s.id).toMatch(/^sub_/);
    const first = (await call('GET', `/subscriptions/${s.id}/payments`)).body.data;
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ status: 'RECEIVED', subscription: s.id, externalReference: 'mat-42' });

    const failed = await fake.renew(s.id, { fail: true });
    const ok = await fake.renew(s.id);
    await fake.webhooks.flush();
    expect(fake.state.payments.get(failed).status).toBe('OVERDUE');
    expect(fake.state.payments.get(ok).status).toBe('RECEIVED');
    expect(
      received()
        .filter((e) => e.payment.id === failed)
        .map((e) => e.event),
    ).toEqual(['PAYMENT_CREATED', 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', 'PAYMENT_OVERDUE']);
    const dues = [first[0].id, failed, ok].map((id) => fake.state.payments.get(id).dueDate);
    const addMonth = (d: string, n: number) => {
      const [y, m, day] = d.split('-').map(Number) as [number, number, number];
      const t = new Date(Date.UTC(y, m - 1 + n, 1));
      const last = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth() + 1, 0)).getUTCDate();
      t.setUTCDate(Math.min(day, last));
      return t.toISOString().slice(0, 10);
    };
    expect(dues).toEqual([spToday(), addMonth(spToday(), 1), addMonth(spToday(), 2)]);

    const found = await call('GET', '/subscriptions?externalReference=mat-42');
    expect(found.body.data.map((x: { id: string }) => x.id)).toEqual([s.id]);
    const updated = await call('POST', `/subscriptions/${s.id}`, { endDate: addMonth(spToday(), 6) });
    expect(updated.body.endDate).toBe(addMonth(spToday(), 6));
    expect((await call('DELETE', `/subscriptions/${s.id}`)).body).toEqual({ deleted: true, id: s.id });
    expect(fake.state.payments.get(failed).deleted).toBe(true);
    expect((await call('DELETE', `/subscriptions/${s.id}`)).status).toBe(404);
    expect((await call('GET', '/subscriptions?externalReference=mat-42')).body.data).toEqual([]);
  });

  it('Pix Automático: the QR pays the first charge, activates, and its subscription charges', async () => {
    const a = (
      await call('POST', '/pix/automatic/authorizations', {
        frequency: 'MONTHLY',
        contractId: 'mat-77',
        startDate: '2027-01-05',
        value: 89.9,
        description: 'Plano mensal',
        customerId,
        paymentCreationMode: 'SUBSCRIPTION',
        immediateQrCode: { expirationSeconds: 3600, originalValue: 129.9, description: 'Matrícula' },
      })
    ).body;
    expect(a).toMatchObject({ status: 'CREATED', subscriptionId: null, customerId });
    expect(a.immediateQrCode.payload).toMatch(/^000201.*5406129\.90.*6304[0-9A-F]{4}$/);
    const early = await call('POST', '/payments', {
      customer: customerId,
      billingType: 'PIX',
      value: 89.9,
      dueDate: spToday(),
      pixAutomaticAuthorizationId: a.id,
    });
    expect(early.body.errors[0].code).toBe('invalid_pixAutomaticAuthorizationId');

    const paymentId = await fake.pixAutomatic.pay(a.id);
    await fake.webhooks.flush();
    expect(received().map((e) => e.event)).toEqual([
      'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED',
      'PAYMENT_CREATED',
      'PAYMENT_RECEIVED',
      'PAYMENT_CREATED',
      'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED',
    ]);
    expect(fake.state.payments.get(paymentId)).toMatchObject({
      status: 'RECEIVED',
      value: 129.9,
      pixQrCodeId: a.immediateQrCode.conciliationIdentifier,
    });
    const active = (await call('GET', `/pix/automatic/authorizations/${a.id}`)).body;
    expect(active.status).toBe('ACTIVE');
    expect(active.subscriptionId).toMatch(/^sub_/);
    const renewed = await fake.renew(active.subscriptionId);
    expect(fake.state.payments.get(renewed)).toMatchObject({ status: 'RECEIVED', billingType: 'PIX', value: 89.9 });

    const later = await call('POST', '/payments', {
      customer: customerId,
      billingType: 'PIX',
      value: 89.9,
      dueDate: spToday(),
      pixAutomaticAuthorizationId: a.id,
    });
    expect(later.body.pixAutomaticAuthorizationId).toBe(a.id);
    expect((await call('DELETE', `/pix/automatic/authorizations/${a.id}`)).body.status).toBe('CANCELLED');

    const unpaid = (
      await call('POST', '/pix/automatic/authorizations', {
        frequency: 'MONTHLY',
        contractId: 'mat-78',
        startDate: '2027-01-05',
        customerId,
        immediateQrCode: { originalValue: 129.9 },
      })
    ).body;
    await fake.pixAutomatic.refuse(unpaid.id);
    expect((await call('GET', `/pix/automatic/authorizations/${unpaid.id}`)).body.status).toBe('REFUSED');
    await expect(fake.pixAutomatic.pay(unpaid.id)).rejects.toThrow(/REFUSED/);
  });
});

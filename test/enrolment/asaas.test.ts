// PAYMENT_PROVIDER=asaas end to end against the fake Asaas (test/helpers/fake-asaas.ts), on
// SQLite and on PostgreSQL: the payment page shows Asaas's dynamic Pix and the card link, the
// webhook (stored raw, processed by the worker) activates through the staff's one path and
// creates the subscription once; a lost webhook is recovered by the reconciliation; duplicated
// and out-of-order events change nothing twice; a charge that timed out after Asaas applied
// it is found, not made again; withdrawal on day 7 refunds at Asaas, day 8 cancels with the
// fine charged on its own reference; card renewals failing make the member inadimplente.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index';
import { addDays, saoPauloDay } from '../../src/lib/time';
import { ConfigError, loadConfig } from '../../src/config';
import { createAsaasClient } from '../../src/platform/payments/asaas/client';
import type { TestContext } from '../helpers/app';
import { validCpf } from '../helpers/cpf';
import {
  asaasFlow,
  asaasTestApp,
  enrolmentAudit,
  hiddenValue,
  KNOWN_TERMS,
  mailsTo,
  onlineOffer,
} from '../helpers/enrolment';
import { startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas';
import { createProviderPaymentsRepository } from '../../src/features/enrolment/provider.repository';
import { staleCutoffs as staleCutoffsAt } from '../../src/features/enrolment/provider.service';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let fake: FakeAsaas;
let asaas: ReturnType<typeof asaasFlow>;
const METRICS = 'metricas-de-teste-0123456789abcdef';

beforeAll(async () => {
  fake = await startFakeAsaas();
  t = await asaasTestApp(fake, { METRICS_TOKEN: METRICS });
  asaas = asaasFlow(t, fake, await onlineOffer(t.db, KNOWN_TERMS), { cpfStart: 321_000_000, mailbox: 'asaas' });
});
afterAll(async () => {
  await t?.close();
  await fake?.close();
});

const history = (id: number) =>
  t.db.selectFrom('matriculas_historico').selectAll().where('matricula_id', '=', id).orderBy('id').execute();

/** Opens the payment page (which makes the charge at Asaas); the provider's payment id. */
async function openPayment(codigo: string): Promise<{ body: string; paymentId: string }> {
  const res = await t.app.inject(`/matricula/${codigo}`);
  expect(res.statusCode).toBe(200);
  const row = (await t.db
    .selectFrom('matriculas_pagamentos as p')
    .innerJoin('matriculas as m', 'm.id', 'p.matricula_id')
    .select('p.provedor_id')
    .where('m.codigo', '=', codigo)
    .where('p.tipo', '=', 'primeiro')
    .executeTakeFirstOrThrow()) as { provedor_id: string | null };
  return { body: res.body, paymentId: row.provedor_id ?? '' };
}

/** An enrolment paid by Pix at Asaas and the webhooks settled, the first `lost` of them lost. */
async function paid(lost = 0) {
  const e = await asaas.enrol();
  const { paymentId } = await openPayment(e.codigo);
  if (lost) fake.webhooks.lose(lost);
  await fake.pay(paymentId);
  await asaas.settle();
  return { e, paymentId };
}

async function paidAndActive() {
  const { e } = await paid();
  const after = await asaas.enrolment(e.id);
  expect(after.status).toBe('ativa');
  return after;
}

/** Opens "Minha matrícula" with the link queued for `email`. */
const openMine = async (email: string) => (await asaas.pages.openMine(email)).cookie;

async function act(cookie: string, path: string) {
  // The form's own page: the panel for "Desistir", the confirmation page for "Cancelar".
  const page = await t.app.inject({
    url: path.endsWith('/cancelar') ? path : '/matricula/minha/painel',
    headers: { cookie },
  });
  return asaas.pages.press(path, { cookie, token: hiddenValue(page.body, 'csrf_token') });
}

describe('settings', () => {
  const base = {
    PAYMENT_PROVIDER: 'asaas',
    ASAAS_API_URL: 'https://api-sandbox.asaas.com/v3',
    ASAAS_API_KEY: '$aact_chave_de_teste',
    ASAAS_WEBHOOK_TOKEN: 'w'.repeat(32),
  };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return (err as ConfigError).problems.join('\n');
    }
    return '';
  };

  it('stops at start-up on a missing or bad Asaas setting, with a pt-BR message and the secrets hidden', () => {
    const missing = problems({ PAYMENT_PROVIDER: 'asaas' });
    expect(missing).toMatch(/ASAAS_API_URL: obrigatório com PAYMENT_PROVIDER=asaas/);
    expect(missing).toMatch(/ASAAS_API_KEY: obrigatório/);
    expect(missing).toMatch(/ASAAS_WEBHOOK_TOKEN: obrigatório/);
    const bad = problems({ ...base, ASAAS_API_URL: 'ftp://api.asaas.com/v3', ASAAS_WEBHOOK_TOKEN: 'curto-demais' });
    expect(bad).toMatch(/ASAAS_API_URL/);
    expect(bad).toMatch(/ASAAS_WEBHOOK_TOKEN.*\(oculto\)/);
    expect(bad).not.toContain('curto-demais');
    expect(problems({ ...base, PAYMENT_OVERDUE_DAYS: '-1' })).toMatch(/PAYMENT_OVERDUE_DAYS/);
    expect(problems({ ...base, ASAAS_PIX_AUTOMATICO: 'talvez' })).toMatch(/ASAAS_PIX_AUTOMATICO/);
    expect(loadConfig({ ...base, ASAAS_PIX_AUTOMATICO: 'true' }).payments.asaas?.pixAutomatico).toBe(true);
    const ok = loadConfig({ ...base, ASAAS_API_URL: 'https://api-sandbox.asaas.com/v3/' }).payments;
    expect(ok).toMatchObject({ provider: 'asaas', pix: null, overdueDays: 3 });
    expect(ok.asaas).toMatchObject({ apiUrl: 'https://api-sandbox.asaas.com/v3', timeoutMs: 10_000 });
  });
});

describe('the Asaas client', () => {
  it('logs calls without the key, the CPF or the name; honours Retry-After; never creates twice', async () => {
    const lines: string[] = [];
    const log = {
      info: (o: unknown, m?: string) => lines.push(JSON.stringify([o, m])),
      warn: (o: unknown, m?: string) => lines.push(JSON.stringify([o, m])),
    } as never;
    const client = createAsaasClient(
      { apiUrl: fake.url, apiKey: fake.apiKey, webhookToken: fake.webhookToken, timeoutMs: 300, pixAutomatico: false },
      log,
    );
    const cpf = validCpf(432_000_000);
    const name = 'Joana Registro Privado';
    fake.failNext({ method: 'GET', path: '/customers', status: 429, retryAfter: 1 });
    const started = Date.now();
    const customer = await client.customer({ name, cpf, email: 'joana@exemplo.com.br', phone: '+5511987654321' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    expect(await client.customer({ name, cpf, email: 'joana@exemplo.com.br', phone: null })).toBe(customer);
    fake.failNext({ method: 'POST', path: '/payments', applyThenHang: true });
    const made = await client.charge({
      customer,
      reference: 'TESTE-LOG-1',
      valueCents: 1000,
      dueDate: saoPauloDay(),
      description: 'teste',
    });
    expect(asaas.chargesOf('TESTE-LOG-1').map((p) => p.id)).toEqual([made.id]);
    await fake.pay(made.id);
    await client.refund(made.id, 'teste');
    await client.refund(made.id, 'teste');
    expect(fake.state.refunds.filter((r) => r.paymentId === made.id)).toHaveLength(1);
    const all = lines.join('\n');
    expect(lines.length).toBeGreaterThan(6);
    expect(all).toContain('asaas call');
    expect(all).toContain('"status":429');
    for (const secret of [fake.apiKey, cpf, name, 'joana@exemplo.com.br', '987654321'])
      expect(all).not.toContain(secret);
  });
});

describe('paying through Asaas', () => {
  it('shows the dynamic Pix and the card page, and the webhook activates once with the subscription', async () => {
    const e = await asaas.enrol();
    const { body, paymentId } = await openPayment(e.codigo);
    expect(paymentId).toMatch(/^pay_/);
    const charge = fake.state.payments.get(paymentId);
    expect(charge.externalReference).toBe(`MAT${e.id}P1`);
    expect(charge.value).toBe(179.9);
    expect(body).toContain(charge.invoiceUrl);
    expect(body).toContain('Pagar com cartão');
    expect(body).toMatch(/000201[^<]*6304[0-9A-F]{4}/);
    expect(body).toContain('data-payment-status');
    const before = await t.app.inject(`/matricula/${e.codigo}/situacao.json`);
    expect(JSON.parse(before.body)).toMatchObject({ status: 'aguardando_pagamento', pendentes: 1 });
    const callsBefore = fake.calls.length;
    await t.app.inject(`/matricula/${e.codigo}/situacao.json`);
    expect(fake.calls.length).toBe(callsBefore);

    await fake.pay(paymentId);
    await asaas.settle();
    const after = await asaas.enrolment(e.id);
    expect(after.status).toBe('ativa');
    expect(after.cliente_provedor_id).toBe(charge.customer);
    const polled = await t.app.inject(`/matricula/${e.codigo}/situacao.json`);
    expect(JSON.parse(polled.body)).toMatchObject({ status: 'ativa', pendentes: 0 });
    const reloaded = await t.app.inject(`/matricula/${e.codigo}`);
    expect(reloaded.body).toContain('data-status="ativa"');
    expect((await history(e.id)).filter((h) => h.para === 'ativa' && h.de !== 'ativa')).toHaveLength(1);
    expect((await history(e.id)).some((h) => h.origem === 'provedor')).toBe(true);
    const mails = await mailsTo(t.db, e.email, 'Matrícula ativa%');
    expect(mails).toHaveLength(1);
    const subs = [...fake.state.subscriptions.values()].filter((s) => s.externalReference === e.codigo);
    expect(subs).toHaveLength(1);
    expect(subs[0].value).toBe(129.9);
    expect(subs[0].cycle).toBe('MONTHLY');
    expect(after.assinatura_provedor_id).toBe(subs[0].id);
    // The reconciliation asks again and finds nothing to create.
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    expect([...fake.state.subscriptions.values()].filter((s) => s.externalReference === e.codigo)).toHaveLength(1);
  });

  it('refuses a webhook without the token, keeps a repeat once and acknowledges unknown types', async () => {
    const post = (body: unknown, token?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/webhooks/asaas',
        headers: { 'content-type': 'application/json', ...(token ? { 'asaas-access-token': token } : {}) },
        payload: JSON.stringify(body),
      });
    const event = { id: `evt_teste_${Date.now()}`, event: 'ACCOUNT_STATUS_UPDATED', account: {} };
    expect((await post(event)).statusCode).toBe(401);
    expect((await post(event, 'x'.repeat(40))).statusCode).toBe(401);
    expect((await post(event, fake.webhookToken)).statusCode).toBe(200);
    expect((await post(event, fake.webhookToken)).statusCode).toBe(200);
    const rows = await t.db.selectFrom('pagamentos_eventos').selectAll().where('id', '=', event.id).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.payload).toBe(JSON.stringify(event));
    await asaas.settle();
    const kept = await t.db
      .selectFrom('pagamentos_eventos')
      .selectAll()
      .where('id', '=', event.id)
      .executeTakeFirstOrThrow();
    expect(kept.status).toBe('processado');
  });

  it('recovers a lost webhook through the reconciliation', async () => {
    const { e } = await paid(1);
    expect((await asaas.enrolment(e.id)).status).toBe('aguardando_pagamento');
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 5 * 60_000));
    expect((await asaas.enrolment(e.id)).status).toBe('aguardando_pagamento');
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    expect((await asaas.enrolment(e.id)).status).toBe('ativa');
    await asaas.settle();
    expect((await history(e.id)).filter((h) => h.para === 'ativa' && h.de !== 'ativa')).toHaveLength(1);
  });

  it('applies duplicated and out-of-order events once (RECEIVED before CREATED still activates)', async () => {
    const e = await asaas.enrol();
    fake.webhooks.hold();
    const { paymentId } = await openPayment(e.codigo);
    fake.webhooks.duplicate(10);
    await fake.pay(paymentId, { billingType: 'CREDIT_CARD' });
    await fake.webhooks.release({ reverse: true });
    await asaas.settle();
    await asaas.settle();
    const after = await asaas.enrolment(e.id);
    expect(after.status).toBe('ativa');
    expect((await asaas.payments(e.id)).find((p) => p.tipo === 'primeiro')!.status).toBe('pago');
    expect((await history(e.id)).filter((h) => h.para === 'ativa' && h.de !== 'ativa')).toHaveLength(1);
    const audits = await enrolmentAudit(t.db, e.id, 'confirmar_pagamento');
    expect(audits).toHaveLength(1);
    const subs = [...fake.state.subscriptions.values()].filter((s) => s.externalReference === e.codigo);
    expect(subs).toHaveLength(1);
    // Paid by card: the renewals are charged on the same card.
    expect(subs[0].billingType).toBe('CREDIT_CARD');
  });

  it('charges once when the create timed out after Asaas applied it, and retries a 503 with Retry-After', async () => {
    const e = await asaas.enrol();
    fake.failNext({ method: 'POST', path: '/payments', applyThenHang: true });
    fake.failNext({ method: 'GET', path: /\/pixQrCode$/, status: 503, retryAfter: 0 });
    const { body, paymentId } = await openPayment(e.codigo);
    expect(asaas.chargesOf(`MAT${e.id}P1`)).toHaveLength(1);
    expect(paymentId).toBe(asaas.chargesOf(`MAT${e.id}P1`)[0].id);
    expect(body).toContain('Pix copia e cola');
    // Another view finds the same charge.
    await openPayment(e.codigo);
    expect(asaas.chargesOf(`MAT${e.id}P1`)).toHaveLength(1);
  });

  it('page views at once keep one charge; a reference paid twice gives the second back', async () => {
    const e = await asaas.enrol();
    await Promise.all([1, 2, 3].map(() => t.app.inject(`/matricula/${e.codigo}`)));
    expect(asaas.chargesOf(`MAT${e.id}P1`)).toHaveLength(1);
    const { paymentId } = await openPayment(e.codigo);
    expect(paymentId).toBe(asaas.chargesOf(`MAT${e.id}P1`)[0].id);
    // A second charge of the same reference made behind our back (as two instances at once could).
    const res = await fetch(`${fake.url}/payments`, {
      method: 'POST',
      headers: { access_token: fake.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        customer: fake.state.payments.get(paymentId).customer,
        billingType: 'PIX',
        value: 179.9,
        dueDate: saoPauloDay(),
        externalReference: `MAT${e.id}P1`,
      }),
    });
    const second = (await res.json()) as { id: string };
    await fake.pay(paymentId);
    await fake.pay(second.id);
    await asaas.settle();
    expect((await asaas.enrolment(e.id)).status).toBe('ativa');
    // Whichever was applied second (events received in the same millisecond have no order) goes back.
    const statuses = [paymentId, second.id].map((id) => fake.state.payments.get(id).status).sort();
    expect(statuses).toEqual(['RECEIVED', 'REFUNDED']);
    expect(fake.state.refunds.filter((r) => r.paymentId === paymentId || r.paymentId === second.id)).toHaveLength(1);
    expect((await history(e.id)).filter((h) => h.para === 'ativa' && h.de !== 'ativa')).toHaveLength(1);
  });

  it('answers the page without a 5xx while Asaas is down', async () => {
    const e = await asaas.enrol();
    fake.failNext({ path: '/customers', status: 500, times: 4 });
    const res = await t.app.inject(`/matricula/${e.codigo}`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Não foi possível gerar o pagamento agora');
  });
});

describe('withdrawal and cancellation', () => {
  it('day 7: refunded at Asaas, subscription ended; day 8: cancelled, the fine on its own reference', async () => {
    const a = await paidAndActive();
    const sevenDaysAgo = nowIso(new Date(Date.now() - 7 * 86_400_000));
    await t.db.updateTable('matriculas').set({ aceito_em: sevenDaysAgo }).where('id', '=', a.id).execute();
    const cookieA = await openMine(a.email);
    const withdrawn = await act(cookieA, `/matricula/minha/${a.codigo}/desistir`);
    expect(withdrawn.statusCode).toBe(303);
    const first = (await asaas.payments(a.id)).find((p) => p.tipo === 'primeiro')!;
    expect(fake.state.refunds.filter((r) => r.paymentId === first.provedor_id)).toEqual([
      { paymentId: first.provedor_id, value: 179.9 },
    ]);
    expect(fake.state.subscriptions.get(a.assinatura_provedor_id!).deleted).toBe(true);
    const rows = await asaas.payments(a.id);
    expect(rows.find((p) => p.tipo === 'reembolso')).toMatchObject({ status: 'pago', valor_centavos: 17990 });
    expect(rows.find((p) => p.tipo === 'primeiro')!.status).toBe('estornado');
    await asaas.settle();
    await t.app.paymentJobs!.reconcile(new Date(Date.now() + 11 * 60_000));
    expect(fake.state.refunds.filter((r) => r.paymentId === first.provedor_id)).toHaveLength(1);
    const confirmation = await mailsTo(t.db, a.email, 'Desistência%');
    expect(confirmation).toHaveLength(1);

    const b = await paidAndActive();
    const eightDaysAgo = nowIso(new Date(Date.now() - 8 * 86_400_000));
    await t.db
      .updateTable('matriculas')
      .set({ aceito_em: eightDaysAgo, ativada_em: eightDaysAgo })
      .where('id', '=', b.id)
      .execute();
    const cookieB = await openMine(b.email);
    const panel = await t.app.inject({ url: '/matricula/minha/painel', headers: { cookie: cookieB } });
    expect(panel.body).not.toContain(`/matricula/minha/${b.codigo}/desistir`);
    expect((await act(cookieB, `/matricula/minha/${b.codigo}/cancelar`)).statusCode).toBe(303);
    const cancelled = await asaas.enrolment(b.id);
    expect(cancelled.status).toBe('cancelamento_solicitado');
    const paidB = (await asaas.payments(b.id)).find((p) => p.tipo === 'primeiro')!;
    expect(fake.state.refunds.filter((r) => r.paymentId === paidB.provedor_id)).toHaveLength(0);
    const fine = asaas.chargesOf(`MAT${b.id}M1`);
    expect(fine).toHaveLength(1);
    expect(fine[0].value * 100).toBeCloseTo(cancelled.multa_centavos!, 5);
    const sub = fake.state.subscriptions.get(cancelled.assinatura_provedor_id!);
    expect(sub.deleted).toBe(false);
    expect(sub.endDate).toBe(addDays(cancelled.cancelamento_efetivo_em!, -1));
    // The month after the paid period, already made by Asaas, is removed there and here.
    const later = [...fake.state.payments.values()].filter(
      (p) => p.subscription === sub.id && p.dueDate >= cancelled.cancelamento_efetivo_em!,
    );
    expect(later.length).toBeGreaterThan(0);
    expect(later.every((p) => p.deleted)).toBe(true);
    await asaas.settle();
    const monthly = (await asaas.payments(b.id)).filter((p) => p.tipo === 'mensalidade');
    expect(monthly.every((p) => p.status === 'cancelado')).toBe(true);
  });
});

describe('monthly billing', () => {
  it('card renewals failing three times make the member inadimplente, shown to staff', async () => {
    const e = await asaas.enrol();
    const { paymentId } = await openPayment(e.codigo);
    await fake.pay(paymentId, { billingType: 'CREDIT_CARD' });
    await asaas.settle();
    const active = await asaas.enrolment(e.id);
    expect(active.status).toBe('ativa');
    const subId = active.assinatura_provedor_id!;
    expect(fake.state.subscriptions.get(subId).billingType).toBe('CREDIT_CARD');
    const due: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = await fake.renew(subId, { fail: true });
      due.push(fake.state.payments.get(id).dueDate);
    }
    await asaas.settle();
    const renewals = (await asaas.payments(e.id)).filter((p) => p.tipo === 'mensalidade');
    expect(renewals.filter((p) => p.status === 'atrasado')).toHaveLength(3);
    // Due in the future: not yet inadimplente.
    await t.app.paymentJobs!.reconcile();
    expect((await asaas.enrolment(e.id)).inadimplente_desde).toBeNull();
    const late = new Date(`${addDays(due[2]!, 3)}T15:00:00Z`);
    await t.app.paymentJobs!.reconcile(late);
    const defaulting = await asaas.enrolment(e.id);
    expect(defaulting.inadimplente_desde).not.toBeNull();

    const staff = await createStaffUser(t.db, { papel: 'admin' });
    const cookie = await loginAs(t.app, staff.email, staff.password);
    const list = await t.app.inject({ url: '/admin/matriculas?status=inadimplente', headers: { cookie } });
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain(e.nome);
    expect(list.body).toContain('Inadimplente');
    const detail = await t.app.inject({ url: `/admin/matriculas/${e.id}`, headers: { cookie } });
    expect(detail.body).toContain('Inadimplente desde');
    const board = await t.app.inject({ url: '/admin/pagamentos', headers: { cookie } });
    expect(board.statusCode).toBe(200);
    expect(board.body).toContain('Último evento recebido');
    expect(saoPauloDay(late) > due[2]!).toBe(true);
    // The member's page offers the card page for the overdue months (no Pix on a card charge).
    const page = await t.app.inject(`/matricula/${e.codigo}`);
    expect(page.body).toContain('Há mensalidade vencida');
    expect(page.body).toContain('Pagar com cartão');
    expect(page.body).not.toContain('Não foi possível gerar o pagamento');
    // Paying every overdue month clears it.
    for (const r of (await asaas.payments(e.id)).filter((p) => p.tipo === 'mensalidade' && p.status !== 'pago'))
      await fake.pay(r.provedor_id!, { billingType: 'CREDIT_CARD' });
    await asaas.settle(late);
    await t.app.paymentJobs!.reconcile(late);
    const cleared = await asaas.enrolment(e.id);
    expect(cleared.inadimplente_desde).toBeNull();
    expect(cleared.pago_ate! > active.pago_ate!).toBe(true);
  });

  it('asks Asaas about a monthly charge only once due, then hourly; a waiting first payment comes first', async () => {
    const active = await paidAndActive();
    const month = await fake.renew(active.assinatura_provedor_id!);
    await asaas.settle();
    const row = (await asaas.payments(active.id)).find((p) => p.provedor_id === month)!;
    expect(row).toMatchObject({ tipo: 'mensalidade', status: 'pendente' });
    const asked = () => fake.calls.filter((c) => c.method === 'GET' && c.path === `/payments/${month}`).length;
    const before = asked();
    // Days before its due day: nothing can be late, so nothing is asked.
    await t.app.paymentJobs!.reconcile(new Date(`${addDays(row.vencimento!, -3)}T15:00:00Z`));
    expect(asked()).toBe(before);
    // Its day: asked; again only after an hour without news.
    const due = new Date(`${row.vencimento}T15:00:00Z`);
    await t.app.paymentJobs!.reconcile(due);
    expect(asked()).toBe(before + 1);
    await t.app.paymentJobs!.reconcile(new Date(due.getTime() + 30 * 60_000));
    expect(asked()).toBe(before + 1);
    await t.app.paymentJobs!.reconcile(new Date(due.getTime() + 61 * 60_000));
    expect(asked()).toBe(before + 2);

    // A first payment waiting 10 minutes is asked about ahead of the due monthly charge.
    const { e: waiting } = await paid(1);
    const first = (await asaas.payments(waiting.id)).find((p) => p.tipo === 'primeiro')!;
    const later = new Date(due.getTime() + 3 * 3_600_000);
    const next = await createProviderPaymentsRepository(t.db).stale('asaas', staleCutoffsAt(later), 1);
    expect(next.map((p) => p.id)).toEqual([first.id]);
  });

  it('a chargeback asks staff for attention; a charge of an expired enrolment is removed at Asaas', async () => {
    const e = await paidAndActive();
    const first = (await asaas.payments(e.id)).find((p) => p.tipo === 'primeiro')!;
    await fake.chargeback(first.provedor_id!);
    await asaas.settle();
    const flagged = await asaas.enrolment(e.id);
    expect(flagged.atencao).toMatch(/Contestação \(chargeback\)/);
    const staff = await createStaffUser(t.db, { papel: 'admin' });
    const cookie = await loginAs(t.app, staff.email, staff.password);
    const board = await t.app.inject({ url: '/admin/pagamentos', headers: { cookie } });
    expect(board.body).toContain('Precisa de atenção');
    expect(board.body).toContain(e.nome);

    const unpaid = await asaas.enrol();
    const { paymentId } = await openPayment(unpaid.codigo);
    const later = new Date(Date.now() + 49 * 3_600_000);
    await t.app.enrolmentJobs.run(later);
    expect((await asaas.enrolment(unpaid.id)).status).toBe('expirada');
    await t.app.paymentJobs!.reconcile(later);
    expect(fake.state.payments.get(paymentId).deleted).toBe(true);
  });

  it('the daily comparison applies money received for our charge, and lists what matches nothing of ours', async () => {
    // every event of the payment lost, and the 10-minute poll not yet due: the comparison applies it
    const { e, paymentId } = await paid(1);
    expect((await asaas.enrolment(e.id)).status).toBe('aguardando_pagamento');
    const day = saoPauloDay();
    // money that names no charge of ours: a charge made by hand in the provider's panel
    const headers = { access_token: fake.apiKey, 'content-type': 'application/json' };
    const customer = (await (
      await fetch(`${fake.url}/customers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: 'Pagador Avulso', cpfCnpj: '52998224725' }),
      })
    ).json()) as { id: string };
    const loose = (await (
      await fetch(`${fake.url}/payments`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ customer: customer.id, billingType: 'PIX', value: 55.5, dueDate: day }),
      })
    ).json()) as { id: string };
    fake.webhooks.lose(2);
    await fake.pay(loose.id);
    await asaas.settle();

    expect(await t.app.paymentJobs!.compareDay(day)).toBeGreaterThanOrEqual(1);
    const active = await asaas.enrolment(e.id);
    expect(active.status).toBe('ativa');
    const first = (await asaas.payments(e.id)).find((p) => p.tipo === 'primeiro')!;
    expect(first).toMatchObject({ status: 'pago', provedor_id: paymentId });
    const differences = await t.db
      .selectFrom('pagamentos_divergencias')
      .selectAll()
      .where('provedor_id', 'in', [paymentId, loose.id])
      .execute();
    expect(differences).toHaveLength(1);
    expect(differences[0]).toMatchObject({ dia: day, tipo: 'so_no_provedor', valor_provedor_centavos: 5550 });
    // a second comparison of the same day changes nothing and activates nothing twice
    await t.app.paymentJobs!.compareDay(day);
    expect((await asaas.payments(e.id)).filter((p) => p.status === 'pago')).toHaveLength(1);
    const staff = await createStaffUser(t.db, { papel: 'admin' });
    const cookie = await loginAs(t.app, staff.email, staff.password);
    const board = await t.app.inject({ url: '/admin/pagamentos', headers: { cookie } });
    expect(board.body).toContain(loose.id);
    expect(board.body).not.toContain(`>${paymentId}<`);
  });

  it('a monthly charge with every event lost is found by the daily sweep and counts toward inadimplência', async () => {
    const e = await asaas.enrol();
    const { paymentId } = await openPayment(e.codigo);
    await fake.pay(paymentId, { billingType: 'CREDIT_CARD' });
    // twice: the subscription made while the payment's events are handled sends events of its own
    await asaas.settle();
    await asaas.settle();
    const subId = (await asaas.enrolment(e.id)).assinatura_provedor_id!;
    // the subscription's first month, made with it, arrives and is paid as usual
    const firstMonth = (await asaas.payments(e.id)).filter((p) => p.tipo === 'mensalidade');
    expect(firstMonth).toHaveLength(1);
    await fake.pay(firstMonth[0]!.provedor_id!, { billingType: 'CREDIT_CARD' });
    await asaas.settle();
    const active = await asaas.enrolment(e.id);
    // the next one: created, refused and overdue, three events, none delivered
    fake.webhooks.lose(3);
    const renewal = await fake.renew(subId, { fail: true });
    await asaas.settle();
    expect((await asaas.payments(e.id)).filter((p) => p.provedor_id === renewal)).toHaveLength(0);
    const due = fake.state.payments.get(renewal).dueDate as string;
    expect(due).toBe(active.pago_ate);
    // before its due day the charge is not looked for
    await t.app.paymentJobs!.sweepSubscriptions(new Date(`${addDays(due, -1)}T15:00:00Z`));
    expect((await asaas.payments(e.id)).filter((p) => p.provedor_id === renewal)).toHaveLength(0);
    const late = new Date(`${addDays(due, 5)}T15:00:00Z`);
    expect(await t.app.paymentJobs!.sweepSubscriptions(late)).toBeGreaterThanOrEqual(1);
    const recovered = (await asaas.payments(e.id)).filter((p) => p.provedor_id === renewal);
    expect(recovered).toHaveLength(1);
    expect(recovered[0]).toMatchObject({ tipo: 'mensalidade', status: 'atrasado', vencimento: due });
    expect((await asaas.enrolment(e.id)).inadimplente_desde).not.toBeNull();
    // a second sweep keeps the one row
    await t.app.paymentJobs!.sweepSubscriptions(late);
    expect((await asaas.payments(e.id)).filter((p) => p.provedor_id === renewal)).toHaveLength(1);
  });

  it('charges the annual fee on its own each year, ten days before its month’s billing day, once', async () => {
    const e = await paidAndActive();
    const accepted = saoPauloDay(new Date(e.aceito_em));
    // a plan whose annual fee falls two months after the acceptance
    const feeMonth = Number(addDays(`${accepted.slice(0, 8)}01`, 62).slice(5, 7));
    await t.db
      .updateTable('matriculas')
      .set({ taxa_anual_centavos: 9900, taxa_anual_mes: feeMonth })
      .where('id', '=', e.id)
      .execute();
    const dueYear = Number(accepted.slice(0, 4)) + (feeMonth < Number(accepted.slice(5, 7)) ? 1 : 0);
    const due = `${dueYear}-${String(feeMonth).padStart(2, '0')}-${String(e.dia_vencimento).padStart(2, '0')}`;
    const at = (day: string) => new Date(`${day}T15:00:00Z`);
    const fees = async () => (await asaas.payments(e.id)).filter((p) => p.tipo === 'anuidade');

    await t.app.paymentJobs!.billAnnualFees(at(addDays(due, -11)));
    expect(await fees()).toHaveLength(0);
    // two runs at once (the daily task and an operator's): one row, one charge
    await Promise.all([
      t.app.paymentJobs!.billAnnualFees(at(addDays(due, -10))),
      t.app.paymentJobs!.billAnnualFees(at(addDays(due, -10))),
    ]);
    await t.app.paymentJobs!.billAnnualFees(at(addDays(due, -3)));
    const [fee] = await fees();
    expect(await fees()).toHaveLength(1);
    expect(fee).toMatchObject({
      valor_centavos: 9900,
      status: 'pendente',
      vencimento: due,
      referencia: `MAT${e.id}A${dueYear}`,
    });
    const atAsaas = asaas.chargesOf(`MAT${e.id}A${dueYear}`);
    expect(atAsaas).toHaveLength(1);
    expect(atAsaas[0]).toMatchObject({ id: fee!.provedor_id, value: 99, dueDate: due });

    // paid at Asaas: the webhook settles it, the paid period is not touched
    await fake.pay(fee!.provedor_id!);
    await asaas.settle();
    expect((await fees())[0]!.status).toBe('pago');
    expect((await asaas.enrolment(e.id)).pago_ate).toBe(e.pago_ate);
    expect((await history(e.id)).map((h) => h.detalhe).join('\n')).toMatch(/taxa anual de R\$\s99,00 lançada/);

    // the next year: a charge of its own
    await t.app.paymentJobs!.billAnnualFees(at(addDays(`${dueYear + 1}${due.slice(4)}`, -10)));
    expect((await fees()).map((f) => f.referencia)).toEqual([`MAT${e.id}A${dueYear}`, `MAT${e.id}A${dueYear + 1}`]);
    // cancelled before that year starts: its fee is called off at Asaas, the paid one stays
    const nextFee = (await fees())[1]!;
    const eightDaysAgo = nowIso(new Date(Date.now() - 8 * 86_400_000));
    await t.db.updateTable('matriculas').set({ aceito_em: eightDaysAgo }).where('id', '=', e.id).execute();
    expect((await act(await openMine(e.email), `/matricula/minha/${e.codigo}/cancelar`)).statusCode).toBe(303);
    expect((await fees()).map((f) => f.status)).toEqual(['pago', 'cancelado']);
    expect(fake.state.payments.get(nextFee.provedor_id!).deleted).toBe(true);

    // a fee of the month of acceptance was in the first payment: not charged again that year
    const other = await paidAndActive();
    const otherAccepted = saoPauloDay(new Date(other.aceito_em));
    await t.db
      .updateTable('matriculas')
      .set({ taxa_anual_centavos: 9900, taxa_anual_mes: Number(otherAccepted.slice(5, 7)) })
      .where('id', '=', other.id)
      .execute();
    await t.app.paymentJobs!.billAnnualFees(at(addDays(otherAccepted, 5)));
    expect((await asaas.payments(other.id)).filter((p) => p.tipo === 'anuidade')).toHaveLength(0);
  });
});

describe('/privacidade with Asaas', () => {
  it('names Asaas among the processors, with what it receives', async () => {
    const res = await t.app.inject('/privacidade');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<strong>Asaas</strong> (asaas.com)');
    expect(res.body).toContain('recebe nome, CPF, e-mail e WhatsApp de quem paga');
  });
});

// Webhook delivery against real receivers on 127.0.0.1: retries on the schedule with the same
// webhook-id, a receiver down for a while, the end of the schedule, the endpoint switched
// off after 3 days (admins told by mail), redirects, the 1 KB body cap, the time limit, a
// dead worker's lease, and two instances claiming at once. The clock is the test's.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emitWebhook } from '../../src/platform/webhooks/webhooks.repository';
import { deliverDueWebhooks, switchOffFailingEndpoints } from '../../src/platform/webhooks/worker';
import type { App } from '../../src/app';
import { createTestApp, secondInstance, type TestContext } from '../helpers/app';
import { refuseUpdate } from '../helpers/db';
import { createStaffUser } from '../helpers/staff';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver';

let t: TestContext;
let rx: TestReceiver;
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
let endpointId: number;

beforeAll(async () => {
  t = await createTestApp({
    seed: false,
    env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_WORKER: 'false', WEBHOOKS_TIMEOUT_MS: '700' },
  });
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

beforeEach(async () => {
  await t.db.deleteFrom('webhook_entregas').execute();
  await t.db.deleteFrom('webhook_endpoints').execute();
  endpointId = await t.app.webhooks.insertEndpoint(
    { url: rx.url, eventos: ['lead.criado', 'pesquisa.detrator'], segredo: SECRET, ativo: true },
    new Date().toISOString(),
  );
  rx.requests.length = 0;
  rx.acks.clear();
  rx.answer = () => ({ status: 200 });
});

const ctx = (app: App = t.app) => ({
  repo: app.webhooks,
  config: app.config.webhooks,
  publicUrl: app.config.publicUrl,
  brandName: app.config.brandName,
});
const deliver = (now?: Date, app?: App) => deliverDueWebhooks(ctx(app), { now, limit: 100 });
const at = (base: number, ms: number) => new Date(base + ms);
const rows = () => t.db.selectFrom('webhook_entregas').selectAll().orderBy('id').execute();
let seq = 0;
const emit = (type: 'lead.criado' | 'pesquisa.detrator' = 'lead.criado') =>
  emitWebhook(t.db, { type, origin: `teste:${++seq}`, data: { id: seq, unidade: { id: null, nome: null } } });

describe('retries', () => {
  it('a receiver failing three times gets it again, same webhook-id, after 5 s / 30 s / 2 min', async () => {
    rx.answer = (_r, nth) => (nth <= 3 ? { status: 500, body: 'erro interno' } : { status: 204 });
    await emit();
    const base = Date.now();
    expect((await deliver()).retried).toBe(1);
    let [row] = await rows();
    expect(row).toMatchObject({ status: 'pendente', tentativas: 1, ultimo_codigo: 500, ultimo_resultado: 'http' });
    expect(row!.ultima_resposta).toBe('erro interno');
    const gap1 = Date.parse(row!.proxima_tentativa_em) - base;
    expect(gap1).toBeGreaterThanOrEqual(4_000);
    expect(gap1).toBeLessThanOrEqual(6_000);
    // Not due before its time.
    expect((await deliver(at(base, 3_000))).claimed).toBe(0);
    expect((await deliver(at(base, 5_100))).retried).toBe(1);
    [row] = await rows();
    expect(Date.parse(row!.proxima_tentativa_em) - (base + 5_100)).toBe(30_000);
    expect((await deliver(at(base, 36_000))).retried).toBe(1);
    [row] = await rows();
    expect(Date.parse(row!.proxima_tentativa_em) - (base + 36_000)).toBe(120_000);
    expect((await deliver(at(base, 160_000))).delivered).toBe(1);
    [row] = await rows();
    expect(row).toMatchObject({ status: 'entregue', tentativas: 4, ultimo_codigo: 204, ultimo_resultado: 'ok' });
    expect((await deliver(at(base, 10 * 86_400_000))).claimed).toBe(0);

    expect(rx.requests).toHaveLength(4);
    expect(new Set(rx.requests.map((r) => r.id))).toEqual(new Set([row!.mensagem_id]));
    expect([...rx.acks.values()]).toEqual([1]);
    // Every attempt is signed anew, and verifies.
    for (const r of rx.requests) new Webhook(SECRET).verify(r.body, r.headers as Record<string, string>);
  });

  it('a receiver down for a while gets every event exactly once when it is back', async () => {
    await rx.down();
    for (let i = 0; i < 5; i++) await emit();
    const base = Date.now();
    expect((await deliver()).retried).toBe(5);
    expect((await deliver(at(base, 6_000))).retried).toBe(5);
    const down = await rows();
    expect(down.every((r) => r.ultimo_resultado === 'conexao' && r.ultimo_erro?.includes('ECONNREFUSED'))).toBe(true);
    await rx.resume();
    expect((await deliver(at(base, 40_000))).delivered).toBe(5);
    expect((await deliver(at(base, 86_400_000))).claimed).toBe(0);
    expect(rx.acks.size).toBe(5);
    expect([...rx.acks.values()].every((n) => n === 1)).toBe(true);
    expect(new Set((await rows()).map((r) => r.mensagem_id))).toEqual(new Set(rx.acks.keys()));
  });

  it('a receiver back after a long outage gets the waiting retries with the next success, not 10 min on', async () => {
    await rx.down();
    await emit();
    const base = Date.now();
    for (const ms of [0, 5_100, 35_200, 155_300]) expect((await deliver(at(base, ms))).retried).toBe(1);
    const [waiting] = await rows();
    expect(Date.parse(waiting!.proxima_tentativa_em) - (base + 155_300)).toBe(600_000);

    await rx.resume();
    await emit(); // a new event, due at once: its success shows the receiver is back
    expect((await deliver(at(base, 160_000))).delivered).toBe(1);
    const [brought] = await rows();
    expect(Date.parse(brought!.proxima_tentativa_em)).toBeLessThan(base + 161_000);
    expect((await deliver(at(base, 161_000))).delivered).toBe(1);
    expect(rx.acks.size).toBe(2);
    expect([...rx.acks.values()].every((n) => n === 1)).toBe(true);
    // A success while nothing was failing brings nothing forward.
    expect(await t.app.webhooks.endpointSucceeded(endpointId, at(base, 162_000).toISOString())).toBe(0);
  });

  it('records an acknowledged delivery through a database blip instead of sending it again', async () => {
    await emit();
    await refuseUpdate(t.db, 'webhook_entregas', 'status', 'entregue', true);
    const back = new Promise((r) => setTimeout(r, 1_200)).then(() =>
      refuseUpdate(t.db, 'webhook_entregas', 'status', 'entregue', false),
    );
    expect((await deliver()).delivered).toBe(1);
    await back;
    const [row] = await rows();
    expect(row).toMatchObject({ status: 'entregue', tentativas: 1 });
    expect((await deliver(at(Date.now(), 86_400_000))).claimed).toBe(0);
    expect(rx.requests).toHaveLength(1);
  });

  it('fails a delivery after its last attempt, switches the endpoint off after 3 days, mails admins', async () => {
    const admin = await createStaffUser(t.db, { papel: 'admin', email: `admin-${seq}@example.com` });
    await createStaffUser(t.db, { papel: 'gerente', email: `gerente-${seq}@example.com`, unidadeIds: [] });
    rx.answer = () => ({ status: 503 });
    await emit();
    const base = Date.now();
    let clock = base;
    let attempts = 0;
    for (;;) {
      const r = await deliver(new Date(clock));
      attempts += r.claimed;
      const [row] = await rows();
      if (row!.status === 'falhou') break;
      clock = Date.parse(row!.proxima_tentativa_em);
      expect(attempts).toBeLessThan(20);
    }
    const total = clock - base;
    expect(attempts).toBe(t.config.webhooks.retryDelaysMs.length + 1);
    expect(total).toBeGreaterThan(22 * 3_600_000);
    expect(total).toBeLessThan(28 * 3_600_000);
    let endpoint = (await t.app.webhooks.endpoint(endpointId))!;
    expect(endpoint.ativo).toBe(1);
    expect(endpoint.falhando_desde).toBeTruthy();

    // Two days later another event, failing too: three days after the first failure, off.
    await emit('pesquisa.detrator');
    await deliver(new Date(base + 2 * 86_400_000));
    expect((await t.app.webhooks.endpoint(endpointId))!.ativo).toBe(1);
    const mailsBefore = await t.db.selectFrom('fila_emails').selectAll().execute();
    await deliver(new Date(base + 3 * 86_400_000 + 60_000));
    endpoint = (await t.app.webhooks.endpoint(endpointId))!;
    expect(endpoint.ativo).toBe(0);
    expect(endpoint.desativado_motivo).toContain('3 dias');
    const mails = (await t.db.selectFrom('fila_emails').selectAll().execute()).slice(mailsBefore.length);
    expect(mails.map((m) => m.destinatario)).toContain(admin.email);
    expect(mails.map((m) => m.destinatario)).not.toContain(`gerente-${seq}@example.com`);
    expect(mails[0]!.assunto).toContain(rx.url);
    // Off: nothing new queued, nothing pending tried.
    await emit();
    expect((await rows()).filter((r) => r.status === 'pendente')).toHaveLength(1);
    expect((await deliver(new Date(base + 4 * 86_400_000))).claimed).toBe(0);
    expect((await t.app.webhooks.pendingStats()).count).toBe(0);
  });
});

describe('switch-off without new events', () => {
  const failForGood = async () => {
    rx.answer = () => ({ status: 503 });
    await emit();
    const base = Date.now();
    for (let i = 0; i < 20; i++) {
      await deliver(new Date(i ? Date.parse((await rows())[0]!.proxima_tentativa_em) : base));
      if ((await rows())[0]!.status === 'falhou') return base;
    }
    throw new Error('the delivery never failed for good');
  };

  it('an endpoint whose deliveries all failed for good is switched off 3 days on, once across instances', async () => {
    const admin = await createStaffUser(t.db, { papel: 'admin', email: `adm-quiet-${++seq}@example.com` });
    const base = await failForGood();
    // No new event ever comes: only the periodic pass can see the 3 days.
    await deliver(new Date(base + 2 * 86_400_000));
    expect((await t.app.webhooks.endpoint(endpointId))!.ativo).toBe(1);
    const mailsBefore = (await t.db.selectFrom('fila_emails').select('id').execute()).length;
    const other = await secondInstance(t);
    try {
      const later = new Date(base + 3 * 86_400_000 + 60_000);
      const [, , a, b] = await Promise.all([
        deliverDueWebhooks(ctx(t.app), { now: later }),
        deliverDueWebhooks(ctx(other), { now: later }),
        switchOffFailingEndpoints(ctx(t.app), later),
        switchOffFailingEndpoints(ctx(other), later),
      ]);
      // At most one of these four did it (a worker pass may have been first).
      expect(a + b).toBeLessThanOrEqual(1);
    } finally {
      await other.close();
    }
    const endpoint = (await t.app.webhooks.endpoint(endpointId))!;
    expect(endpoint.ativo).toBe(0);
    expect(endpoint.desativado_motivo).toContain('3 dias');
    const mails = (await t.db.selectFrom('fila_emails').selectAll().orderBy('id').execute()).slice(mailsBefore);
    expect(mails.filter((m) => m.destinatario === admin.email)).toHaveLength(1);
    expect(mails.every((m) => m.origem === 'webhook_desligado')).toBe(true);
    // Later passes mail nobody again.
    expect(await switchOffFailingEndpoints(ctx(), new Date(base + 5 * 86_400_000))).toBe(0);
    await deliver(new Date(base + 5 * 86_400_000));
    expect((await t.db.selectFrom('fila_emails').select('id').execute()).length).toBe(mailsBefore + mails.length);
  });

  it('a success within the 3 days keeps the endpoint on, even with the failing streak still marked', async () => {
    const now = Date.now();
    // A failure noted 4 days ago, and a delivery that succeeded yesterday (a success whose
    // attempt raced with the failure and did not clear the mark).
    await t.db
      .updateTable('webhook_endpoints')
      .set({ falhando_desde: new Date(now - 4 * 86_400_000).toISOString() })
      .where('id', '=', endpointId)
      .execute();
    await emit();
    await t.db
      .updateTable('webhook_entregas')
      .set({ status: 'entregue', tentativas: 1, entregue_em: new Date(now - 86_400_000).toISOString() })
      .execute();
    expect(await switchOffFailingEndpoints(ctx(), new Date(now))).toBe(0);
    expect((await t.app.webhooks.endpoint(endpointId))!.ativo).toBe(1);
    // With no success for 3 days it goes off.
    expect(await switchOffFailingEndpoints(ctx(), new Date(now + 2 * 86_400_000 + 60_000))).toBe(1);
    expect((await t.app.webhooks.endpoint(endpointId))!.ativo).toBe(0);
  });

  it('a success clears the failing streak', async () => {
    rx.answer = (_r, nth) => (nth === 1 ? { status: 500 } : { status: 200 });
    await emit();
    const base = Date.now();
    await deliver(new Date(base));
    expect((await t.app.webhooks.endpoint(endpointId))!.falhando_desde).toBeTruthy();
    await deliver(new Date(base + 10_000));
    expect((await rows())[0]!.status).toBe('entregue');
    expect((await t.app.webhooks.endpoint(endpointId))!.falhando_desde).toBeNull();
    expect(await switchOffFailingEndpoints(ctx(), new Date(base + 4 * 86_400_000))).toBe(0);
  });
});

describe('what a receiver can and cannot make us do', () => {
  it('does not follow a redirect (a 3xx is a failure)', async () => {
    const other = await startReceiver();
    try {
      rx.answer = () => ({ status: 302, headers: { location: other.url } });
      await emit();
      expect((await deliver()).retried).toBe(1);
      expect(other.requests).toHaveLength(0);
      const [row] = await rows();
      expect(row).toMatchObject({ ultimo_resultado: 'redirecionamento', ultimo_codigo: 302, status: 'pendente' });
      expect(row!.ultimo_erro).toContain(other.url);
    } finally {
      await other.close();
    }
  });

  it('keeps at most 1 KB of the answer', async () => {
    rx.answer = () => ({ status: 200, body: 'é'.repeat(200_000) });
    await emit();
    expect((await deliver()).delivered).toBe(1);
    const [row] = await rows();
    expect(Buffer.byteLength(row!.ultima_resposta!)).toBeLessThanOrEqual(1024);
    expect(row!.ultima_resposta!.length).toBeGreaterThan(400);
  });

  it('gives up on a receiver slower than the time limit and records the duration', async () => {
    rx.answer = () => ({ status: 200, delayMs: 2_500 });
    await emit();
    expect((await deliver()).retried).toBe(1);
    const [row] = await rows();
    expect(row).toMatchObject({ ultimo_resultado: 'tempo_esgotado', status: 'pendente' });
    expect(row!.ultima_duracao_ms).toBeGreaterThanOrEqual(650);
  });

  it('records the duration and code of a success', async () => {
    await emit();
    await deliver();
    const [row] = await rows();
    expect(row!.ultima_duracao_ms).not.toBeNull();
    expect(row!.ultimo_codigo).toBe(200);
  });
});

describe('several workers', () => {
  it("a dead worker's claim is taken over when its lease runs out, with the same webhook-id", async () => {
    await emit();
    const base = Date.now();
    // A worker claims the row and dies (nothing recorded, nothing renewed).
    const claimed = await t.app.webhooks.claimDue(
      new Date(base).toISOString(),
      new Date(base + t.config.webhooks.leaseMs).toISOString(),
      10,
      'morto',
    );
    expect(claimed).toHaveLength(1);
    expect((await deliver(at(base, 1_000))).claimed).toBe(0);
    expect((await t.app.webhooks.pendingStats(at(base, 1_000))).count).toBe(1);
    expect((await deliver(at(base, t.config.webhooks.leaseMs + 1))).delivered).toBe(1);
    expect(rx.requests.map((r) => r.id)).toEqual([claimed[0]!.mensagem_id]);
    // The dead worker's late record cannot overwrite the newer claim's outcome.
    expect(
      await t.app.webhooks.recordAttempt(
        claimed[0]!.id,
        'morto',
        1,
        { resultado: 'http', codigo: 500, duracaoMs: 1, resposta: null, erro: 'x', at: new Date().toISOString() },
        { status: 'falhou', at: null },
      ),
    ).toBe(false);
    expect((await rows())[0]!.status).toBe('entregue');
  });

  it('two instances delivering at once send each event exactly once', async () => {
    const other = await secondInstance(t);
    try {
      rx.answer = () => ({ status: 200, delayMs: 20 });
      for (let i = 0; i < 40; i++) await emit(i % 2 ? 'lead.criado' : 'pesquisa.detrator');
      const results = await Promise.all(
        [t.app, other, t.app, other].map((app) => deliverDueWebhooks(ctx(app), { limit: 15 })),
      );
      await deliver();
      expect(results.reduce((n, r) => n + r.delivered, 0) + 0).toBeGreaterThan(0);
      expect(rx.requests).toHaveLength(40);
      expect(rx.acks.size).toBe(40);
      expect([...rx.acks.values()].every((n) => n === 1)).toBe(true);
      expect((await rows()).every((r) => r.status === 'entregue')).toBe(true);
      expect((await t.app.webhooks.pendingStats()).count).toBe(0);
      expect(await t.app.webhooks.countsByResult()).toEqual([{ status: 'entregue', resultado: 'ok', n: 40 }]);
    } finally {
      await other.close();
    }
  });
});

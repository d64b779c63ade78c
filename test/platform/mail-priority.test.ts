// The outbox under production load: notifications to the chain before bulk mail, one
// Message-ID per message across retries, a short claim lease, batch size and interval as
// settings, one pooled SMTP connection for a whole batch.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueMail, MAIL_PRIORITY } from '../../src/platform/mail/outbox.repository';
import { deliverDueMail, startMailWorker } from '../../src/platform/mail/worker';
import { loadConfig } from '../../src/config';
import { notificationMail } from '../../src/features/feedback/messages/fale-aqui.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe('mail priority, Message-ID and lease', () => {
  let smtp: TestSmtp;
  let t: TestContext;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({ seed: false, env: smtp.env });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const clearQueue = async () => {
    await t.db.deleteFrom('fila_emails').execute();
    smtp.messages.length = 0;
  };

  it('sends a notification to the chain before an earlier burst of bulk mail', async () => {
    await clearQueue();
    for (let i = 0; i < 30; i++)
      await enqueueMail(t.db, { to: `lead${i}@example.com`, subject: `Lead ${i}`, text: 'x' });
    await enqueueMail(t.db, { to: 'rede@example.com', subject: 'Fale aqui', text: 'x', priority: MAIL_PRIORITY.chain });
    expect((await deliverDueMail(t.app, { limit: 1 })).sent).toBe(1);
    expect(smtp.messages[0]!.subject).toBe('Fale aqui');
    // The rest follow in the order they were queued.
    await deliverDueMail(t.app, { limit: 3 });
    expect(smtp.messages.slice(1).map((m) => m.subject)).toEqual(['Lead 0', 'Lead 1', 'Lead 2']);
  });

  it('keeps the Message-ID of a message across retries, and stores it', async () => {
    await clearQueue();
    const id = await enqueueMail(t.db, { to: 'destino@example.com', subject: 'Reenvio', text: 'x' });
    smtp.setRejecting(true);
    try {
      expect((await deliverDueMail(t.app)).retried).toBe(1);
    } finally {
      smtp.setRejecting(false);
    }
    const stored = await t.db
      .selectFrom('fila_emails')
      .select('message_id')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(stored.message_id).toMatch(/^<[0-9a-f-]{36}@localhost>$/);
    expect((await deliverDueMail(t.app, { now: later(2) })).sent).toBe(1);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.headers['message-id']).toBe(stored.message_id);
  });

  it('claims for at most a minute, so a dead instance’s batch is retried within it', async () => {
    await clearQueue();
    const id = await enqueueMail(t.db, { to: 'destino@example.com', subject: 'Lease', text: 'x' });
    // The server keeps the worker waiting mid-delivery: the row is claimed meanwhile.
    smtp.setHolding(true);
    const before = Date.now();
    const delivery = deliverDueMail(t.app);
    try {
      for (let i = 0; i < 100 && smtp.holding === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(smtp.holding).toBe(1);
      const row = await t.db.selectFrom('fila_emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(row.status).toBe('enviando');
      expect(Date.parse(row.bloqueado_ate!) - before).toBeLessThanOrEqual(61_000);
      // Another worker cannot take it while the lease holds.
      expect((await deliverDueMail(t.app, { now: new Date(Date.now() + 30_000) })).sent).toBe(0);
    } finally {
      smtp.setHolding(false);
      smtp.release();
    }
    expect((await delivery).sent).toBe(1);
  });

  it(`the worker drains a queue larger than a batch without waiting for the interval, over one \
connection`, async () => {
    await clearQueue();
    for (let i = 0; i < 25; i++) await enqueueMail(t.db, { to: `b${i}@example.com`, subject: `Lote ${i}`, text: 'x' });
    const config = { ...t.config, mail: { batchSize: 10, intervalMs: 60_000, leaseMs: 60_000 } };
    const connectionsBefore = smtp.connections;
    const worker = startMailWorker({ db: t.db, config });
    try {
      for (let i = 0; i < 100 && smtp.messages.length < 25; i++) await new Promise((r) => setTimeout(r, 50));
    } finally {
      await worker.stop();
    }
    expect(smtp.messages).toHaveLength(25);
    expect(smtp.connections - connectionsBefore).toBe(1);
  });

  it('on shutdown, finishes the message in flight and hands the rest of its batch back', async () => {
    await clearQueue();
    for (let i = 0; i < 3; i++) await enqueueMail(t.db, { to: `s${i}@example.com`, subject: `Parada ${i}`, text: 'x' });
    smtp.setHolding(true);
    const worker = startMailWorker({
      db: t.db,
      config: { ...t.config, mail: { batchSize: 10, intervalMs: 60_000, leaseMs: 60_000 } },
    });
    try {
      for (let i = 0; i < 100 && smtp.holding === 0; i++) await new Promise((r) => setTimeout(r, 20));
      expect(smtp.holding).toBe(1);
    } finally {
      smtp.setHolding(false);
    }
    const stopping = worker.stop();
    smtp.release();
    await stopping;
    expect(smtp.messages).toHaveLength(1);
    const rows = await t.db.selectFrom('fila_emails').select(['status', 'bloqueado_ate']).orderBy('id').execute();
    expect(rows.map((r) => r.status)).toEqual(['enviado', 'pendente', 'pendente']);
    expect(rows[1]!.bloqueado_ate).toBeNull();
  });

  it('queues the free-message notification as a notification to the chain, lead notices as bulk', () => {
    const mail = notificationMail(
      1,
      { unidade: 'Centro', nomeCompleto: 'Ana', anonimo: false, mensagem: 'Oi' },
      [],
      'rede@example.com',
    );
    expect(mail.priority).toBe(MAIL_PRIORITY.chain);
    expect(MAIL_PRIORITY.chain).toBeLessThan(MAIL_PRIORITY.bulk);
  });

  it('reads batch size, interval and lease from the settings, and refuses a lease over a minute', () => {
    const c = loadConfig({ MAIL_BATCH_SIZE: '7', MAIL_INTERVAL_MS: '2500', MAIL_LEASE_MS: '30000' });
    expect(c.mail).toEqual({ batchSize: 7, intervalMs: 2500, leaseMs: 30_000 });
    expect(loadConfig({}).mail).toEqual({ batchSize: 50, intervalMs: 5000, leaseMs: 60_000 });
    expect(() => loadConfig({ MAIL_LEASE_MS: '300000' })).toThrow(/MAIL_LEASE_MS/);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createDb } from '../../src/db/index';
import { enqueueMail } from '../../src/platform/mail/outbox.repository';
import { deliverDueMail, MAX_ATTEMPTS } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { refuseUpdate, TEST_ENGINE } from '../helpers/db';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const later = (minutes: number) => new Date(Date.now() + minutes * 60_000);

describe('outbox delivery', () => {
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

  const row = (id: number) => t.db.selectFrom('fila_emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  it('keeps a message while SMTP is down and delivers it exactly once when it is back', async () => {
    smtp.messages.length = 0;
    const id = await enqueueMail(t.db, {
      to: 'destino@example.com',
      subject: 'Teste de fila',
      text: 'Olá',
      origin: 'teste:1',
    });
    await smtp.stopListening();
    const down = await deliverDueMail(t.app);
    expect(down).toEqual({ sent: 0, retried: 1, failed: 0 });
    let r = await row(id);
    expect(r.status).toBe('pendente');
    expect(r.tentativas).toBe(1);
    expect(r.ultimo_erro).toMatch(/ECONNREFUSED|ESOCKET|ECONNECTION/);
    expect(r.proxima_tentativa_em > new Date().toISOString()).toBe(true);

    await smtp.resume();
    // Not due yet: backoff holds it.
    expect((await deliverDueMail(t.app)).sent).toBe(0);
    const up = await deliverDueMail(t.app, { now: later(2) });
    expect(up.sent).toBe(1);
    r = await row(id);
    expect(r.status).toBe('enviado');
    expect(r.enviado_em).toBeTruthy();
    expect(await deliverDueMail(t.app, { now: later(60) })).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.to).toEqual(['destino@example.com']);
    expect(smtp.messages[0]!.subject).toBe('Teste de fila');
  });

  it('records a message the server accepted as sent through a database blip, never sending it again', async () => {
    smtp.messages.length = 0;
    const id = await enqueueMail(t.db, {
      to: 'blip@example.com',
      subject: 'Queda curta',
      text: 'Olá',
      origin: 'teste:blip',
    });
    // The database refuses to mark it sent for a moment, as during a restart.
    await refuseUpdate(t.db, 'fila_emails', 'status', 'enviado', true);
    const back = new Promise((r) => setTimeout(r, 1_200)).then(() =>
      refuseUpdate(t.db, 'fila_emails', 'status', 'enviado', false),
    );
    expect(await deliverDueMail(t.app)).toEqual({ sent: 1, retried: 0, failed: 0 });
    await back;
    expect(await row(id)).toMatchObject({ status: 'enviado', tentativas: 0 });
    expect(await deliverDueMail(t.app, { now: later(60) })).toEqual({ sent: 0, retried: 0, failed: 0 });
    expect(smtp.messages.filter((m) => m.headers['x-outbox-id'] === String(id))).toHaveLength(1);
  });

  it('retries when the server answers 421 and backs off exponentially', async () => {
    smtp.messages.length = 0;
    smtp.setRejecting(true);
    const id = await enqueueMail(t.db, { to: 'destino@example.com', subject: 'Recusa temporária', text: 'x' });
    await deliverDueMail(t.app);
    const first = await row(id);
    await deliverDueMail(t.app, { now: later(1.5) });
    const second = await row(id);
    expect(second.tentativas).toBe(2);
    expect(second.ultimo_erro).toMatch(/421/);
    const gap1 = Date.parse(first.proxima_tentativa_em) - Date.now();
    const gap2 = Date.parse(second.proxima_tentativa_em) - later(1.5).getTime();
    expect(gap2).toBeGreaterThan(gap1);
    smtp.setRejecting(false);
    expect((await deliverDueMail(t.app, { now: later(10) })).sent).toBe(1);
    expect(smtp.messages).toHaveLength(1);
  });

  it(`marks a message failed after ${MAX_ATTEMPTS} attempts`, async () => {
    smtp.setRejecting(true);
    const id = await enqueueMail(t.db, { to: 'destino@example.com', subject: 'Nunca chega', text: 'x' });
    let minutes = 0;
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      await deliverDueMail(t.app, { now: later(minutes) });
      minutes += 7 * 60;
    }
    smtp.setRejecting(false);
    const r = await row(id);
    expect(r.status).toBe('falhou');
    expect(r.tentativas).toBe(MAX_ATTEMPTS);
    expect((await deliverDueMail(t.app, { now: later(minutes + 60) })).sent).toBe(0);
  });

  it('keeps header values on one line and attaches files from UPLOADS_DIR', async () => {
    smtp.messages.length = 0;
    mkdirSync(path.join(t.uploadsDir, 'fale_aqui/2026/11'), { recursive: true });
    writeFileSync(path.join(t.uploadsDir, 'fale_aqui/2026/11/a.txt'), 'conteudo do anexo');
    await enqueueMail(t.db, {
      to: 'destino@example.com',
      subject: 'Assunto\r\nBcc: vitima@example.com',
      text: 'corpo',
      attachments: [{ filename: 'a.txt', path: 'fale_aqui/2026/11/a.txt', contentType: 'text/plain' }],
    });
    expect((await deliverDueMail(t.app)).sent).toBe(1);
    const m = smtp.messages[0]!;
    expect(m.to).toEqual(['destino@example.com']);
    expect(m.headers.bcc).toBeUndefined();
    expect(m.subject).toBe('Assunto Bcc: vitima@example.com');
    expect(m.raw).toContain('a.txt');
  });

  it('refuses an attachment path that leaves UPLOADS_DIR', async () => {
    const id = await enqueueMail(t.db, {
      to: 'destino@example.com',
      subject: 'Anexo fora',
      text: 'x',
      attachments: [{ filename: 'passwd', path: '../../../etc/passwd', contentType: 'text/plain' }],
    });
    await deliverDueMail(t.app);
    expect((await row(id)).ultimo_erro).toMatch(/fora da pasta/);
  });

  it('two workers on two database handles deliver each message once', async () => {
    smtp.messages.length = 0;
    // Engine-specific claim: FOR UPDATE SKIP LOCKED on PostgreSQL, the write lock on SQLite.
    expect(['sqlite', 'postgres']).toContain(TEST_ENGINE);
    const other = createDb(t.testDb.config);
    try {
      const ids: number[] = [];
      for (let i = 0; i < 40; i++)
        ids.push(await enqueueMail(t.db, { to: `p${i}@example.com`, subject: `Lote ${i}`, text: 'x' }));
      const a = { db: t.db, config: t.config };
      const b = { db: other.db, config: t.config };
      const results = await Promise.all([
        deliverDueMail(a, { limit: 5 }),
        deliverDueMail(b, { limit: 5 }),
        deliverDueMail(a, { limit: 5 }),
        deliverDueMail(b, { limit: 5 }),
      ]);
      let total = results.reduce((n, r) => n + r.sent, 0);
      while (total < 40) {
        const more = await Promise.all([deliverDueMail(a, { limit: 7 }), deliverDueMail(b, { limit: 7 })]);
        const sent = more.reduce((n, r) => n + r.sent, 0);
        if (sent === 0) break;
        total += sent;
      }
      expect(total).toBe(40);
      const outboxIds = smtp.messages.map((m) => Number(m.headers['x-outbox-id']));
      expect(outboxIds).toHaveLength(40);
      expect(new Set(outboxIds).size).toBe(40);
      expect([...outboxIds].sort((x, y) => x - y)).toEqual(ids);

      if (TEST_ENGINE === 'postgres') {
        // A row locked by another instance is skipped, not waited for.
        smtp.messages.length = 0;
        const locked = await enqueueMail(t.db, { to: 'travada@example.com', subject: 'Travada', text: 'x' });
        await enqueueMail(t.db, { to: 'livre@example.com', subject: 'Livre', text: 'x' });
        await other.db.transaction().execute(async (trx) => {
          await sql`select id from fila_emails where id = ${locked} for update`.execute(trx);
          expect((await deliverDueMail(a)).sent).toBe(1);
        });
        expect(smtp.messages.map((m) => m.to[0])).toEqual(['livre@example.com']);
        expect((await deliverDueMail(a)).sent).toBe(1);
        expect(smtp.messages.map((m) => m.to[0])).toEqual(['livre@example.com', 'travada@example.com']);
      }
    } finally {
      await other.destroy();
    }
  });

  it('takes over a message whose claim expired (a worker died mid-send)', async () => {
    smtp.messages.length = 0;
    const id = await enqueueMail(t.db, { to: 'destino@example.com', subject: 'Órfã', text: 'x' });
    await t.db
      .updateTable('fila_emails')
      .set({ status: 'enviando', bloqueado_ate: later(5).toISOString() })
      .where('id', '=', id)
      .execute();
    expect((await deliverDueMail(t.app)).sent).toBe(0);
    expect((await deliverDueMail(t.app, { now: later(6) })).sent).toBe(1);
    expect(smtp.messages).toHaveLength(1);
  });
});

describe('outbox with SMTP authentication', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(async () => t?.close());

  it('records an authentication failure and delivers once the password is right', async () => {
    const smtp = await startSmtp({ user: 'mailer', pass: 'certa-123' });
    try {
      const smtpConfig = { host: '127.0.0.1', port: smtp.port, secure: 'none' as const, user: 'mailer' };
      const bad = { db: t.db, config: { ...t.config, smtp: { ...smtpConfig, pass: 'errada-456' } } };
      const id = await enqueueMail(t.db, { to: 'destino@example.com', subject: 'Com login', text: 'x' });
      const res = await deliverDueMail(bad);
      expect(res.retried).toBe(1);
      const r = await t.db.selectFrom('fila_emails').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(r.status).toBe('pendente');
      expect(r.ultimo_erro).toMatch(/EAUTH/);
      expect(r.ultimo_erro).not.toContain('errada-456');
      const fixed = { db: t.db, config: { ...t.config, smtp: { ...smtpConfig, pass: 'certa-123' } } };
      expect((await deliverDueMail(fixed, { now: later(2) })).sent).toBe(1);
      expect(smtp.messages).toHaveLength(1);
    } finally {
      await smtp.close();
    }
  });
});

describe('the in-process worker', () => {
  it('starts with the app when MAIL_WORKER is on and SMTP is configured, and delivers queued mail', async () => {
    const smtp = await startSmtp();
    const w = await createTestApp({ seed: false, env: { ...smtp.env, MAIL_WORKER: 'true' } });
    try {
      await enqueueMail(w.db, { to: 'auto@example.com', subject: 'Pelo worker', text: 'x' });
      // The first tick runs about a second after start; poll the outcome, not the timing.
      for (let i = 0; i < 100 && smtp.messages.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      expect(smtp.messages.map((m) => m.subject)).toEqual(['Pelo worker']);
    } finally {
      await w.close();
      await smtp.close();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { startSmtp, type TestSmtp } from '../helpers/smtp';

const URL = '/pages/Franquia/index.php';
const lead = {
  nome_completo: 'João Ninguém\r\nBcc: intruso@example.com',
  whatsapp: '21 3456-7890',
  email: 'joao@example.com',
  cidade_regiao: 'Niterói',
  investimento_parceria: 'com_socios',
  faixa_investimento: 'acima_1milhao',
  prazo_proximo_passo: 'imediato',
  experiencia_negocio: 'franqueado',
  motivo_interesse: 'oportunidade_regiao',
  aceita_contato: 'sim',
};

describe('new lead notification', () => {
  let smtp: TestSmtp;
  let t: TestContext;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp({
      seed: false,
      env: { ...smtp.env, FRANCHISE_NOTIFICATION_EMAIL: 'expansao@example.com', NOTIFICATION_EMAIL: 'sac@example.com' },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  async function post(app = t.app, remoteAddress = '10.70.0.1') {
    const page = await fetchForm(app, URL);
    return app.inject({
      method: 'POST',
      url: URL,
      remoteAddress,
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token, ...lead, nome_completo: 'João Ninguém' }),
    });
  }

  it(`queues one message to FRANCHISE_NOTIFICATION_EMAIL in the lead transaction, and it reaches only that \
address`, async () => {
    expect((await post()).statusCode).toBe(303);
    const queued = await t.db.selectFrom('fila_emails').selectAll().execute();
    expect(queued).toHaveLength(1);
    const stored = await t.db.selectFrom('franquia_leads').select('id').executeTakeFirstOrThrow();
    expect(queued[0]).toMatchObject({
      destinatario: 'expansao@example.com',
      status: 'pendente',
      origem: `franquia_leads:${stored.id}`,
    });
    expect((await deliverDueMail(t.app)).sent).toBe(1);
    expect(smtp.messages).toHaveLength(1);
    const m = smtp.messages[0]!;
    expect(m.to).toEqual(['expansao@example.com']);
    expect(m.subject).toBe('Novo lead de franquia: João Ninguém (Niterói)');
    expect(m.headers.cc).toBeUndefined();
    expect(m.headers.bcc).toBeUndefined();
  });

  it('keeps a hostile name on one header line', async () => {
    smtp.messages.length = 0;
    // The form refuses control characters in the name, so this goes straight to the service path.
    const { createLeadService } = await import('../../src/features/franchise/lead.service');
    const { createLeadsRepository } = await import('../../src/features/franchise/leads.repository');
    const { transactional } = await import('../../src/db/transactional');
    const leads = createLeadService({ repo: transactional(t.db, createLeadsRepository), config: t.config });
    await leads.store({ ...lead, whatsapp: '+552134567890' }, null, t.app.log);
    await deliverDueMail(t.app);
    expect(smtp.messages).toHaveLength(1);
    expect(smtp.messages[0]!.to).toEqual(['expansao@example.com']);
    expect(smtp.messages[0]!.headers.bcc).toBeUndefined();
  });

  it('queues nothing when FRANCHISE_NOTIFICATION_EMAIL is not set', async () => {
    const app = await buildApp(
      { ...t.config, franchiseNotificationEmail: null },
      { db: t.testDb.handle, logger: false },
    );
    await app.ready();
    try {
      const before = (await t.db.selectFrom('fila_emails').select('id').execute()).length;
      expect((await post(app, '10.70.0.2')).statusCode).toBe(303);
      expect((await t.db.selectFrom('fila_emails').select('id').execute()).length).toBe(before);
    } finally {
      await app.close();
    }
  });
});

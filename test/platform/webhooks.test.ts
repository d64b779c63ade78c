// Outgoing webhooks end to end: the admins' screens (secret shown once, test button, log,
// resend), the CLI, SSRF refusals at save, and every event kind signed and verified by a
// real receiver with the `standardwebhooks` package.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingRepository } from '../../src/features/booking/booking.repository';
import { createBookingService } from '../../src/features/booking/booking.service';
import { createStaffService } from '../../src/features/booking/staff.service';
import { createFeedbackServices } from '../../src/features/feedback/services';
import { transactional } from '../../src/db/transactional';
import { deliverDueWebhooks } from '../../src/platform/webhooks/worker';
import { WEBHOOK_EVENTS } from '../../src/platform/webhooks/events';
import { createTestApp, type TestContext } from '../helpers/app';
import { fetchForm, form } from '../helpers/http';
import { createStaffUser, loginAs, staffToken } from '../helpers/staff';
import { postMessage } from '../helpers/upload';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver';

let t: TestContext;
let rx: TestReceiver;
let cookie: string;
let ip = 0;
const nextIp = () => `10.91.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`;

beforeAll(async () => {
  t = await createTestApp({ env: { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_WORKER: 'false' } });
  rx = await startReceiver();
  const admin = await createStaffUser(t.db, { papel: 'admin' });
  cookie = await loginAs(t.app, admin.email, admin.password);
});
afterAll(async () => {
  await rx?.close();
  await t?.close();
});

const worker = () => ({
  repo: t.app.webhooks,
  config: t.config.webhooks,
  publicUrl: t.config.publicUrl,
  brandName: t.config.brandName,
});
const deliver = (now?: Date) => deliverDueWebhooks(worker(), { now, limit: 100 });

async function adminPost(url: string, fields: Record<string, string | string[]>, accept?: string) {
  const token = await staffToken(t.app, cookie, '/admin/webhooks');
  const pairs: [string, string][] = [['csrf_token', token]];
  for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) pairs.push([k, x]);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...(accept ? { accept } : {}) },
    payload: form(pairs),
  });
}

describe('the admin screens', () => {
  it('are for admins only', async () => {
    expect((await t.app.inject('/admin/webhooks')).statusCode).toBeGreaterThanOrEqual(300);
    const manager = await createStaffUser(t.db, { papel: 'gerente', unidadeIds: [1] });
    const managerCookie = await loginAs(t.app, manager.email, manager.password);
    const res = await t.app.inject({ url: '/admin/webhooks', headers: { cookie: managerCookie } });
    expect(res.statusCode).toBe(403);
  });

  it('refuses bad URLs and no events with messages by each field, storing nothing', async () => {
    const cases: [string, RegExp][] = [
      ['http://exemplo.com.br/gancho', /https:\/\//],
      ['ftp://exemplo.com.br', /https:\/\//],
      ['nao é url', /Endereço inválido/],
      ['https://usuario:senha@exemplo.com.br/x', /usuário e senha/],
    ];
    for (const [url, message] of cases) {
      const res = await adminPost('/admin/webhooks', { url, eventos: 'lead.criado' });
      expect(res.statusCode).toBe(422);
      expect(res.body).toMatch(message);
      expect(res.body).toContain('value="lead.criado" checked');
    }
    const none = await adminPost('/admin/webhooks', { url: 'https://exemplo.com.br/x' });
    expect(none.statusCode).toBe(422);
    expect(none.body).toContain('Escolha pelo menos um evento');
    const unknown = await adminPost('/admin/webhooks', { url: 'https://exemplo.com.br/x', eventos: 'lead.apagado' });
    expect(unknown.statusCode).toBe(422);
    expect(await t.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
  });

  it('creates an endpoint showing the secret once, sends a test, logs it and resends it', async () => {
    const res = await adminPost('/admin/webhooks', {
      url: rx.url,
      eventos: ['lead.criado', 'pesquisa.detrator'],
      ativo: '1',
    });
    expect(res.statusCode).toBe(201);
    expect(res.headers['cache-control']).toContain('no-store');
    const secret = /<code id="segredo">(whsec_[A-Za-z0-9+/=]+)<\/code>/.exec(res.body)?.[1];
    expect(secret).toBeTruthy();
    // 24 random bytes
    expect(Buffer.from(secret!.slice(6), 'base64')).toHaveLength(24);
    const endpoint = await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow();
    expect(endpoint.eventos).toBe(',lead.criado,pesquisa.detrator,');

    // Never shown again: not on the list, not on the endpoint's page.
    const list = await t.app.inject({ url: '/admin/webhooks', headers: { cookie } });
    expect(list.body).toContain(rx.url);
    expect(list.body).not.toContain(secret);
    const page = await t.app.inject({ url: `/admin/webhooks/${endpoint.id}`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain(secret);
    expect(page.body).toContain('Enviar teste');

    const test = await adminPost(`/admin/webhooks/${endpoint.id}/teste`, {});
    expect(test.statusCode).toBe(303);
    rx.requests.length = 0;
    expect((await deliver()).delivered).toBe(1);
    expect(rx.requests).toHaveLength(1);
    const sent = new Webhook(secret!).verify(rx.requests[0]!.body, rx.requests[0]!.headers as Record<string, string>);
    expect(sent).toMatchObject({ type: 'webhook.teste', data: { endpoint_id: endpoint.id } });

    const log = await t.app.inject({ url: `/admin/webhooks/${endpoint.id}`, headers: { cookie } });
    expect(log.body).toContain('webhook.teste');
    expect(log.body).toContain('Entregue');
    expect(log.body).toContain(rx.requests[0]!.id);
    expect(log.body).toMatch(/\d+ ms/);

    const delivery = await t.db.selectFrom('webhook_entregas').selectAll().executeTakeFirstOrThrow();
    expect(delivery).toMatchObject({ status: 'entregue', ultimo_resultado: 'ok', ultimo_codigo: 200, tentativas: 1 });
    const again = await adminPost(`/admin/webhooks/${endpoint.id}/entregas/${delivery.id}/reenviar`, {});
    expect(again.statusCode).toBe(303);
    expect((await deliver()).delivered).toBe(1);
    // The same webhook-id: the receiver may drop the repeat.
    expect(rx.requests.map((r) => r.id)).toEqual([delivery.mensagem_id, delivery.mensagem_id]);
    // Another endpoint's delivery cannot be resent through this one's address.
    expect(
      (await adminPost(`/admin/webhooks/${endpoint.id + 1}/entregas/${delivery.id}/reenviar`, {})).statusCode,
    ).toBe(404);
  });

  it('a refused edit comes back with the endpoint as it is (state, delivery log) and changes nothing', async () => {
    const endpoint = await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow();
    const delivery = await t.db.selectFrom('webhook_entregas').selectAll().executeTakeFirstOrThrow();
    const res = await adminPost(`/admin/webhooks/${endpoint.id}`, { url: 'http://exemplo.com.br/x', ativo: '1' });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('https://');
    expect(res.body).toContain('Escolha pelo menos um evento');
    expect(res.body).toContain('value="http://exemplo.com.br/x"');
    expect(res.body).toContain(delivery.mensagem_id);
    expect(await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow()).toEqual(endpoint);
    expect((await adminPost('/admin/webhooks/99999', { url: 'ftp://x' })).statusCode).toBe(404);
  });

  it('edits, switches off (no events queued) and deletes an endpoint', async () => {
    const endpoint = await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow();
    const off = await adminPost(`/admin/webhooks/${endpoint.id}`, { url: rx.url, eventos: ['lead.criado'] });
    expect(off.statusCode).toBe(303);
    expect(await t.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow()).toMatchObject({
      ativo: 0,
      eventos: ',lead.criado,',
    });
    const before = await t.db.selectFrom('webhook_entregas').selectAll().execute();
    const lead = await postLead();
    expect(lead.statusCode).toBe(303);
    expect(await t.db.selectFrom('webhook_entregas').selectAll().execute()).toEqual(before);
    const del = await adminPost(`/admin/webhooks/${endpoint.id}/excluir`, {});
    expect(del.statusCode).toBe(303);
    expect(await t.db.selectFrom('webhook_endpoints').selectAll().execute()).toEqual([]);
    expect(await t.db.selectFrom('webhook_entregas').selectAll().execute()).toEqual([]);
  });
});

describe('a double submit of "Cadastrar endpoint"', () => {
  const secretOf = (body: string) => /<code id="segredo">(whsec_[A-Za-z0-9+/=]+)<\/code>/.exec(body)?.[1];
  const endpoints = () => t.db.selectFrom('webhook_endpoints').selectAll().orderBy('id').execute();

  it('stores one endpoint and answers both clicks with it; another content under the key is stored', async () => {
    await t.db.deleteFrom('webhook_endpoints').execute();
    const page = await t.app.inject({ url: '/admin/webhooks', headers: { cookie } });
    const envio = /name="envio_id" value="([A-Za-z0-9_-]{8,64})"/.exec(page.body)?.[1];
    expect(envio).toBeTruthy();
    const fields = { url: rx.url, eventos: ['lead.criado', 'mensagem.recebida'], ativo: '1', envio_id: envio! };
    const [a, b] = await Promise.all([adminPost('/admin/webhooks', fields), adminPost('/admin/webhooks', fields)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
    const stored = await endpoints();
    expect(stored).toHaveLength(1);
    // The browser shows only the last answer: both carry the one secret.
    expect(secretOf(a.body)).toBe(stored[0]!.segredo);
    expect(secretOf(b.body)).toBe(stored[0]!.segredo);
    // A third click, as JSON: the same endpoint, nothing new.
    const json = await adminPost('/admin/webhooks', fields, 'application/json');
    expect(json.statusCode).toBe(200);
    expect(json.json()).toMatchObject({ ok: true, id: stored[0]!.id, repetido: true });
    expect(await endpoints()).toHaveLength(1);

    // The page the back button restored, sent with another address: a new endpoint.
    const other = await adminPost('/admin/webhooks', { ...fields, url: `${rx.url}/outro` });
    expect(other.statusCode).toBe(201);
    expect(await endpoints()).toHaveLength(2);
    expect(secretOf(other.body)).not.toBe(stored[0]!.segredo);

    // Long after, the same form again: nothing stored, the secret not shown again.
    await t.db
      .updateTable('webhook_endpoints')
      .set({ criado_em: new Date(Date.now() - 60 * 60_000).toISOString() })
      .where('id', '=', stored[0]!.id)
      .execute();
    const late = await adminPost('/admin/webhooks', fields);
    expect(late.statusCode).toBe(303);
    expect(late.headers.location).toBe(`/admin/webhooks/${stored[0]!.id}?ok=repetido`);
    expect(late.body).not.toContain('whsec_');
    expect(await endpoints()).toHaveLength(2);
    const notice = await t.app.inject({ url: late.headers.location as string, headers: { cookie } });
    expect(notice.body).toContain('já tinha sido enviado');
    expect(notice.body).not.toContain(stored[0]!.segredo);
  });

  it('"Enviar teste" clicked twice queues one test event', async () => {
    await t.db.deleteFrom('webhook_endpoints').execute();
    const created = await adminPost(
      '/admin/webhooks',
      { url: rx.url, eventos: 'lead.criado', ativo: '1' },
      'application/json',
    );
    const id = created.json().id as number;
    const page = await t.app.inject({ url: `/admin/webhooks/${id}`, headers: { cookie } });
    const envio = new RegExp(`action="/admin/webhooks/${id}/teste"[^]*?name="envio_id" value="([^"]+)"`).exec(
      page.body,
    )?.[1];
    expect(envio).toBeTruthy();
    const clicks = await Promise.all([1, 2].map(() => adminPost(`/admin/webhooks/${id}/teste`, { envio_id: envio! })));
    expect(clicks.map((c) => c.statusCode)).toEqual([303, 303]);
    const tests = () => t.db.selectFrom('webhook_entregas').selectAll().where('endpoint_id', '=', id).execute();
    expect(await tests()).toHaveLength(1);
    // The page after the redirect has a new key: the next click is a test of its own.
    expect((await adminPost(`/admin/webhooks/${id}/teste`, {})).statusCode).toBe(303);
    expect(await tests()).toHaveLength(2);
    await t.db.deleteFrom('webhook_entregas').execute();
    await t.db.deleteFrom('webhook_endpoints').execute();
  });

  it('a refused submission stores nothing under its key: corrected, it is stored once', async () => {
    await t.db.deleteFrom('webhook_endpoints').execute();
    const envio = 'chave-de-teste-0001';
    const bad = await adminPost('/admin/webhooks', { url: 'ftp://x', eventos: 'lead.criado', envio_id: envio });
    expect(bad.statusCode).toBe(422);
    // The form comes back with its key, so the corrected submission is still deduplicated.
    expect(bad.body).toContain(`name="envio_id" value="${envio}"`);
    const fields = { url: rx.url, eventos: 'lead.criado', ativo: '1', envio_id: envio };
    expect((await adminPost('/admin/webhooks', fields)).statusCode).toBe(201);
    expect((await adminPost('/admin/webhooks', fields)).statusCode).toBe(200);
    expect(await endpoints()).toHaveLength(1);
    await t.db.deleteFrom('webhook_endpoints').execute();
  });
});

describe('server-side request forgery', () => {
  it('refuses internal addresses at save unless WEBHOOKS_ALLOW_PRIVATE', async () => {
    const strict = await createTestApp({ seed: false, env: { WEBHOOKS_WORKER: 'false' } });
    try {
      const { webhooksServices } = await import('../../src/platform/webhooks/services');
      const { service } = webhooksServices(strict.db, strict.config.webhooks);
      for (const url of [
        'http://127.0.0.1:8080/x',
        'http://localhost/x',
        'https://10.0.0.5/x',
        'https://192.168.1.1/x',
        'https://172.16.3.4/x',
        'https://169.254.169.254/latest/meta-data',
        'https://100.64.0.1/x',
        'https://[::1]/x',
        'https://[fd00::1]/x',
        'https://[fe80::1]/x',
        'https://[::ffff:10.0.0.1]/x',
        'https://[::7f00:1]/x',
        'https://[::ffff:7f00:1]/x',
        'https://0.0.0.0/x',
        'https://224.0.0.1/x',
      ]) {
        const r = await service.create({ url, eventos: 'lead.criado' });
        expect(r.ok, url).toBe(false);
        if (!r.ok) expect(r.errors.url, url).toMatch(/recusado|interno/);
      }
      // A public address literal is accepted (no DNS needed).
      expect((await service.create({ url: 'https://93.184.215.14/gancho', eventos: 'lead.criado' })).ok).toBe(true);
      // At delivery time too: an endpoint stored while allowed is refused when it is not.
      const id = await strict.app.webhooks.insertEndpoint(
        {
          url: rx.url,
          eventos: ['lead.criado'],
          segredo: `whsec_${Buffer.alloc(24, 1).toString('base64')}`,
          ativo: true,
        },
        new Date().toISOString(),
      );
      await strict.app.webhooks.queueTest(id, '{}', new Date().toISOString());
      rx.requests.length = 0;
      const result = await deliverDueWebhooks(
        { repo: strict.app.webhooks, config: strict.config.webhooks, publicUrl: '', brandName: '' },
        { limit: 10 },
      );
      expect(result.retried).toBeGreaterThanOrEqual(1);
      expect(rx.requests).toHaveLength(0);
      const row = await strict.db
        .selectFrom('webhook_entregas')
        .selectAll()
        .where('endpoint_id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.ultimo_resultado).toBe('endereco_recusado');
    } finally {
      await strict.close();
    }
  });
});

async function postLead() {
  const page = await fetchForm(t.app, '/pages/Franquia/index.php');
  return t.app.inject({
    method: 'POST',
    url: '/pages/Franquia/index.php',
    remoteAddress: nextIp(),
    headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form({
      csrf_token: page.token,
      nome_completo: 'Maria José da Conceição',
      whatsapp: '(11) 98765-4321',
      email: 'maria@example.com',
      cidade_regiao: 'Campinas - SP',
      investimento_parceria: 'sozinho',
      faixa_investimento: '300mil_500mil',
      prazo_proximo_passo: 'ate_3_meses',
      experiencia_negocio: 'empresario',
      motivo_interesse: 'ter_meu_negocio',
      aceita_contato: 'sim',
    }),
  });
}

describe('every event kind', () => {
  it('reaches a subscribed receiver signed as standardwebhooks verifies, with the unit, no photo bytes', async () => {
    const created = await adminPost(
      '/admin/webhooks',
      { url: rx.url, eventos: WEBHOOK_EVENTS.map((e) => e.type), ativo: '1' },
      'application/json',
    );
    expect(created.statusCode).toBe(201);
    const { segredo } = created.json() as { id: number; segredo: string };
    rx.requests.length = 0;

    // lead.criado
    expect((await postLead()).statusCode).toBe(303);
    // mensagem.recebida, with a photo
    const sharp = (await import('sharp')).default;
    const png = await sharp({ create: { width: 30, height: 30, channels: 4, background: '#3060c0' } })
      .png()
      .toBuffer();
    const msg = await postMessage(
      t.app,
      { unidade_id: '1', unidade: '', nome_completo: 'João', mensagem: 'A esteira 3 parou.' },
      [{ name: 'foto.png', type: 'image/png', data: png }],
    );
    expect(msg.statusCode).toBe(303);
    const message = await t.db.selectFrom('fale_aqui').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    // mensagem.status: opened (lida), then resolved
    expect((await t.app.inject({ url: `/admin/mensagens/${message.id}`, headers: { cookie } })).statusCode).toBe(200);
    const token = await staffToken(t.app, cookie, `/admin/mensagens/${message.id}`);
    const st = await t.app.inject({
      method: 'POST',
      url: `/admin/mensagens/${message.id}/status`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: token, status: 'resolvida' }),
    });
    expect(st.statusCode).toBe(303);
    // pesquisa.respondida + pesquisa.detrator (score 3)
    const feedback = createFeedbackServices(t.app);
    const questions = await t.db.selectFrom('perguntas').select(['id', 'tipo']).orderBy('ordem').execute();
    const options = await t.db.selectFrom('perguntas_opcoes').select(['id', 'pergunta_id', 'valor']).execute();
    const pick = (q: number, v: number) => options.find((o) => o.pergunta_id === q && o.valor === v)!.id;
    const survey = await feedback.survey.submit({
      unidade_id: '1',
      [`respostas[${questions[0]!.id}]`]: String(pick(questions[0]!.id, 3)),
      [`respostas[${questions[1]!.id}]`]: String(pick(questions[1]!.id, 4)),
      [`respostas[${questions[2]!.id}]`]: String(pick(questions[2]!.id, 3)),
      comentario: 'Vestiário sujo',
    });
    expect(survey.status).toBe('stored');
    // aula_experimental.agendada + .status
    const repo = transactional(t.db, createBookingRepository);
    const booking = createBookingService({ config: t.config }, repo);
    const unit = (await booking.activeUnit(1))!;
    const slot = (await booking.offeredDays(unit, new Date())).slice(2).flatMap((d) => d.slots)[0]!;
    const booked = await booking.book(1, {
      nome: 'Ana Souza',
      whatsapp: '(11) 98888-7777',
      email: 'ana@example.com',
      aceita_contato: 'sim',
      vaga: slot.value,
      envio_id: 'envio-webhook-teste-0001',
    });
    expect(booked.kind).toBe('booked');
    const staffUser = (await t.db.selectFrom('usuarios').selectAll().where('papel', '=', 'admin').executeTakeFirst())!;
    const staff = createStaffService(repo, { publicUrl: t.config.publicUrl });
    const bookingId = (booked as { booking: { id: number } }).booking.id;
    expect(
      await staff.setStatus(
        { id: staffUser.id, papel: 'admin', unidadeIds: [] } as never,
        bookingId,
        'compareceu',
        new Date(),
      ),
    ).toBe('ok');

    expect((await deliver()).delivered).toBeGreaterThanOrEqual(8);
    const wh = new Webhook(segredo);
    const events = rx.requests.map((r) => {
      expect(r.id).toMatch(/^msg_/);
      expect(Number(r.timestamp)).toBeGreaterThan(Date.now() / 1000 - 60);
      expect(r.signature).toMatch(/^v1,/);
      return wh.verify(r.body, r.headers as Record<string, string>) as {
        type: string;
        timestamp: string;
        data: Record<string, any>;
      };
    });
    // A tampered body is refused by the same check.
    expect(() => wh.verify(rx.requests[0]!.body.replace(/}$/, ',"x":1}'), rx.requests[0]!.headers as never)).toThrow();
    const types = events.map((e) => e.type).sort();
    expect(types).toEqual(
      [
        'aula_experimental.agendada',
        'aula_experimental.status',
        'lead.criado',
        'mensagem.recebida',
        'mensagem.status',
        'mensagem.status',
        'pesquisa.detrator',
        'pesquisa.respondida',
      ].sort(),
    );
    for (const e of events) {
      expect(Date.parse(e.timestamp)).not.toBeNaN();
      expect(e.data).toHaveProperty('unidade');
      expect(e.data.url_equipe).toMatch(/^http/);
    }
    const of = (type: string) => events.filter((e) => e.type === type);
    expect(of('lead.criado')[0]!.data).toMatchObject({
      nome_completo: 'Maria José da Conceição',
      email: 'maria@example.com',
    });
    const unitName = (await t.db.selectFrom('unidades').select('nome').where('id', '=', 1).executeTakeFirstOrThrow())
      .nome;
    const received = of('mensagem.recebida')[0]!.data;
    expect(received).toMatchObject({
      unidade: { id: 1, nome: unitName },
      mensagem: 'A esteira 3 parou.',
      status: 'nova',
    });
    expect(received.fotos).toHaveLength(1);
    expect(received.fotos[0].url_equipe).toMatch(/\/admin\/mensagens\/foto\/\d+$/);
    // no bytes of the photo, no storage path
    const raw = rx.requests.find((r) => r.body.includes('mensagem.recebida'))!.body;
    expect(raw.length).toBeLessThan(2000);
    expect(raw).not.toContain('fale_aqui/');
    // Attempts run side by side: receivers order by the payload's time, not by arrival.
    expect(
      of('mensagem.status')
        .sort((a, b) => a.data.alterado_em.localeCompare(b.data.alterado_em))
        .map((e) => [e.data.status_anterior, e.data.status]),
    ).toEqual([
      ['nova', 'lida'],
      ['lida', 'resolvida'],
    ]);
    expect(of('pesquisa.detrator')[0]!.data).toMatchObject({ nota_nps: 3, unidade: { id: 1, nome: unitName } });
    expect(of('aula_experimental.status')[0]!.data).toMatchObject({
      status: 'compareceu',
      status_anterior: 'agendado',
      nome: 'Ana Souza',
    });
    expect(of('aula_experimental.agendada')[0]!.data).not.toHaveProperty('codigo');
    // Each webhook-id once.
    expect(new Set(rx.requests.map((r) => r.id)).size).toBe(rx.requests.length);
  });

  it('erasure of a record removes its deliveries', async () => {
    const origins = await t.db.selectFrom('webhook_entregas').select('origem').distinct().execute();
    const lead = origins.find((o) => o.origem?.startsWith('franquia_leads:'))!.origem!;
    expect(await t.app.webhooks.eraseByOrigin([lead])).toBeGreaterThan(0);
    expect(await t.db.selectFrom('webhook_entregas').select('id').where('origem', '=', lead).execute()).toHaveLength(0);
  });
});

describe('the command line', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-webhooks-cli-'));
  const file = path.join(dir, 'cli.sqlite');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (cmd: string, args: string[]) => {
    const r = spawnSync(process.execPath, [`dist/cli/${cmd}.js`, ...args], {
      env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${file}`, NODE_ENV: 'development', DEMO_SEED: 'false' },
      encoding: 'utf8',
    });
    return { code: r.status, out: `${r.stdout}${r.stderr}` };
  };

  it('adds (printing id and secret), lists and removes endpoints', () => {
    if (!existsSync('dist/cli/webhooks-add.js')) throw new Error('run `npm run build` first (npm test does)');
    const bad = run('webhooks-add', ['--url', 'http://exemplo.com.br/x', '--eventos', 'lead.criado']);
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('https://');
    const ok = run('webhooks-add', [
      '--url',
      'https://93.184.215.14/crm',
      '--eventos',
      'lead.criado,mensagem.recebida',
    ]);
    expect(ok.code).toBe(0);
    expect(ok.out).toMatch(/^id: 1$/m);
    expect(ok.out).toMatch(/^segredo: whsec_[A-Za-z0-9+/=]{32}$/m);
    const list = run('webhooks-list', []);
    expect(list.code).toBe(0);
    expect(list.out).toContain('https://93.184.215.14/crm');
    expect(list.out).toContain('lead.criado,mensagem.recebida');
    expect(list.out).not.toContain('whsec_');
    expect(run('webhooks-remove', ['--id', '1']).code).toBe(0);
    expect(run('webhooks-remove', ['--id', '1']).code).toBe(1);
    expect(run('webhooks-list', []).out).toContain('Nenhum endpoint');
    // Bad flags and values: a pt-BR message, exit code 1, nothing stored.
    const unknownFlag = run('webhooks-add', ['--url', 'https://93.184.215.14/x', '--eventos', 'lead.criado', '--foo']);
    expect(unknownFlag).toMatchObject({ code: 1 });
    expect(unknownFlag.out).toContain('Opção desconhecida: --foo');
    const noValue = run('webhooks-remove', ['--id']);
    expect(noValue.code).toBe(1);
    expect(noValue.out).toContain('precisa de um valor');
    const badEvent = run('webhooks-add', ['--url', 'https://93.184.215.14/x', '--eventos', 'lead.apagado']);
    expect(badEvent.code).toBe(1);
    expect(badEvent.out).toContain('Evento desconhecido: lead.apagado');
    expect(run('webhooks-remove', ['--id', 'abc']).code).toBe(1);
    const missing = run('webhooks-remove', ['--id', '42']);
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('Não existe endpoint de webhook com id 42');
    expect(run('webhooks-list', []).out).toContain('Nenhum endpoint');
  });
});

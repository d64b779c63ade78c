// PAYMENT_PROVIDER=asaas as an operator runs it: three instances of the built server on one
// PostgreSQL (a server of this test's own) behind a proxy, the fake Asaas delivering its
// webhooks to the instances in turn. A payment's events arriving at any instance activate the
// enrolment once; an instance killed (kill -9) while it creates a charge leaves no second
// charge: the next instance finds the first by its reference. PostgreSQL project only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import {
  startInstance,
  startProxy,
  startTestPostgres,
  stopInstance,
  waitFor,
  type Instance,
  type TestPostgres,
  type TestProxy,
} from '../helpers/cluster';
import { validCpf } from '../helpers/cpf';
import { startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas';

let server: TestPostgres;
let fake: FakeAsaas;
let proxy: TestProxy;
let uploads: string;
let db: pg.Pool;
const instances: Instance[] = [];

beforeAll(async () => {
  [server, fake] = await Promise.all([startTestPostgres(), startFakeAsaas()]);
  await server.createDatabase('academia');
  uploads = mkdtempSync(path.join(os.tmpdir(), 'gym-asaas-cluster-'));
  const env = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'segredo-de-teste-compartilhado-por-todas-as-instancias',
    DATABASE_URL: server.url('academia'),
    TRUST_PROXY: 'loopback',
    UPLOADS_DIR: uploads,
    PUBLIC_URL: 'https://www.exemplo.com.br',
    PAYMENT_PROVIDER: 'asaas',
    ASAAS_API_URL: fake.url,
    ASAAS_API_KEY: fake.apiKey,
    ASAAS_WEBHOOK_TOKEN: fake.webhookToken,
    ASAAS_TIMEOUT_MS: '3000',
    DB_CONNECT_TIMEOUT_MS: '1000',
  };
  instances.push(...(await Promise.all(['a', 'b', 'c'].map((n) => startInstance(n, env)))));
  proxy = await startProxy(instances);
  fake.setWebhookTargets(instances.map((i) => `http://127.0.0.1:${i.port}/webhooks/asaas`));
  db = new pg.Pool({ connectionString: server.url('academia'), max: 2 });
  db.on('error', () => {});
}, 90_000);

afterAll(async () => {
  await proxy?.close();
  await Promise.all(instances.map((i) => stopInstance(i)));
  await db?.end().catch(() => {});
  await fake?.close();
  await server?.destroy();
  if (uploads) rmSync(uploads, { recursive: true, force: true });
});

const one = async <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
  (await db.query(query, params)).rows[0] as T;

/** Accepts an enrolment through the proxy (pinned to `instance` when given); its code. */
async function enrol(instance?: number): Promise<{ codigo: string; id: number; cookie: string }> {
  const pin: Record<string, string> = instance === undefined ? {} : { 'x-test-instance': String(instance) };
  const offer = await one<{ unidade_id: number; plano_id: number }>(
    `select pu.unidade_id, pu.plano_id from planos_unidades pu join unidades u on u.id = pu.unidade_id
      where pu.venda_online = 1 and u.ativo = 1 and u.cnpj is not null and pu.mensalidade_centavos is not null
      order by pu.unidade_id, pu.plano_id limit 1`,
  );
  const flow = `/matricula?unidade=${offer.unidade_id}&plano=${offer.plano_id}`;
  const page = await fetch(proxy.url + flow, { headers: pin });
  const html = await page.text();
  const field = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? '';
  const cookie = page.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const cpf = validCpf(555_000_000);
  const data = {
    csrf_token: field(html, 'csrf_token'),
    envio_id: field(html, 'envio_id'),
    nome: 'Cliente do Cluster',
    cpf,
    nascimento: '1991-03-04',
    email: `cluster-${cpf}@exemplo.com.br`,
    whatsapp: '(11) 98765-4321',
  };
  const headers = { ...pin, cookie, 'content-type': 'application/x-www-form-urlencoded' };
  const summary = await fetch(`${proxy.url}/matricula/resumo?unidade=${offer.unidade_id}&plano=${offer.plano_id}`, {
    method: 'POST',
    headers,
    body: new URLSearchParams(data),
  });
  const text = await summary.text();
  expect(summary.status).toBe(200);
  const accepted = await fetch(proxy.url + flow, {
    method: 'POST',
    redirect: 'manual',
    headers,
    body: new URLSearchParams({
      ...data,
      aceite: 'sim',
      contrato_versao: field(text, 'contrato_versao'),
      contrato_sha256: field(text, 'contrato_sha256'),
    }),
  });
  expect(accepted.status).toBe(303);
  const codigo = accepted.headers.get('location')!.split('/').pop()!;
  const row = await one<{ id: number }>('select id from matriculas where codigo = $1', [codigo]);
  return { codigo, id: row.id, cookie };
}

const chargesOf = (reference: string) =>
  [...fake.state.payments.values()].filter((p) => p.externalReference === reference && !p.deleted);

describe('Asaas with three instances on one PostgreSQL', () => {
  it('activates once whichever instance each webhook reaches', async () => {
    const e = await enrol();
    const page = await fetch(`${proxy.url}/matricula/${e.codigo}`);
    expect(page.status).toBe(200);
    const [charge] = chargesOf(`MAT${e.id}P1`);
    expect(charge).toBeDefined();
    fake.webhooks.duplicate(5);
    await fake.pay(charge.id);
    await fake.webhooks.flush();
    await waitFor(
      async () =>
        (await one<{ status: string }>('select status from matriculas where id = $1', [e.id])).status === 'ativa',
      20_000,
      'the enrolment to be activated by the webhook',
    );
    await waitFor(
      async () =>
        Number(
          (await one<{ n: string }>("select count(*) as n from pagamentos_eventos where status <> 'processado'")).n,
        ) === 0,
      20_000,
      'every stored event to be processed',
    );
    const hosts = new Set(fake.webhooks.deliveries.filter((d) => d.status === 200).map((d) => d.url));
    expect(hosts.size).toBeGreaterThan(1);
    const activations = await one<{ n: string }>(
      "select count(*) as n from matriculas_historico where matricula_id = $1 and para = 'ativa' and de <> 'ativa'",
      [e.id],
    );
    expect(Number(activations.n)).toBe(1);
    const mails = await one<{ n: string }>(
      "select count(*) as n from fila_emails where origem = $1 and assunto like 'Matrícula ativa%'",
      [`matricula:${e.id}`],
    );
    expect(Number(mails.n)).toBe(1);
    await waitFor(
      () => [...fake.state.subscriptions.values()].some((s) => s.externalReference === e.codigo),
      20_000,
      'the subscription',
    );
    expect([...fake.state.subscriptions.values()].filter((s) => s.externalReference === e.codigo)).toHaveLength(1);
    const stored = await one<{ n: string; distinct_ids: string }>(
      'select count(*) as n, count(distinct id) as distinct_ids from pagamentos_eventos',
    );
    expect(stored.n).toBe(stored.distinct_ids);
  });

  it('after kill -9 of the instance creating the charge, another finds it: one charge, one activation', async () => {
    const e = await enrol(0);
    fake.failNext({ method: 'POST', path: '/payments', applyThenHang: true });
    const hanging = fetch(`${proxy.url}/matricula/${e.codigo}`, { headers: { 'x-test-instance': '0' } }).catch(
      () => null,
    );
    await waitFor(() => chargesOf(`MAT${e.id}P1`).length === 1, 10_000, 'the charge made at Asaas');
    instances[0]!.child.kill('SIGKILL');
    await instances[0]!.exited;
    await hanging;
    fake.setWebhookTargets(instances.slice(1).map((i) => `http://127.0.0.1:${i.port}/webhooks/asaas`));
    const page = await fetch(`${proxy.url}/matricula/${e.codigo}`, { headers: { 'x-test-instance': '1' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pix copia e cola');
    const charges = chargesOf(`MAT${e.id}P1`);
    expect(charges).toHaveLength(1);
    await fake.pay(charges[0].id);
    await fake.webhooks.flush();
    await waitFor(
      async () =>
        (await one<{ status: string }>('select status from matriculas where id = $1', [e.id])).status === 'ativa',
      20_000,
      'the enrolment to be activated',
    );
    const activations = await one<{ n: string }>(
      "select count(*) as n from matriculas_historico where matricula_id = $1 and para = 'ativa' and de <> 'ativa'",
      [e.id],
    );
    expect(Number(activations.n)).toBe(1);
    expect(chargesOf(`MAT${e.id}P1`)).toHaveLength(1);
  });
});

// PAYMENT_PROVIDER=asaas as an operator runs it: three instances of the built server on one
// PostgreSQL (a server of this test's own) behind a proxy, the fake Asaas delivering its
// webhooks to the instances in turn. A payment's events arriving at any instance activate the
// enrolment once; an instance killed (kill -9) while it creates a charge leaves no second
// charge: the next instance finds the first by its reference. PostgreSQL project only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, waitFor, type Instance, type TestCluster, type TestProxy } from '../helpers/cluster';
import { person, proxyTab } from '../helpers/enrolment';
import { startFakeAsaas, type FakeAsaas } from '../helpers/fake-asaas';

let cluster: TestCluster;
let fake: FakeAsaas;
let proxy: TestProxy;
let instances: Instance[];

beforeAll(async () => {
  fake = await startFakeAsaas();
  cluster = await startCluster({
    names: ['a', 'b', 'c'],
    env: {
      PUBLIC_URL: 'https://www.exemplo.com.br',
      PAYMENT_PROVIDER: 'asaas',
      ASAAS_API_URL: fake.url,
      ASAAS_API_KEY: fake.apiKey,
      ASAAS_WEBHOOK_TOKEN: fake.webhookToken,
      ASAAS_TIMEOUT_MS: '3000',
    },
  });
  ({ proxy, instances } = cluster);
  fake.setWebhookTargets(instances.map((i) => `http://127.0.0.1:${i.port}/webhooks/asaas`));
}, 90_000);

afterAll(async () => {
  await cluster?.close();
  await fake?.close();
});

/** Accepts an enrolment through the proxy (pinned to `instance` when given); its code. */
async function enrol(instance?: number): Promise<{ codigo: string; id: number }> {
  const pin: Record<string, string> = instance === undefined ? {} : { 'x-test-instance': String(instance) };
  const offer = await cluster.one<{ unidade_id: number; plano_id: number }>(
    `select pu.unidade_id, pu.plano_id from planos_unidades pu join unidades u on u.id = pu.unidade_id
      where pu.venda_online = 1 and u.ativo = 1 and u.cnpj is not null and pu.mensalidade_centavos is not null
      order by pu.unidade_id, pu.plano_id limit 1`,
  );
  const data = person(
    { nome: 'Cliente do Cluster', nascimento: '1991-03-04' },
    { cpfStart: 555_000_000, mailbox: 'cluster' },
  );
  const post = await proxyTab(proxy.url, `?unidade=${offer.unidade_id}&plano=${offer.plano_id}`, pin, data);
  const accepted = await post(pin);
  expect(accepted.status).toBe(303);
  const codigo = accepted.headers.get('location')!.split('/').pop()!;
  const row = await cluster.one<{ id: number }>('select id from matriculas where codigo = $1', [codigo]);
  return { codigo, id: row.id };
}

/** Waits until the enrolment `id` is active; `what` names the wait in a timeout. */
const activated = (id: number, what: string) =>
  waitFor(
    async () =>
      (await cluster.one<{ status: string }>('select status from matriculas where id = $1', [id])).status === 'ativa',
    20_000,
    what,
  );
/** How many times the enrolment `id` became active. */
const activations = async (id: number) =>
  Number(
    (
      await cluster.one<{ n: string }>(
        "select count(*) as n from matriculas_historico where matricula_id = $1 and para = 'ativa' and de <> 'ativa'",
        [id],
      )
    ).n,
  );
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
    await activated(e.id, 'the enrolment to be activated by the webhook');
    await waitFor(
      async () =>
        Number(
          (
            await cluster.one<{ n: string }>(
              "select count(*) as n from pagamentos_eventos where status <> 'processado'",
            )
          ).n,
        ) === 0,
      20_000,
      'every stored event to be processed',
    );
    const hosts = new Set(fake.webhooks.deliveries.filter((d) => d.status === 200).map((d) => d.url));
    expect(hosts.size).toBeGreaterThan(1);
    expect(await activations(e.id)).toBe(1);
    const mails = await cluster.one<{ n: string }>(
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
    const stored = await cluster.one<{ n: string; distinct_ids: string }>(
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
    await activated(e.id, 'the enrolment to be activated');
    expect(await activations(e.id)).toBe(1);
    expect(chargesOf(`MAT${e.id}P1`)).toHaveLength(1);
  });
});

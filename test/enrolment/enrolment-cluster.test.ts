// PAYMENT_PROVIDER=pix as an operator runs it: two instances of the built server on one
// PostgreSQL (a server of this test's own) behind a proxy, requests pinned to one instance or
// the other. One acceptance sent six times at once is one enrolment; four different
// acceptances of one CPF at one unit at once are one enrolment and three "Já existe"; staff
// confirming one Pix on both instances at once activate it once (one mail, one event).
// PostgreSQL project only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/index';
import { responseCookies, startCluster, type TestCluster, type TestProxy } from '../helpers/cluster';
import { validCpf } from '../helpers/cpf';
import { hiddenValue, person as newPerson, proxyTab } from '../helpers/enrolment';
import { createStaffUser } from '../helpers/staff';

let cluster: TestCluster;
let proxy: TestProxy;
let handle: DbHandle;
let flow = '';

beforeAll(async () => {
  cluster = await startCluster({
    names: ['a', 'b'],
    env: {
      PUBLIC_URL: 'https://www.exemplo.com.br',
      PIX_KEY: '12345678000195',
      // Mails and webhook events are queued, not sent: the test counts the rows.
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: '2',
      SMTP_SECURE: 'none',
      MAIL_WORKER: 'false',
      WEBHOOKS_WORKER: 'false',
    },
    // One after the other: the first migrates and seeds, the second finds it done.
    oneByOne: true,
  });
  ({ proxy } = cluster);
  handle = createDb({ engine: 'postgres', connectionString: cluster.server.url('academia') });
  const offer = await cluster.one<{ unidade_id: number; plano_id: number }>(
    `select pu.unidade_id, pu.plano_id from planos_unidades pu join unidades u on u.id = pu.unidade_id
      where pu.venda_online = 1 and u.ativo = 1 and u.cnpj is not null and pu.mensalidade_centavos is not null
      order by pu.unidade_id, pu.plano_id limit 1`,
  );
  flow = `?unidade=${offer.unidade_id}&plano=${offer.plano_id}`;
  const at = new Date().toISOString();
  await cluster.db.query(
    `insert into webhook_endpoints (url, segredo, eventos, ativo, criado_em, atualizado_em)
     values ('https://hooks.exemplo.com.br/m', $1, ',matricula.criada,matricula.ativada,', 1, $2, $2)`,
    ['x'.repeat(40), at],
  );
}, 90_000);

afterAll(async () => {
  await handle?.destroy();
  await cluster?.close();
});

const count = async (query: string, params: unknown[] = []) =>
  Number((await cluster.one<{ n: string }>(query, params)).n);
const pinned = (instance: number, extra: Record<string, string> = {}) => ({
  'x-test-instance': String(instance % 2),
  ...extra,
});

/** One browser tab up to the summary, on instance 0; its acceptance can then be posted to either. */
async function tab(data: Record<string, string>) {
  const post = await proxyTab(proxy.url, flow, pinned(0), data);
  return (instance: number) => post(pinned(instance));
}

const person = (cpf: string, email: string) =>
  newPerson({ nome: 'Cliente do Cluster', cpf, nascimento: '1991-03-04', email });

describe('two built instances on one PostgreSQL', () => {
  it('one acceptance sent six times at once across the instances is one enrolment', async () => {
    const cpf = validCpf(777_000_000);
    const post = await tab(person(cpf, `dup.${cpf}@exemplo.com.br`));
    const answers = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => post(i)));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 303, 303, 303]);
    expect(new Set(answers.map((a) => a.headers.get('location'))).size).toBe(1);
    expect(await count('select count(*) as n from matriculas where cpf = $1', [cpf])).toBe(1);
    expect(await count("select count(*) as n from fila_emails where destinatario like 'dup.%'")).toBe(1);
    expect(await count("select count(*) as n from webhook_entregas where evento = 'matricula.criada'")).toBe(1);
  });

  it('four acceptances of one CPF from four tabs at once: one enrolment, three "Já existe", no 5xx', async () => {
    const cpf = validCpf(777_000_000);
    const posts = await Promise.all([0, 1, 2, 3].map((i) => tab(person(cpf, `aba${i}.${cpf}@exemplo.com.br`))));
    const answers = await Promise.all(posts.map((post, i) => post(i)));
    expect(answers.map((a) => a.status).sort()).toEqual([303, 422, 422, 422]);
    for (const refused of answers.filter((a) => a.status === 422))
      expect(await refused.text()).toContain('Já existe uma matrícula');
    expect(await count('select count(*) as n from matriculas where cpf = $1', [cpf])).toBe(1);
  });

  it('staff confirming one Pix on both instances at once: one activation, one mail, one event', async () => {
    const cpf = validCpf(777_000_000);
    const email = `pix.${cpf}@exemplo.com.br`;
    expect((await (await tab(person(cpf, email)))(1)).status).toBe(303);
    const e = await cluster.one<{ id: number }>('select id from matriculas where cpf = $1', [cpf]);
    const p = await cluster.one<{ id: number }>('select id from matriculas_pagamentos where matricula_id = $1', [e.id]);
    const staff = await createStaffUser(handle.db, { papel: 'admin' });
    const login = await fetch(`${proxy.url}/pages/Franquia/admin.php`, { headers: pinned(0) });
    const loginCookie = responseCookies(login);
    const entered = await fetch(`${proxy.url}/pages/Franquia/admin.php`, {
      method: 'POST',
      redirect: 'manual',
      headers: pinned(0, { cookie: loginCookie, 'content-type': 'application/x-www-form-urlencoded' }),
      body: new URLSearchParams({
        csrf_token: hiddenValue(await login.text(), 'csrf_token'),
        acao: 'entrar',
        email: staff.email,
        senha: staff.password,
      }),
    });
    expect(entered.status).toBe(303);
    const cookie = responseCookies(entered, loginCookie);
    const detail = await fetch(`${proxy.url}/admin/matriculas/${e.id}`, { headers: pinned(1, { cookie }) });
    const token = hiddenValue(await detail.text(), 'csrf_token');
    const confirm = (instance: number) =>
      fetch(`${proxy.url}/admin/matriculas/${e.id}/pagamentos/${p.id}/confirmar`, {
        method: 'POST',
        redirect: 'manual',
        headers: pinned(instance, { cookie, 'content-type': 'application/x-www-form-urlencoded' }),
        body: new URLSearchParams({ csrf_token: token }),
      });
    const answers = await Promise.all([0, 1, 2, 3].map((i) => confirm(i)));
    expect(answers.map((a) => a.status)).toEqual([303, 303, 303, 303]);
    expect(answers.filter((a) => a.headers.get('location')?.endsWith('ok=pagamento'))).toHaveLength(1);
    expect((await cluster.one<{ status: string }>('select status from matriculas where id = $1', [e.id])).status).toBe(
      'ativa',
    );
    expect(
      await count("select count(*) as n from fila_emails where destinatario = $1 and assunto like 'Matrícula ativa%'", [
        email,
      ]),
    ).toBe(1);
    expect(
      await count("select count(*) as n from webhook_entregas where evento = 'matricula.ativada' and origem = $1", [
        `matricula:${e.id}`,
      ]),
    ).toBe(1);
  });
});

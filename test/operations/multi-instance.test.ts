// Production the way an operator runs it: three instances of the built server,
// started at the same moment on one empty PostgreSQL database (a server of this test's
// own, so it can be restarted), behind a reverse proxy that sets X-Forwarded-For/-Proto.
// Runs in the postgres project only: it is about PostgreSQL, and it starts its own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type pg from 'pg';
import { migrations } from '../../src/db/migrations/index';
import {
  responseCookies,
  sleep,
  startCluster,
  waitFor,
  type Instance,
  type TestCluster,
  type TestPostgres,
  type TestProxy,
} from '../helpers/cluster';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { awayFromWindowEnd } from '../helpers/rate-window';
import { FORM_RATE_LIMIT } from '../../src/features/franchise/form.routes';

const FORM = '/pages/Franquia/index.php';
const TRUST: Record<string, string> = { a: 'loopback', b: '1', c: '127.0.0.1,::1' };
let cluster: TestCluster;
let server: TestPostgres;
let smtp: TestSmtp;
let proxy: TestProxy;
let instances: Instance[];
let db: pg.Pool;

beforeAll(async () => {
  smtp = await startSmtp();
  // All three at the same moment, on the empty database; each names the proxy another way
  // TRUST_PROXY allows, and all must see the same client (the shared limit counts once).
  cluster = await startCluster({
    names: ['a', 'b', 'c'],
    env: {
      ...smtp.env,
      FRANCHISE_NOTIFICATION_EMAIL: 'expansao@example.com',
      MAIL_INTERVAL_MS: '300',
      MAIL_LEASE_MS: '4000',
    },
    envOf: (name) => ({ TRUST_PROXY: TRUST[name]! }),
  });
  ({ server, proxy, instances, db } = cluster);
}, 90_000);

afterAll(async () => {
  await cluster?.close();
  await smtp?.close();
});

let client = 0;
/** A new customer address each call, as the proxy sees it. */
const nextClient = () => `198.51.100.${++client}`;

async function get(url: string, headers: Record<string, string> = {}) {
  return fetch(proxy.url + url, { headers, redirect: 'manual' });
}

/** The franchise form through the proxy: its CSRF token and cookie. */
async function openForm(headers: Record<string, string> = {}) {
  const res = await get(FORM, headers);
  const html = await res.text();
  const token = /name="csrf_token"[^>]*value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error(`no token (${res.status})`);
  return { token, cookie: responseCookies(res), res };
}

async function postLead(clientAddr: string, extra: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const { token, cookie } = await openForm({ 'x-test-client': clientAddr });
  const body = new URLSearchParams({
    csrf_token: token,
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
    ...extra,
  });
  const started = Date.now();
  const res = await fetch(proxy.url + FORM, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-test-client': clientAddr, ...headers },
    body,
  });
  return { res, ms: Date.now() - started, text: await res.text() };
}

const count = async (table: string) => Number((await db.query(`select count(*) as n from ${table}`)).rows[0].n);

describe('three instances behind a proxy on one PostgreSQL', () => {
  it('all come up when started at once on an empty database; migrations and demo seed ran once', async () => {
    expect(instances.every((i) => i.alive())).toBe(true);
    expect(await count('unidades')).toBe(8);
    const applied = await db.query('select name from kysely_migration order by name');
    expect(applied.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
    // Exactly one instance loaded the demo content.
    const seeded = instances.filter((i) => i.output().includes('demo content loaded'));
    expect(seeded).toHaveLength(1);
    for (const i of [0, 1, 2]) expect((await get('/readyz', { 'x-test-instance': String(i) })).status).toBe(200);
  });

  it('believes X-Forwarded-Proto from the proxy: HSTS and Secure cookies on every instance', async () => {
    for (const i of [0, 1, 2]) {
      const { res } = await openForm({ 'x-test-client': nextClient(), 'x-test-instance': String(i) });
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      const cookies = res.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const c of cookies) expect(c).toMatch(/;\s*Secure/i);
    }
  });

  it('counts a rate limit once across instances, per client address from X-Forwarded-For', async () => {
    await awayFromWindowEnd(FORM_RATE_LIMIT.timeWindow);
    const customer = nextClient();
    const statuses: number[] = [];
    const upstreams = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const { res } = await postLead(customer);
      statuses.push(res.status);
      upstreams.add(res.headers.get('x-test-upstream') ?? '');
      if (res.status === 429) expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(upstreams.size).toBe(3); // round-robin reached every instance
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(303));
    expect(statuses.slice(10)).toEqual([429, 429]);
    // Another customer behind the same proxy is not affected.
    expect((await postLead(nextClient())).res.status).toBe(303);
  });

  it('shows a content change on every instance within 5 seconds', async () => {
    // As `npm run catalog:import` does: straight into the database.
    await db.query(
      `update unidades set nome = 'Unidade Ipê Amarelo' where id = (select min(id) from unidades where ativo = 1)`,
    );
    const changed = Date.now();
    const seenAfter: number[] = [];
    await Promise.all(
      [0, 1, 2].map(async (i) => {
        await waitFor(
          async () => {
            const res = await get('/search_ajax.php?q=ipe amarelo', {
              'x-test-instance': String(i),
              accept: 'application/json',
            });
            return JSON.stringify(await res.json()).includes('Ipê Amarelo');
          },
          8_000,
          `instance ${i} to show the change`,
          200,
        );
        seenAfter[i] = Date.now() - changed;
      }),
    );
    for (const ms of seenAfter) expect(ms).toBeLessThanOrEqual(5_500);
  });

  it(`a message claimed by an instance killed mid-delivery is delivered by another within a minute, same \
Message-ID`, async () => {
    // Let the notifications of the earlier leads go out first: only ours is in flight.
    await waitFor(
      async () =>
        Number(
          (await db.query(`select count(*) as n from fila_emails where status in ('pendente', 'enviando')`)).rows[0].n,
        ) === 0,
      30_000,
      'the earlier mail to be delivered',
    );
    await sleep(200);
    smtp.messages.length = 0;
    await db.query(`delete from fila_emails`);
    smtp.setHolding(true);
    let killedAt = 0;
    let victim: Instance | undefined;
    try {
      expect((await postLead(nextClient(), { nome_completo: 'Lead do Teste de Queda' })).res.status).toBe(303);
      await waitFor(() => smtp.holding === 1, 10_000, 'the SMTP server to hold a delivery');
      const outboxId = Number(smtp.messages[0]!.headers['x-outbox-id']);
      victim = instances.find((i) =>
        i
          .logs()
          .some((l) => l.msg === 'mail batch claimed' && (l.outboxIds as number[] | undefined)?.includes(outboxId)),
      );
      expect(victim, 'the instance that claimed the message').toBeDefined();
      victim!.child.kill('SIGKILL');
      await victim!.exited;
      killedAt = Date.now();
    } finally {
      smtp.setHolding(false);
    }
    await waitFor(() => smtp.messages.length >= 2, 60_000, 'the message to be delivered again');
    const within = Date.now() - killedAt;
    expect(within).toBeLessThan(60_000);
    const [first, second] = smtp.messages;
    expect(second!.headers['x-outbox-id']).toBe(first!.headers['x-outbox-id']);
    expect(second!.headers['message-id']).toBe(first!.headers['message-id']);
    expect(first!.headers['message-id']).toMatch(/^<.+@.+>$/);
    await waitFor(
      async () => (await db.query(`select status from fila_emails`)).rows[0]?.status === 'enviado',
      5_000,
      'the row to be marked sent',
    );
    await sleep(500);
    expect(smtp.messages).toHaveLength(2); // at most one duplicate per crash

    // The operator's supervisor starts it again; it rejoins behind the proxy.
    const index = instances.indexOf(victim!);
    await cluster.restart(index);
    expect((await get('/readyz', { 'x-test-instance': String(index) })).status).toBe(200);
  });

  it('survives a PostgreSQL restart: 503s quickly, serves the catalog, stores nothing half, recovers', async () => {
    // Pages visited before the outage (the unit page is cached per instance).
    const unitId = (await db.query('select min(id) as id from unidades where ativo = 1')).rows[0].id as number;
    for (const i of [0, 1, 2])
      expect((await get(`/Detalhes.php?id=${unitId}`, { 'x-test-instance': String(i) })).status).toBe(200);
    const form = await openForm({ 'x-test-client': nextClient() });
    const leadsBefore = await count('franquia_leads');
    const mailsBefore = smtp.messages.length;
    await db.end();

    await server.stop();
    // Past the catalog's 5 s freshness, so the snapshot really is stale.
    await sleep(5_500);
    for (const i of [0, 1, 2]) {
      const h = { 'x-test-instance': String(i) };
      expect((await get('/healthz', h)).status).toBe(200);
      const t0 = Date.now();
      expect((await get('/readyz', h)).status).toBe(503);
      expect(Date.now() - t0).toBeLessThan(2_000);
      const home = await get('/', h);
      expect(home.status).toBe(200);
      expect(await home.text()).toContain('Ipê Amarelo');
      const search = await get('/search_ajax.php?q=ipe', { ...h, accept: 'application/json' });
      expect(search.status).toBe(200);
      expect(((await search.json()) as unknown[]).length).toBeGreaterThan(0);
      expect((await get(`/Detalhes.php?id=${unitId}`, h)).status).toBe(200);
    }
    // A form POST: a pt-BR 503 page, quickly; JSON clients get {error, message}.
    const body = new URLSearchParams({
      csrf_token: form.token,
      nome_completo: 'Durante a Queda',
      aceita_contato: 'sim',
    });
    const customer = nextClient();
    const t0 = Date.now();
    const down = await fetch(proxy.url + FORM, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded', 'x-test-client': customer },
      body,
    });
    expect(Date.now() - t0).toBeLessThan(3_000);
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBeTruthy();
    expect(await down.text()).toContain('nada foi gravado');
    const json = await fetch(proxy.url + FORM, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        cookie: form.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        'x-test-client': customer,
      },
      body,
    });
    expect(json.status).toBe(503);
    expect(await json.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    expect(instances.every((i) => i.alive())).toBe(true);

    await server.start();
    const back = Date.now();
    for (const i of [0, 1, 2]) {
      await waitFor(
        async () => (await get('/readyz', { 'x-test-instance': String(i) })).status === 200,
        10_000,
        `instance ${i} ready again`,
      );
    }
    expect(Date.now() - back).toBeLessThan(10_000);
    db = cluster.reconnect();
    // Nothing half-stored during the outage; everything works again without a restart,
    // the mail worker included.
    expect(await count('franquia_leads')).toBe(leadsBefore);
    for (let i = 0; i < 3; i++)
      expect((await postLead(nextClient(), { nome_completo: `Depois da Volta ${i}` })).res.status).toBe(303);
    expect(await count('franquia_leads')).toBe(leadsBefore + 3);
    await waitFor(() => smtp.messages.length >= mailsBefore + 3, 15_000, 'the mail worker to deliver again');
    expect(instances.every((i) => i.alive())).toBe(true);
  });
});

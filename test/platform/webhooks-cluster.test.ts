// Webhooks as an operator runs them: three instances of the built server on one PostgreSQL
// (a server of this test's own), each with its delivery worker. One instance is killed with
// SIGKILL while its deliveries are in flight: every event still arrives, and the receiver
// acknowledges each webhook-id exactly once across the three. PostgreSQL project only.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb, type DbHandle } from '../../src/db/index';
import { emitWebhook } from '../../src/platform/webhooks/webhooks.repository';
import {
  startInstance,
  startTestPostgres,
  stopInstance,
  waitFor,
  type Instance,
  type TestPostgres,
} from '../helpers/cluster';
import { startReceiver, type TestReceiver } from '../helpers/webhook-receiver';

const SECRET = `whsec_${Buffer.alloc(24, 9).toString('base64')}`;
const EVENTS = 30;
let server: TestPostgres;
let rx: TestReceiver;
let uploads: string;
let handle: DbHandle;
const instances: Instance[] = [];

beforeAll(async () => {
  [server, rx] = await Promise.all([startTestPostgres(), startReceiver()]);
  await server.createDatabase('academia');
  uploads = mkdtempSync(path.join(os.tmpdir(), 'gym-webhooks-cluster-'));
  const env = {
    NODE_ENV: 'production',
    SESSION_SECRET: 'segredo-de-teste-compartilhado-por-todas-as-instancias',
    DATABASE_URL: server.url('academia'),
    UPLOADS_DIR: uploads,
    DEMO_SEED: 'false',
    MAIL_WORKER: 'false',
    SCHEDULED_JOBS: 'false',
    WEBHOOKS_ALLOW_PRIVATE: 'true',
    WEBHOOKS_INTERVAL_MS: '200',
    WEBHOOKS_LEASE_MS: '3000',
    WEBHOOKS_RETRY_SCHEDULE: '0.5,1,1,2,2,2,2,2',
  };
  instances.push(...(await Promise.all(['a', 'b', 'c'].map((n) => startInstance(n, env)))));
  handle = createDb({ engine: 'postgres', connectionString: server.url('academia') });
}, 90_000);

afterAll(async () => {
  await Promise.all(instances.map((i) => stopInstance(i)));
  await handle?.destroy();
  await rx?.close();
  await server?.destroy();
  if (uploads) rmSync(uploads, { recursive: true, force: true });
});

it('delivers every event once per webhook-id across three instances, one killed -9 mid-delivery', async () => {
  const db = handle.db;
  const now = new Date().toISOString();
  await db
    .insertInto('webhook_endpoints')
    .values({ url: rx.url, eventos: ',lead.criado,', segredo: SECRET, ativo: 1, criado_em: now, atualizado_em: now })
    .execute();
  // Held answers: deliveries stay in flight long enough to kill an instance holding some.
  let holding = true;
  rx.answer = (_r, nth) => (holding && nth === 1 ? { status: 200, delayMs: 8_000 } : { status: 200 });
  await db.transaction().execute(async (trx) => {
    for (let i = 1; i <= EVENTS; i++)
      await emitWebhook(trx, { type: 'lead.criado', origin: `franquia_leads:${i}`, data: { id: i } });
  });

  // Some deliveries are in flight at a receiver that has not answered yet.
  await waitFor(() => rx.requests.length >= 5, 20_000, 'deliveries in flight');
  const claimedBy = (i: Instance) =>
    i
      .logs()
      .filter((l) => l.msg === 'webhook batch claimed')
      .flatMap((l) => l.webhookIds as string[]);
  const victim = (await waitFor(
    () => instances.find((i) => claimedBy(i).some((id) => rx.requests.some((r) => r.id === id))),
    10_000,
    'an instance with a delivery in flight',
  ))!;
  const inFlight = claimedBy(victim).filter((id) => rx.requests.some((r) => r.id === id));
  victim.child.kill('SIGKILL');
  await victim.exited;
  holding = false;

  // The survivors take the dead one's claims over when its lease runs out.
  await waitFor(
    async () =>
      Number(
        (
          await db
            .selectFrom('webhook_entregas')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('status', '=', 'entregue')
            .executeTakeFirstOrThrow()
        ).n,
      ) === EVENTS,
    40_000,
    'every event delivered',
    200,
  );
  const rows = await db.selectFrom('webhook_entregas').selectAll().execute();
  expect(rows).toHaveLength(EVENTS);
  expect(rx.acks.size).toBe(EVENTS);
  expect([...rx.acks.values()].every((n) => n === 1)).toBe(true);
  expect(new Set(rows.map((r) => r.mensagem_id))).toEqual(new Set(rx.acks.keys()));
  // The killed instance's deliveries were sent again with the same webhook-id, by another.
  for (const id of inFlight) expect(rx.requests.filter((r) => r.id === id).length).toBeGreaterThanOrEqual(2);
  for (const r of rx.requests) new Webhook(SECRET).verify(r.body, r.headers as Record<string, string>);
}, 90_000);

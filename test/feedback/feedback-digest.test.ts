// The weekly digest: Monday 08:00 São Paulo, one mail per account and week through the
// outbox, even with two instances on the same database racing; a fake clock drives it.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { createDb, type DbHandle } from '../../src/db/index';
import { deliverDueMail } from '../../src/platform/mail/worker';
import { digestWeek } from '../../src/features/feedback/digest/digest.service';
import { createTestApp, type TestContext } from '../helpers/app';
import { TEST_ENGINE, TEST_PG_URL } from '../helpers/db';
import { fetchForm, form } from '../helpers/http';
import { startSmtp, type TestSmtp } from '../helpers/smtp';
import { createStaffUser, loginAs } from '../helpers/staff';

let t: TestContext;
let second: App;
let secondHandle: DbHandle;
let smtp: TestSmtp;
let A: { id: number; nome: string };
let B: { id: number; nome: string };
const accounts: Record<string, { id: number; email: string; password: string }> = {};
let openMessageId: number;

// Monday 2026-11-23 08:00 in São Paulo is 11:00 UTC.
const SUNDAY_NIGHT = new Date('2026-11-23T02:59:00Z'); // Sunday 23:59 SP
const MONDAY_0001 = new Date('2026-11-23T03:01:00Z');
const MONDAY_0759 = new Date('2026-11-23T10:59:00Z');
const MONDAY_0800 = new Date('2026-11-23T11:00:00Z');
const MONDAY_0930 = new Date('2026-11-23T12:30:00Z');
const NEXT_MONDAY_0805 = new Date('2026-11-30T11:05:00Z');

beforeAll(async () => {
  smtp = await startSmtp();
  t = await createTestApp({ env: { ...smtp.env, BRAND_NAME: 'Rede Teste', PUBLIC_URL: 'https://rede.example' } });
  // A second instance on the same database, the same settings. On PostgreSQL it has its
  // own connection pool (real concurrency); one process holds one SQLite connection
  // (better-sqlite3 is synchronous), so there the instances share it, and the
  // jobs:digest test below races from another process.
  secondHandle = TEST_ENGINE === 'postgres' ? createDb(t.testDb.config) : t.testDb.handle;
  second = await buildApp(t.config, { db: secondHandle, logger: false });
  await second.ready();

  const units = await t.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(2)
    .execute();
  [A, B] = [units[0]!, units[1]!];
  // A closed unit with nothing that week: the admin's digest (every unit) leaves it out.
  const at = '2026-01-01T00:00:00.000Z';
  await t.db
    .insertInto('unidades')
    .values({
      nome: 'Unidade Fechada Resumo',
      slug: 'unidade-fechada-resumo',
      cidade: 'Campinas',
      uf: 'SP',
      bairro: 'Centro',
      endereco: 'Rua A, 1',
      ativo: 0,
      criado_em: at,
      atualizado_em: at,
    })
    .execute();
  accounts.admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Ana Admin' });
  accounts.managerA = await createStaffUser(t.db, { papel: 'gerente', nome: 'Gabi Gerente', unidadeIds: [A.id] });
  accounts.optedOut = await createStaffUser(t.db, { papel: 'gerente', nome: 'Otto Sem Resumo', unidadeIds: [A.id] });
  accounts.disabled = await createStaffUser(t.db, { papel: 'admin', nome: 'Desativada' });
  await t.db.updateTable('usuarios').set({ ativo: 0 }).where('id', '=', accounts.disabled.id).execute();

  // Week of 16–22/11 at unit A: notes 10, 9, 8, 3 → (2 − 1) / 4 = NPS 25.
  for (const nota of [10, 9, 8, 3]) {
    await t.db
      .insertInto('respostas_nps')
      .values({ unidade_id: A.id, nota_nps: nota, criado_em: '2026-11-18T15:00:00.000Z' })
      .execute();
  }
  // Earlier in the 12 weeks: two detractors → 12 weeks: (2 − 3) / 6 = NPS −16,7.
  for (const nota of [0, 5]) {
    await t.db
      .insertInto('respostas_nps')
      .values({ unidade_id: A.id, nota_nps: nota, criado_em: '2026-10-01T15:00:00.000Z' })
      .execute();
  }
  // Unit B's figures never reach A's manager.
  await t.db
    .insertInto('respostas_nps')
    .values({ unidade_id: B.id, nota_nps: 10, criado_em: '2026-11-18T15:00:00.000Z' })
    .execute();
  const msg = (unidade_id: number, unidade: string, mensagem: string, status = 'nova') =>
    t.db
      .insertInto('fale_aqui')
      .values({
        unidade_id,
        unidade,
        nome_completo: 'Cliente',
        mensagem,
        status,
        criado_em: '2026-11-19T12:00:00.000Z',
        atualizado_em: '2026-11-19T12:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  openMessageId = (await msg(A.id, A.nome, 'Chuveiro frio na unidade A')).id;
  await msg(A.id, A.nome, 'Já resolvida', 'resolvida');
  await msg(B.id, B.nome, 'Segredo da unidade B');
});
afterAll(async () => {
  await second?.close();
  if (TEST_ENGINE === 'postgres') await secondHandle?.destroy();
  await t?.close();
  await smtp?.close();
});

const digestRows = () => t.db.selectFrom('resumos_semanais').selectAll().orderBy('id').execute();

describe('the digest week', () => {
  it('is the São Paulo week: Sunday 23:59 belongs to the week before; due on Monday at 08:00', () => {
    expect(digestWeek(SUNDAY_NIGHT).semana).toBe('2026-11-16');
    const w = digestWeek(MONDAY_0759);
    expect(w.semana).toBe('2026-11-23');
    expect(w.dueAt.toISOString()).toBe('2026-11-23T11:00:00.000Z');
    expect(w.fromIso).toBe('2026-11-16T03:00:00.000Z');
    expect(w.toIso).toBe('2026-11-23T03:00:00.000Z');
    expect(digestWeek(new Date('2026-11-29T23:00:00Z')).semana).toBe('2026-11-23'); // Sunday 20:00 SP
  });
});

describe('weekly digest on two instances', () => {
  it('an account can switch it off on the staff side', async () => {
    const cookie = await loginAs(t.app, accounts.optedOut!.email, accounts.optedOut!.password);
    const page = await fetchForm(t.app, '/admin/preferencias', 'csrf_token', cookie);
    expect(page.res.body).toMatch(/name="resumo_semanal" value="sim" checked/);
    const res = await t.app.inject({
      method: 'POST',
      url: '/admin/preferencias',
      headers: { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ csrf_token: page.token }),
    });
    expect(res.statusCode).toBe(303);
    const row = await t.db
      .selectFrom('usuarios')
      .select('resumo_semanal')
      .where('id', '=', accounts.optedOut!.id)
      .executeTakeFirstOrThrow();
    expect(row.resumo_semanal).toBe(0);
  });

  // (A week whose Monday 08:00 has passed is due until it is sent: an instance that was
  // down on Monday catches up later in the week.)
  it('sends nothing on Monday before 08:00', async () => {
    for (const now of [MONDAY_0001, MONDAY_0759]) {
      const results = await Promise.all([t.app.weeklyDigest.run(now), second.weeklyDigest.run(now)]);
      expect(results.every((r) => !r.due && r.queued === 0)).toBe(true);
    }
    expect(await digestRows()).toEqual([]);
  });

  it('from Monday 08:00 both instances race: one digest per account and week, delivered once', async () => {
    const results = await Promise.all([
      t.app.weeklyDigest.run(MONDAY_0800),
      second.weeklyDigest.run(MONDAY_0800),
      t.app.weeklyDigest.run(MONDAY_0800),
      second.weeklyDigest.run(MONDAY_0800),
    ]);
    expect(results.reduce((n, r) => n + r.queued, 0)).toBe(2);
    const later = await Promise.all([t.app.weeklyDigest.run(MONDAY_0930), second.weeklyDigest.run(MONDAY_0930)]);
    expect(later.reduce((n, r) => n + r.queued, 0)).toBe(0);
    const rows = await digestRows();
    expect(rows.map((r) => [r.usuario_id, r.semana]).sort()).toEqual(
      [
        [accounts.admin!.id, '2026-11-23'],
        [accounts.managerA!.id, '2026-11-23'],
      ].sort(),
    );
    expect(rows.every((r) => r.fila_email_id !== null)).toBe(true);

    await Promise.all([
      deliverDueMail({ db: t.db, config: t.config }),
      deliverDueMail({ db: second.db, config: t.config }),
    ]);
    const digests = smtp.messages.filter((m) => m.subject.startsWith('Resumo semanal'));
    expect(digests.map((m) => m.to[0]).sort()).toEqual([accounts.admin!.email, accounts.managerA!.email].sort());

    const mine = digests.find((m) => m.to[0] === accounts.managerA!.email)!;
    const text = decode(mine.raw);
    expect(mine.subject).toBe('Resumo semanal · Rede Teste · semana de 16/11/2026');
    expect(text).toContain(`- ${A.nome}: NPS 25 (4 notas) · 12 semanas: NPS -16,7 (6 notas)`);
    expect(text).toContain(`- ${A.nome}: 2 novas na semana, 1 sem resposta`);
    expect(text).toContain(`https://rede.example/admin/mensagens/${openMessageId}`);
    expect(text).toContain('https://rede.example/admin/preferencias');
    expect(text).not.toContain(B.nome);
    expect(text).not.toContain('Segredo da unidade B');
    const adminText = decode(digests.find((m) => m.to[0] === accounts.admin!.email)!.raw);
    expect(adminText).toContain(`- ${B.nome}: NPS 100 (1 nota)`);
    expect(adminText).not.toContain('Unidade Fechada Resumo');
  });

  it('the next Monday sends the next week once more', async () => {
    const results = await Promise.all([
      t.app.weeklyDigest.run(NEXT_MONDAY_0805),
      second.weeklyDigest.run(NEXT_MONDAY_0805),
    ]);
    expect(results.reduce((n, r) => n + r.queued, 0)).toBe(2);
    expect((await digestRows()).filter((r) => r.semana === '2026-11-30')).toHaveLength(2);
  });

  it('`npm run jobs:digest` sends the current week now, under the same exactly-once rule', async () => {
    if (!existsSync('dist/cli/jobs-digest.js')) throw new Error('run `npm run build` first (npm test does)');
    const db = t.testDb.config;
    const url =
      db.engine === 'sqlite'
        ? `sqlite:${db.filename}`
        : `${TEST_PG_URL}?options=${encodeURIComponent(`-c search_path=${db.schema}`)}`;
    const run = () =>
      spawnSync(process.execPath, ['dist/cli/jobs-digest.js'], {
        env: { PATH: process.env.PATH, DATABASE_URL: url, NODE_ENV: 'development', DEMO_SEED: 'false', ...smtp.env },
        encoding: 'utf8',
      });
    const week = digestWeek(new Date()).semana;
    const before = (await digestRows()).filter((r) => r.semana === week).length;
    const first = run();
    expect(first.status, `${first.stdout}${first.stderr}`).toBe(0);
    const after = (await digestRows()).filter((r) => r.semana === week).length;
    expect(after).toBe(Math.max(before, 2));
    const again = run();
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('0 resumo(s) enfileirado(s)');
    expect((await digestRows()).filter((r) => r.semana === week)).toHaveLength(after);
  });
});

function decode(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  if (!/quoted-printable/i.test(raw)) return body.replace(/\r\n/g, '\n');
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8').replace(/\r\n/g, '\n');
}

// npm run jobs:reminders / jobs:retention as an operator runs them (the built CLI).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../../src/db/index';
import { addDays, spDay } from '../../src/features/booking/slots';
import { saoPauloClock } from '../../src/lib/time';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-jobs-'));
const file = path.join(dir, 'jobs.sqlite');
beforeAll(() => {
  if (!existsSync('dist/cli/jobs-reminders.js')) throw new Error('run `npm run build` first (npm test does)');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(cmd: string, env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [`dist/cli/${cmd}.js`], {
    env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${file}`, NODE_ENV: 'development', ...env },
    encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

it('runs the reminder and anonymisation jobs at once, under the same once-only rules', async () => {
  expect(run('migrate').code).toBe(0);
  const h = createDb({ engine: 'sqlite', filename: file });
  const now = new Date();
  const iso = now.toISOString();
  const old = new Date(now.getTime() - 400 * 24 * 3600 * 1000).toISOString();
  const tomorrow = addDays(spDay(now), 1);
  const twoDaysAgo = new Date(now.getTime() - 2 * 24 * 3600 * 1000).toISOString();
  try {
    const unit = await h.db
      .insertInto('unidades')
      .values({
        nome: 'Unidade CLI',
        slug: 'unidade-cli',
        cidade: 'Campinas',
        uf: 'SP',
        bairro: 'Centro',
        endereco: 'Rua A, 1',
        criado_em: iso,
        atualizado_em: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const row = (tag: string, inicio: string, dia: string, criado: string) => ({
      unidade_id: unit.id,
      aula_id: null,
      vaga: `livre:${dia}:10:00`,
      atividade: 'Treino livre',
      inicio_em: inicio,
      fim_em: inicio,
      dia,
      nome: `Pessoa ${tag}`,
      whatsapp: '+5519991234567',
      email: `${tag}@example.com`,
      aceita_contato: 1,
      envio_id: `cli-${tag}-envio-000000`,
      codigo: `cli-${tag}-codigo-00000`,
      status: 'agendado',
      status_por: null,
      lembrete_em: null,
      anonimizado_em: null,
      semana: dia,
      criado_em: criado,
      atualizado_em: criado,
    });
    await h.db
      .insertInto('aulas_experimentais')
      .values([
        row('antiga', old, old.slice(0, 10), old),
        row('amanha', `${tomorrow}T13:00:00.000Z`, tomorrow, twoDaysAgo),
      ])
      .execute();
  } finally {
    await h.destroy();
  }

  let r = run('jobs-retention');
  expect(r.code).toBe(0);
  expect(r.out).toContain('1 agendamento(s) de aula experimental anonimizado(s).');
  expect(run('jobs-retention').out).toContain('0 agendamento(s)');

  r = run('jobs-reminders');
  expect(r.out).toContain('SMTP_HOST não definido');
  const expected = saoPauloClock(new Date()).time >= '09:00' ? 1 : 0;
  r = run('jobs-reminders', { SMTP_HOST: '127.0.0.1', SMTP_SECURE: 'none' });
  expect(r.code).toBe(0);
  expect(r.out).toContain(`${expected} lembrete(s) de aula experimental enfileirado(s).`);
  expect(run('jobs-reminders', { SMTP_HOST: '127.0.0.1', SMTP_SECURE: 'none' }).out).toContain('0 lembrete(s)');

  const h2 = createDb({ engine: 'sqlite', filename: file });
  try {
    const rows = await h2.db
      .selectFrom('aulas_experimentais')
      .select(['nome', 'whatsapp', 'email'])
      .orderBy('id')
      .execute();
    expect(rows[0]).toEqual({ nome: 'Pessoa anonimizada', whatsapp: null, email: null });
    expect(await h2.db.selectFrom('fila_emails').select('id').execute()).toHaveLength(expected);
  } finally {
    await h2.destroy();
  }
});

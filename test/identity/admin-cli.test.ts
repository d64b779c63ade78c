// The user-* commands as an operator runs them (the built CLI, npm test builds first).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDb } from '../../src/db/index';
import { verifyPassword } from '../../src/features/identity/password';

const dir = mkdtempSync(path.join(os.tmpdir(), 'gym-cli-'));
const file = path.join(dir, 'cli.sqlite');
beforeAll(() => {
  if (!existsSync('dist/cli/user-create.js')) throw new Error('run `npm run build` first (npm test does)');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(cmd: string, args: string[], input?: string) {
  const r = spawnSync(process.execPath, [`dist/cli/${cmd}.js`, ...args], {
    env: { PATH: process.env.PATH, DATABASE_URL: `sqlite:${file}`, NODE_ENV: 'development' },
    input,
    encoding: 'utf8',
  });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

async function user(email: string) {
  const h = createDb({ engine: 'sqlite', filename: file });
  try {
    return await h.db.selectFrom('usuarios').selectAll().where('email', '=', email).executeTakeFirst();
  } finally {
    await h.destroy();
  }
}

// Each command is a real process that migrates and hashes with the production cost: slow
// on a busy machine, hence the longer timeouts.
it('creates, resets and disables staff accounts from the command line', async () => {
  const short = run('user-create', ['--email', 'ops@example.com', '--password', 'curta']);
  expect(short.code).toBe(1);
  expect(short.out).toContain('pelo menos 12 caracteres');

  const ok = run('user-create', [
    '--email',
    'Ops@Example.com',
    '--password',
    'uma-senha-longa-1',
    '--name',
    'Operação',
  ]);
  expect(ok.code).toBe(0);
  expect(ok.out).toContain('Conta criada');
  let u = await user('ops@example.com');
  expect(u).toMatchObject({ nome: 'Operação', papel: 'admin', ativo: 1 });
  expect(u!.senha_hash).toMatch(/^scrypt\$131072\$8\$1\$/);
  expect(u!.senha_hash).not.toContain('uma-senha-longa-1');
  expect(await verifyPassword('uma-senha-longa-1', u!.senha_hash)).toBe(true);

  expect(run('user-create', ['--email', 'ops@example.com', '--password', 'uma-senha-longa-1']).out).toContain(
    'Já existe',
  );

  expect(
    run('user-create', ['--email', 'g@example.com', '--password', 'uma-senha-longa-1', '--papel', 'dono']).code,
  ).toBe(1);

  // --unidade follows the form kit's id rule: "3abc" or "1.0" is refused by name, never read as 3 or 1.
  for (const bad of ['3abc', '1.0', '01', '0']) {
    const r = run('user-create', [
      '--email',
      'ger@example.com',
      '--password',
      'uma-senha-longa-1',
      '--papel',
      'gerente',
      '--unidade',
      bad,
    ]);
    expect(r.code, bad).toBe(1);
    expect(r.out).toContain(`--unidade deve ser o id numérico de uma unidade`);
    expect(r.out).toContain(`"${bad}"`);
  }
  expect(await user('ger@example.com')).toBeUndefined();
  expect(run('user-create', ['--email', 'x@example.com', '--senha', 'y']).out).toContain('Uso: npm run user:create');

  // Without --password the command reads it (here from a pipe, as a script would).
  const reset = run('user-password', ['--email', 'ops@example.com'], 'outra-senha-longa-2\n');
  expect(reset.code).toBe(0);
  u = await user('ops@example.com');
  expect(await verifyPassword('outra-senha-longa-2', u!.senha_hash)).toBe(true);

  const disable = run('user-disable', ['--email', 'ops@example.com']);
  expect(disable.code).toBe(0);
  expect((await user('ops@example.com'))!.ativo).toBe(0);
  expect(run('user-disable', ['--email', 'ninguem@example.com']).code).toBe(1);
  expect(run('user-create', []).out).toContain('Uso: npm run user:create');
}, 120_000);

it('user:create reads the password from standard input and never shows it', async () => {
  // A script pipes the password: it is never on the command line, and never printed back.
  const piped = run('user-create', ['--email', 'pipe@example.com', '--papel', 'admin'], 'senha-pela-entrada-1\n');
  expect(piped.code).toBe(0);
  expect(piped.out).not.toContain('senha-pela-entrada-1');
  expect(await verifyPassword('senha-pela-entrada-1', (await user('pipe@example.com'))!.senha_hash)).toBe(true);
  expect(run('user-create', []).out).not.toContain('--password');
}, 60_000);

it('every command explains a wrong flag in pt-BR, with its usage', () => {
  for (const [cmd, usage] of [
    ['user-create', 'Uso: npm run user:create'],
    ['user-password', 'Uso: npm run user:password'],
    ['backup', 'Uso: npm run backup'],
    ['restore', 'Uso: npm run restore'],
    ['webhooks-add', 'Uso: npm run webhooks:add'],
    ['seed-volume', 'Uso: npm run seed:volume'],
  ] as const) {
    const r = run(cmd, ['--nao-existe', '1']);
    expect(r.code, cmd).toBe(1);
    expect(r.out, cmd).toContain('Opção desconhecida: --nao-existe.');
    expect(r.out, cmd).toContain(usage);
    expect(r.out, cmd).not.toMatch(/Unknown option/);
  }
  const r = run('user-create', ['--email']);
  expect(r.out).toContain('A opção --email precisa de um valor.');
}, 60_000);

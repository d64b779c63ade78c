// Accounts screen (admins only): create with a role and units, password rules, reset,
// disable (sessions end), and the guards against locking everyone out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../helpers/app';
import { form } from '../helpers/http';
import { createStaffUser, LOGIN_URL, loginAs, staffToken } from '../helpers/staff';

let t: TestContext;
let cookie: string;
let token: string;
let adminId: number;

async function post(url: string, fields: [string, string][] | Record<string, string>, c = cookie, tk = token) {
  const pairs = Array.isArray(fields) ? fields : Object.entries(fields);
  return t.app.inject({
    method: 'POST',
    url,
    headers: { cookie: c, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form([['csrf_token', tk], ...pairs]),
  });
}
const idFrom = (location: unknown) => Number(/\/(\d+)(\?|$)/.exec(String(location))![1]);
async function canLogin(email: string, password: string) {
  try {
    await loginAs(t.app, email, password);
    return true;
  } catch {
    return false;
  }
}

beforeAll(async () => {
  t = await createTestApp();
  const admin = await createStaffUser(t.db, { papel: 'admin', nome: 'Chefe', email: 'chefe@example.com' });
  adminId = admin.id;
  cookie = await loginAs(t.app, admin.email, admin.password);
  token = await staffToken(t.app, cookie, '/admin/contas');
});
afterAll(async () => t?.close());

describe('accounts', () => {
  let managerId: number;

  it(`refuses a short password, a bad e-mail, a manager without units; keeps the values but never the \
password`, async () => {
    const res = await post('/admin/contas/nova', {
      email: 'nao-e-email',
      nome: 'Gerente Teste',
      papel: 'gerente',
      senha: 'curta',
    });
    expect(res.statusCode).toBe(422);
    expect(res.body).toContain('A senha precisa ter pelo menos 12 caracteres.');
    expect(res.body).toContain('E-mail inválido.');
    expect(res.body).toContain('Escolha pelo menos uma unidade para o gerente.');
    expect(res.body).toContain('value="Gerente Teste"');
    expect(res.body).not.toContain('value="curta"');
    const dup = await post(
      '/admin/contas/nova',
      { email: 'chefe@example.com', nome: 'Outro', papel: 'admin', senha: 'uma-senha-bem-longa' },
      cookie,
    );
    expect(dup.statusCode).toBe(422);
    expect(dup.body).toContain('Já existe uma conta com este e-mail.');
  });

  it('creates a manager of two units whose password works at the login', async () => {
    const res = await post('/admin/contas/nova', [
      ['email', 'Gerente@Example.com'],
      ['nome', 'Gerente Teste'],
      ['papel', 'gerente'],
      ['unidades', '1'],
      ['unidades', '2'],
      ['senha', 'senha-do-gerente-1'],
    ]);
    expect(res.statusCode).toBe(303);
    managerId = idFrom(res.headers.location);
    const row = await t.db.selectFrom('usuarios').selectAll().where('id', '=', managerId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ email: 'gerente@example.com', papel: 'gerente', ativo: 1 });
    expect(row.senha_hash).toMatch(/^scrypt\$/);
    expect(row.senha_hash).not.toContain('senha-do-gerente-1');
    expect(
      (
        await t.db
          .selectFrom('usuarios_unidades')
          .select('unidade_id')
          .where('usuario_id', '=', managerId)
          .orderBy('unidade_id')
          .execute()
      ).map((r) => r.unidade_id),
    ).toEqual([1, 2]);
    expect(await canLogin('gerente@example.com', 'senha-do-gerente-1')).toBe(true);
    const list = await t.app.inject({ url: '/admin/contas', headers: { cookie } });
    expect(list.body).toContain('Gerente Teste');
    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('entidade', '=', 'usuario')
      .where('entidade_id', '=', managerId)
      .execute();
    expect(audit[0]!.acao).toBe('criar');
    expect(audit[0]!.depois).not.toContain('senha');
  });

  it('reassigns units; the manager sees the change on the next request', async () => {
    const res = await post(`/admin/contas/${managerId}`, [
      ['nome', 'Gerente Teste'],
      ['papel', 'gerente'],
      ['unidades', '3'],
    ]);
    expect(res.statusCode).toBe(303);
    const managerCookie = await loginAs(t.app, 'gerente@example.com', 'senha-do-gerente-1');
    expect(
      (await t.app.inject({ url: '/admin/conteudo/unidades/3/aulas', headers: { cookie: managerCookie } })).statusCode,
    ).toBe(200);
    expect(
      (await t.app.inject({ url: '/admin/conteudo/unidades/1/aulas', headers: { cookie: managerCookie } })).statusCode,
    ).toBe(403);
  });

  it('resets a password: the old one stops working, the new one works, open sessions end', async () => {
    const managerCookie = await loginAs(t.app, 'gerente@example.com', 'senha-do-gerente-1');
    const short = await post(`/admin/contas/${managerId}/senha`, { nova_senha: '123' });
    expect(short.statusCode).toBe(422);
    expect(short.body).toContain('A senha precisa ter pelo menos 12 caracteres.');
    const res = await post(`/admin/contas/${managerId}/senha`, { nova_senha: 'senha-nova-do-gerente' });
    expect(res.statusCode).toBe(303);
    expect(await canLogin('gerente@example.com', 'senha-do-gerente-1')).toBe(false);
    expect(await canLogin('gerente@example.com', 'senha-nova-do-gerente')).toBe(true);
    const after = await t.app.inject({ url: '/admin/conteudo', headers: { cookie: managerCookie } });
    expect(after.statusCode).toBe(303);
    expect(after.headers.location).toMatch(new RegExp(`^${LOGIN_URL.replace(/\./g, '\\.')}`));
    const audit = await t.db
      .selectFrom('auditoria')
      .selectAll()
      .where('acao', '=', 'redefinir_senha')
      .executeTakeFirstOrThrow();
    expect(audit.depois).toBe('{"senha":"redefinida"}');
  });

  it('disables an account: no login, the open session ends; it can be reactivated', async () => {
    const managerCookie = await loginAs(t.app, 'gerente@example.com', 'senha-nova-do-gerente');
    const res = await post(`/admin/contas/${managerId}/ativo`, { ativo: '0' });
    expect(res.statusCode).toBe(303);
    expect((await t.app.inject({ url: '/admin/conteudo', headers: { cookie: managerCookie } })).statusCode).toBe(303);
    expect(await canLogin('gerente@example.com', 'senha-nova-do-gerente')).toBe(false);
    expect((await post(`/admin/contas/${managerId}/ativo`, { ativo: '1' })).statusCode).toBe(303);
    expect(await canLogin('gerente@example.com', 'senha-nova-do-gerente')).toBe(true);
  });

  it('never lets the last active admin be disabled or demoted, nor an admin disable themself', async () => {
    const self = await post(`/admin/contas/${adminId}/ativo`, { ativo: '0' });
    expect(self.statusCode).toBe(422);
    expect(self.body).toContain('Você não pode desativar a sua própria conta.');
    const demote = await post(`/admin/contas/${adminId}`, [
      ['nome', 'Chefe'],
      ['papel', 'gerente'],
      ['unidades', '1'],
    ]);
    expect(demote.statusCode).toBe(422);
    expect(demote.body).toContain('única conta de administrador ativa');
    expect(
      await t.db.selectFrom('usuarios').select(['papel', 'ativo']).where('id', '=', adminId).executeTakeFirstOrThrow(),
    ).toEqual({ papel: 'admin', ativo: 1 });
  });

  it('answers 404 for an unknown account', async () => {
    expect((await t.app.inject({ url: '/admin/contas/99999', headers: { cookie } })).statusCode).toBe(404);
    expect((await post('/admin/contas/99999/senha', { nova_senha: 'uma-senha-bem-longa' })).statusCode).toBe(404);
  });
});

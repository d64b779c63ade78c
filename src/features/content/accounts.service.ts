// Rules for staff accounts (admin only): create, edit role and units, disable, reset a
// password. Passwords use the admin feature's hash so login verifies them.
import { hashPassword, passwordProblem } from '../admin/password';
import { createContentRepository } from './shared/content.repository';
import { createAccountsRepository } from './accounts.repository';
import { change, NotFoundError, onUniqueConflict, type Actor, type ContentDeps } from './shared/change';
import { existing } from './units/units.service';
import * as v from './shared/validation';
import type { FieldErrors, Result } from './shared/validation';

const ROLES = ['admin', 'gerente'] as const;

export function createAccountsService(deps: ContentDeps) {
  const read = createAccountsRepository(deps.db);
  const accountChange = <T>(actor: Actor, work: Parameters<typeof change<T>>[2]) => change<T>(deps, actor, work, false);
  async function snapshot(repo: ReturnType<typeof createAccountsRepository>, id: number) {
    const u = await repo.find(id);
    return u ? { ...u, unidadeIds: await repo.unitIds(id) } : null;
  }

  function parseRoleAndUnits(e: FieldErrors, body: Record<string, unknown>) {
    const papel = v.field(body, 'papel');
    if (!(ROLES as readonly string[]).includes(papel)) e.papel = 'Escolha o papel: administrador ou gerente de unidade.';
    const unitIds = papel === 'gerente' ? v.idList(body, 'unidades') : [];
    if (papel === 'gerente' && !unitIds.length) e.unidades = 'Escolha pelo menos uma unidade para o gerente.';
    return { papel, unitIds };
  }

  return {
    list: () => read.list(),
    get: (id: number) => snapshot(read, id),

    async create(actor: Actor, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const e: FieldErrors = {};
      const email = v.email(e, 'email', v.field(body, 'email'), true);
      const nome = v.requiredText(e, 'nome', v.field(body, 'nome'), 'o nome', 120);
      const { papel, unitIds } = parseRoleAndUnits(e, body);
      const senha = v.field(body, 'senha');
      const problem = passwordProblem(senha);
      if (problem) e.senha = problem;
      if (!e.email && email && (await read.emailTaken(email))) e.email = EMAIL_TAKEN;
      if (v.hasErrors(e)) return { ok: false, errors: e };
      const senha_hash = await hashPassword(senha);
      return onUniqueConflict({ email: EMAIL_TAKEN }, () => accountChange(actor, async (_repo, audit, trx, now) => {
        const repo = createAccountsRepository(trx);
        const id = await repo.insert({ email: email!, nome, papel, senha_hash }, now);
        await repo.replaceUnits(id, await existing(unitIds, (x) => createContentRepository(trx).findUnit(x)));
        await audit({ acao: 'criar', entidade: 'usuario', entidadeId: id, antes: null, depois: await snapshot(repo, id) });
        return { ok: true as const, value: { id } };
      }));
    },

    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const e: FieldErrors = {};
      const nome = v.requiredText(e, 'nome', v.field(body, 'nome'), 'o nome', 120);
      const { papel, unitIds } = parseRoleAndUnits(e, body);
      if (v.hasErrors(e)) return { ok: false, errors: e };
      return accountChange(actor, async (_repo, audit, trx, now) => {
        const repo = createAccountsRepository(trx);
        const before = await snapshot(repo, id);
        if (!before) throw new NotFoundError();
        if (before.papel === 'admin' && papel !== 'admin' && before.ativo === 1 && (await repo.activeAdminCount()) <= 1) {
          return { ok: false, errors: { papel: 'Esta é a única conta de administrador ativa; crie outra antes de mudar o papel desta.' } };
        }
        await repo.update(id, { nome, papel }, now);
        await repo.replaceUnits(id, await existing(unitIds, (x) => createContentRepository(trx).findUnit(x)));
        await audit({ acao: 'editar', entidade: 'usuario', entidadeId: id, antes: before, depois: await snapshot(repo, id) });
        return { ok: true, value: { id } };
      });
    },

    /** Disabling ends the account's sessions at once (auth also re-checks on every request). */
    async setActive(actor: Actor, id: number, active: boolean): Promise<Result<null>> {
      return accountChange(actor, async (_repo, audit, trx, now) => {
        const repo = createAccountsRepository(trx);
        const before = await repo.find(id);
        if (!before) throw new NotFoundError();
        if (!active && id === actor.id) return { ok: false, errors: { ativo: 'Você não pode desativar a sua própria conta.' } };
        if (!active && before.papel === 'admin' && before.ativo === 1 && (await repo.activeAdminCount()) <= 1) {
          return { ok: false, errors: { ativo: 'Esta é a única conta de administrador ativa.' } };
        }
        await repo.setActive(id, active ? 1 : 0, now);
        if (!active) await repo.endSessions(id);
        await audit({ acao: active ? 'ativar' : 'desativar', entidade: 'usuario', entidadeId: id, antes: { ativo: before.ativo }, depois: { ativo: active ? 1 : 0 } });
        return { ok: true, value: null };
      });
    },

    /** The new password is never logged or audited; the audit row says only that it changed. */
    async resetPassword(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<null>> {
      const senha = v.field(body, 'nova_senha');
      const problem = passwordProblem(senha);
      if (problem) return { ok: false, errors: { nova_senha: problem } };
      if (!(await read.find(id))) throw new NotFoundError();
      const hash = await hashPassword(senha);
      return accountChange(actor, async (_repo, audit, trx, now) => {
        const repo = createAccountsRepository(trx);
        await repo.setPasswordHash(id, hash, now);
        if (id !== actor.id) await repo.endSessions(id);
        await audit({ acao: 'redefinir_senha', entidade: 'usuario', entidadeId: id, antes: null, depois: { senha: 'redefinida' } });
        return { ok: true, value: null };
      });
    },
  };
}

const EMAIL_TAKEN = 'Já existe uma conta com este e-mail.';

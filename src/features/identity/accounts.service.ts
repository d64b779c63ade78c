// Staff accounts: created, edited, disabled and given a new password from the accounts
// screen (admins, audited) or the command line. Disabling an account or changing its
// password ends all its sessions in the same transaction.
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import { cleanText } from '../../lib/text';
import { parseEmail } from '../../lib/form/index';
import { activationEntry, auditRow, type AuditEntry, type AuditRepository } from '../audit/audit.repository';
import { NotFoundError, onUniqueConflict } from '../../staff/errors';
import type { Actor } from '../audit/audit.repository';
import * as v from '../../staff/validation';
import type { FieldErrors, Result } from '../../staff/validation';
import type { IdentityRepository } from './identity.repository';
import { accountKey } from './login.service';
import { hashPassword, passwordProblem, type ScryptParams } from './password';

/** A command-line mistake: printed as is, exit code 1. */
export class UserInputError extends Error {}

const ROLES = ['admin', 'gerente'] as const;
const EMAIL_TAKEN = 'Já existe uma conta com este e-mail.';

export interface CreateUserInput {
  email: string;
  password: string;
  nome?: string;
  papel?: 'admin' | 'gerente';
  unidadeIds?: number[];
}

export interface AccountsDeps {
  /** the accounts and the audit log, changed together (built once: identity/services.ts) */
  repos: Transactional<{ identity: IdentityRepository; audit: AuditRepository }>;
  /** test fixtures use a cheaper cost; verification reads it from the hash */
  scrypt?: ScryptParams;
}

export function createAccountsService(deps: AccountsDeps) {
  const read = deps.repos.identity;
  /** A change and its audit row in ONE transaction, both with the same timestamp. */
  const audited = <T>(
    actor: Actor,
    work: (
      repo: IdentityRepository,
      audit: (e: Omit<AuditEntry, 'usuarioId'>) => Promise<void>,
      now: string,
    ) => Promise<T>,
  ) => {
    const now = nowIso();
    return deps.repos.transaction((tx) =>
      work(tx.identity, (e) => tx.audit.record({ ...e, usuarioId: actor.id }, now), now),
    );
  };

  async function snapshot(repo: IdentityRepository, id: number) {
    const u = await repo.findById(id);
    return u ? { ...u, unidadeIds: await repo.unitIds(id) } : null;
  }

  function parseRoleAndUnits(e: FieldErrors, body: Record<string, unknown>) {
    const papel = v.field(body, 'papel');
    if (!(ROLES as readonly string[]).includes(papel))
      e.papel = 'Escolha o papel: administrador ou gerente de unidade.';
    const unitIds = papel === 'gerente' ? v.idList(body, 'unidades') : [];
    if (papel === 'gerente' && !unitIds.length) e.unidades = 'Escolha pelo menos uma unidade para o gerente.';
    return { papel: papel as 'admin' | 'gerente', unitIds };
  }

  /** New password + every session ended + the account's failed logins forgiven, in one transaction. */
  async function storePassword(
    repo: IdentityRepository,
    user: { id: number; email: string },
    hash: string,
    options: { reactivate?: boolean; keepSession?: string; now?: string } = {},
  ) {
    await repo.setPasswordHash(user.id, hash, options);
    await repo.deleteSessionsOf(user.id, options.keepSession);
    await repo.clearAttempts(accountKey(user.email));
  }

  return {
    list: () => read.list(),
    units: () => read.allUnits(),
    get: (id: number) => snapshot(read, id),

    // ---- the accounts screen (admins; every change audited) --------------------------
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
      const senhaHash = await hashPassword(senha, deps.scrypt);
      return onUniqueConflict({ email: EMAIL_TAKEN }, () =>
        audited(actor, async (repo, audit, now) => {
          const id = await repo.insertAccount(
            { email: email!, nome, papel, senhaHash, unidadeIds: await repo.existingUnitIds(unitIds) },
            now,
          );
          await audit(auditRow('criar', 'usuario', id, null, await snapshot(repo, id)));
          return { ok: true as const, value: { id } };
        }),
      );
    },

    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const e: FieldErrors = {};
      const nome = v.requiredText(e, 'nome', v.field(body, 'nome'), 'o nome', 120);
      const { papel, unitIds } = parseRoleAndUnits(e, body);
      if (v.hasErrors(e)) return { ok: false, errors: e };
      return audited(actor, async (repo, audit, now) => {
        const before = await snapshot(repo, id);
        if (!before) throw new NotFoundError();
        if (
          before.papel === 'admin' &&
          papel !== 'admin' &&
          before.ativo === 1 &&
          (await repo.activeAdminCount()) <= 1
        ) {
          return {
            ok: false,
            errors: { papel: 'Esta é a única conta de administrador ativa; crie outra antes de mudar o papel desta.' },
          };
        }
        await repo.updateAccount(id, { nome, papel }, now);
        await repo.replaceUnits(id, await repo.existingUnitIds(unitIds));
        await audit(auditRow('editar', 'usuario', id, before, await snapshot(repo, id)));
        return { ok: true, value: { id } };
      });
    },

    /** Disabling ends the account's sessions at once, in the same transaction. */
    async setActive(actor: Actor, id: number, active: boolean): Promise<Result<null>> {
      return audited(actor, async (repo, audit, now) => {
        const before = await repo.findById(id);
        if (!before) throw new NotFoundError();
        if (!active && id === actor.id)
          return { ok: false, errors: { ativo: 'Você não pode desativar a sua própria conta.' } };
        if (!active && before.papel === 'admin' && before.ativo === 1 && (await repo.activeAdminCount()) <= 1) {
          return { ok: false, errors: { ativo: 'Esta é a única conta de administrador ativa.' } };
        }
        await repo.setActive(id, active ? 1 : 0, now);
        if (!active) await repo.deleteSessionsOf(id);
        await audit(activationEntry('usuario', id, before, active));
        return { ok: true, value: null };
      });
    },

    /**
     * A new password set by an admin ends every session of the account (but the admin's
     * own current one, when they change their own). Never logged or audited in clear.
     */
    async resetPassword(
      actor: Actor & { sessionId?: string },
      id: number,
      body: Record<string, unknown>,
    ): Promise<Result<null>> {
      const senha = v.field(body, 'nova_senha');
      const problem = passwordProblem(senha);
      if (problem) return { ok: false, errors: { nova_senha: problem } };
      const user = await read.findById(id);
      if (!user) throw new NotFoundError();
      const hash = await hashPassword(senha, deps.scrypt);
      return audited(actor, async (repo, audit, now) => {
        await storePassword(repo, user, hash, { now, keepSession: id === actor.id ? actor.sessionId : undefined });
        await audit(auditRow('redefinir_senha', 'usuario', id, null, { senha: 'redefinida' }));
        return { ok: true, value: null };
      });
    },

    // ---- the command line (npm run user:*) and test fixtures --------------------------
    async createFromCli(input: CreateUserInput): Promise<number> {
      const parsed = parseEmail(input.email, { lowerCase: true });
      if (!parsed.ok || !parsed.value) throw new UserInputError('Informe um e-mail válido (--email).');
      const email = parsed.value;
      const problem = passwordProblem(input.password);
      if (problem) throw new UserInputError(problem);
      const papel = input.papel ?? 'admin';
      if (papel !== 'admin' && papel !== 'gerente') throw new UserInputError('--papel deve ser "admin" ou "gerente".');
      if (await read.emailTaken(email)) throw new UserInputError(`Já existe uma conta com o e-mail ${email}.`);
      const unidadeIds = [...new Set(input.unidadeIds ?? [])];
      const found = await read.existingUnitIds(unidadeIds);
      const missing = unidadeIds.filter((id) => !found.includes(id));
      if (missing.length) throw new UserInputError(`Unidade(s) inexistente(s): ${missing.join(', ')}.`);
      const nome = cleanText(input.nome ?? '').slice(0, 120) || email.split('@')[0]!;
      const senhaHash = await hashPassword(input.password, deps.scrypt);
      return read.transaction((repo) => repo.insertAccount({ email, nome, papel, senhaHash, unidadeIds }));
    },

    /** Sets a new password, re-enables the account and ends its sessions. */
    async resetPasswordFromCli(email: string, password: string): Promise<void> {
      const problem = passwordProblem(password);
      if (problem) throw new UserInputError(problem);
      const user = await read.findByEmail(cleanText(email));
      if (!user) throw new UserInputError(`Nenhuma conta com o e-mail ${email}.`);
      const hash = await hashPassword(password, deps.scrypt);
      await read.transaction((repo) => storePassword(repo, user, hash, { reactivate: true }));
    },

    /** Disables the account and ends all its sessions. */
    async disableFromCli(email: string): Promise<void> {
      const user = await read.findByEmail(cleanText(email));
      if (!user) throw new UserInputError(`Nenhuma conta com o e-mail ${email}.`);
      await read.transaction(async (repo) => {
        await repo.setActive(user.id, 0);
        await repo.deleteSessionsOf(user.id);
      });
    },
  };
}
export type AccountsService = ReturnType<typeof createAccountsService>;

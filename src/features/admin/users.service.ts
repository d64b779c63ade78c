// Account rules shared by the CLI commands and the test fixtures.
import type { Db } from '../../db/index';
import { cleanText } from '../../lib/text';
import { parseEmail } from '../../lib/form/index';
import { hashPassword, passwordProblem, type ScryptParams } from './password';
import { createUsersRepository } from './users.repository';

export class UserInputError extends Error {}


export interface CreateUserInput {
  email: string;
  password: string;
  nome?: string;
  papel?: 'admin' | 'gerente';
  unidadeIds?: number[];
}

export function createUsersService(db: Db, options: { scrypt?: ScryptParams } = {}) {
  const repo = createUsersRepository(db);
  return {
    async create(input: CreateUserInput): Promise<number> {
      const parsed = parseEmail(input.email, { required: 'Informe um e-mail válido (--email).', lowerCase: true });
      if (!parsed.ok) throw new UserInputError('Informe um e-mail válido (--email).');
      const email = parsed.value;
      const problem = passwordProblem(input.password);
      if (problem) throw new UserInputError(problem);
      const papel = input.papel ?? 'admin';
      if (papel !== 'admin' && papel !== 'gerente') throw new UserInputError('--papel deve ser "admin" ou "gerente".');
      if (await repo.findByEmail(email)) throw new UserInputError(`Já existe uma conta com o e-mail ${email}.`);
      const unidadeIds = [...new Set(input.unidadeIds ?? [])];
      const found = await repo.existingUnitIds(unidadeIds);
      const missing = unidadeIds.filter((id) => !found.includes(id));
      if (missing.length) throw new UserInputError(`Unidade(s) inexistente(s): ${missing.join(', ')}.`);
      const nome = cleanText(input.nome ?? '').slice(0, 120) || email.split('@')[0]!;
      return repo.create({ email, nome, papel, senhaHash: await hashPassword(input.password, options.scrypt), unidadeIds });
    },

    async resetPassword(email: string, password: string): Promise<void> {
      const problem = passwordProblem(password);
      if (problem) throw new UserInputError(problem);
      if (!(await repo.setPassword(cleanText(email), await hashPassword(password, options.scrypt)))) {
        throw new UserInputError(`Nenhuma conta com o e-mail ${email}.`);
      }
    },

    async disable(email: string): Promise<void> {
      if (!(await repo.disable(cleanText(email)))) throw new UserInputError(`Nenhuma conta com o e-mail ${email}.`);
    },
  };
}

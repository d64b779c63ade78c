// npm run user:create -- --email <e> [--name <n>] [--papel admin|gerente] [--unidade <id> ...]
// The password is asked twice without echo on a terminal, or read as one line from standard
// input (scripts: `printf '%s\n' "$SENHA" | npm run user:create -- ...`). `--password` still
// works for old scripts but is not documented: shell history and `ps` would keep it.
import { parseArgs } from 'node:util';
import { createAccountsService, UserInputError } from '../features/identity/accounts.service';
import { promptPassword, withDb } from './user-common';

const USAGE = 'Uso: npm run user:create -- --email <e-mail> [--name <nome>] [--papel admin|gerente] [--unidade <id>]…  (a senha é pedida sem eco, ou lida da entrada padrão)';

let args;
try {
  args = parseArgs({
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      name: { type: 'string' },
      papel: { type: 'string' },
      unidade: { type: 'string', multiple: true },
    },
  }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(1);
}
if (!args.email) {
  console.error(USAGE);
  process.exit(1);
}

await withDb(async (db) => {
  const password = args.password ?? (await promptPassword());
  const papel = (args.papel ?? 'admin') as 'admin' | 'gerente';
  const unidadeIds = (args.unidade ?? []).map((v) => Number.parseInt(v, 10));
  if (unidadeIds.some((n) => !Number.isInteger(n) || n < 1)) throw new UserInputError('--unidade deve ser o id numérico de uma unidade.');
  const id = await createAccountsService({ db }).createFromCli({ email: args.email!, password, nome: args.name, papel, unidadeIds });
  console.log(`Conta criada (id ${id}): ${args.email!.toLowerCase()} (${papel}).`);
});

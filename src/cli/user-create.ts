// npm run user:create -- --email <e> [--name <n>] [--papel admin|gerente] [--unidade <id> ...]
// The password is asked twice without echo on a terminal, or read as one line from standard
// input (scripts: `printf '%s\n' "$SENHA" | npm run user:create -- ...`). `--password` still
// works for old scripts but is not documented: shell history and `ps` would keep it.
import { UserInputError } from '../features/identity/accounts.service';
import { accountsService } from '../features/identity/services';
import { toId } from '../lib/form/index';
import { promptPassword, readUserArgs, withDb } from './common';

const USAGE =
  'Uso: npm run user:create -- --email <e-mail> [--name <nome>] [--papel admin|gerente] [--unidade <id>]…  (a senha ' +
  'é pedida sem eco, ou lida da entrada padrão)';

const args = readUserArgs(USAGE, {
  password: { type: 'string' },
  name: { type: 'string' },
  papel: { type: 'string' },
  unidade: { type: 'string', multiple: true },
});

await withDb(async (db) => {
  const password = args.password ?? (await promptPassword());
  const papel = (args.papel ?? 'admin') as 'admin' | 'gerente';
  // The form kit's id rule: "3abc", "3.0" or "03" is refused, never read as 3.
  const bad = (args.unidade ?? []).find((v) => toId(v) === null);
  if (bad !== undefined)
    throw new UserInputError(
      `--unidade deve ser o id numérico de uma unidade (um número inteiro positivo, como 3); recebido: "${bad}".`,
    );
  const unidadeIds = (args.unidade ?? []).map((v) => toId(v)!);
  const id = await accountsService(db).createFromCli({
    email: args.email,
    password,
    nome: args.name,
    papel,
    unidadeIds,
  });
  console.log(`Conta criada (id ${id}): ${args.email.toLowerCase()} (${papel}).`);
});

// npm run user:password -- --email <e>   (asks for the password without echo, or reads one line
// from standard input; the undocumented --password stays for old scripts). Ends the
// account's sessions and re-enables it.
import { parseArgs } from 'node:util';
import { createAccountsService } from '../features/identity/accounts.service';
import { promptPassword, withDb } from './user-common';

const USAGE = 'Uso: npm run user:password -- --email <e-mail>  (a nova senha é pedida sem eco, ou lida da entrada padrão)';
let args;
try {
  args = parseArgs({ options: { email: { type: 'string' }, password: { type: 'string' } } }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(1);
}
if (!args.email) {
  console.error(USAGE);
  process.exit(1);
}
await withDb(async (db) => {
  const password = args.password ?? (await promptPassword('Nova senha: '));
  await createAccountsService({ db }).resetPasswordFromCli(args.email!, password);
  console.log(`Senha redefinida para ${args.email!.toLowerCase()}; a conta está ativa e as sessões abertas foram encerradas.`);
});

// npm run user:password -- --email <e>   (asks for the password without echo, or reads one line
// from standard input; the undocumented --password stays for old scripts). Ends the
// account's sessions and re-enables it.
import { accountsService } from '../features/identity/services';
import { promptPassword, readUserArgs, withDb } from './common';

const USAGE =
  'Uso: npm run user:password -- --email <e-mail>  (a nova senha é pedida sem eco, ou lida da entrada padrão)';
const args = readUserArgs(USAGE, { password: { type: 'string' } });
await withDb(async (db) => {
  const password = args.password ?? (await promptPassword('Nova senha: '));
  await accountsService(db).resetPasswordFromCli(args.email, password);
  console.log(
    `Senha redefinida para ${args.email.toLowerCase()}; a conta está ativa e as sessões abertas foram encerradas.`,
  );
});

// npm run user:password -- --email <e> [--password <p>]   (prompts when --password is absent)
import { parseArgs } from 'node:util';
import { createAccountsService } from '../features/identity/accounts.service';
import { promptPassword, withDb } from './user-common';

const USAGE = 'Uso: npm run user:password -- --email <e-mail> [--password <nova senha>]';
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
  console.log(`Senha redefinida para ${args.email!.toLowerCase()}; a conta está ativa.`);
});

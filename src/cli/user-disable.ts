// npm run user:disable -- --email <e>   (ends the account's open sessions too)
import { parseArgs } from 'node:util';
import { createAccountsService } from '../features/identity/accounts.service';
import { withDb } from './user-common';

const USAGE = 'Uso: npm run user:disable -- --email <e-mail>';
let args;
try {
  args = parseArgs({ options: { email: { type: 'string' } } }).values;
} catch (err) {
  console.error(`${(err as Error).message}\n${USAGE}`);
  process.exit(1);
}
if (!args.email) {
  console.error(USAGE);
  process.exit(1);
}
await withDb(async (db) => {
  await createAccountsService({ db }).disableFromCli(args.email!);
  console.log(`Conta ${args.email!.toLowerCase()} desativada; as sessões abertas foram encerradas.`);
});

// npm run user:disable -- --email <e>   (ends the account's open sessions too)
import { accountsService } from '../features/identity/services';
import { readUserArgs, withDb } from './common';

const USAGE = 'Uso: npm run user:disable -- --email <e-mail>';
const args = readUserArgs(USAGE, {});
await withDb(async (db) => {
  await accountsService(db).disableFromCli(args.email);
  console.log(`Conta ${args.email.toLowerCase()} desativada; as sessões abertas foram encerradas.`);
});

// Shared by the jobs:* commands: open the database, run one job at once, close.
import { ConfigError, loadConfig, loadDotEnv, type Config } from '../config';
import { createDb, type Db } from '../db/index';

export async function runJob(name: string, job: (ctx: { db: Db; config: Config }) => Promise<string>): Promise<void> {
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const handle = createDb(config.database);
  try {
    console.log(await job({ db: handle.db, config }));
  } catch (err) {
    console.error(`${name}: falhou:`, err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await handle.destroy();
  }
}

// Shared by the jobs:* commands: open the database, run one job at once, close.
import { ConfigError, loadConfig, loadDotEnv, type Config } from '../config';
import { createDb, type Db } from '../db/index';

export async function runJob(
  name: string,
  job: (ctx: { db: Db; config: Config }) => Promise<string>,
  /** 0 lifts the per-statement ceiling: a recount over years of rows is one long statement */
  options: { statementTimeoutMs?: number } = {},
): Promise<void> {
  loadDotEnv();
  let config: Config;
  try {
    config = loadConfig();
  } catch (err) {
    console.error(err instanceof ConfigError ? err.message : err);
    process.exit(1);
  }
  const handle = createDb(config.database, options);
  try {
    console.log(await job({ db: handle.db, config }));
  } catch (err) {
    console.error(`${name}: falhou:`, err instanceof Error ? err.message : err);
    process.exitCode = 1;
  } finally {
    await handle.destroy();
  }
}

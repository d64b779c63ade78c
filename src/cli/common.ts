// Shared by the commands: read the user-* flags, open the database, read a password without echo.
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, migrateToLatest, type Db } from '../db/index';
import { UserInputError } from '../features/identity/accounts.service';
import { readFlags } from './args';

type StringOption = { type: 'string'; multiple?: boolean };

/**
 * The command's flags (every user-* command takes `--email`, required). A flag it does not
 * know, or no `--email`, prints the message and the usage and exits with 1.
 */
export function readUserArgs<const O extends Record<string, StringOption>>(
  usage: string,
  options: O,
): { email: string } & { [K in keyof O]?: O[K]['multiple'] extends true ? string[] : string } {
  const values = readFlags(usage, { ...options, email: { type: 'string' } }) as Record<string, unknown>;
  if (!values.email) {
    console.error(usage);
    process.exit(1);
  }
  return values as ReturnType<typeof readUserArgs<O>>;
}

/** Asks for a password twice on the terminal without echoing it. */
export async function promptPassword(label = 'Senha: '): Promise<string> {
  if (!process.stdin.isTTY) {
    // Piped input (scripts): read one line.
    const rl = createInterface({ input: process.stdin });
    for await (const line of rl) {
      rl.close();
      return line;
    }
    return '';
  }
  const ask = (q: string) =>
    new Promise<string>((resolve) => {
      let muted = false;
      const out = new Writable({
        write(chunk, _enc, cb) {
          if (!muted) process.stdout.write(chunk);
          cb();
        },
      });
      const rl = createInterface({ input: process.stdin, output: out, terminal: true });
      rl.question(q, (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
      muted = true;
    });
  const first = await ask(label);
  const second = await ask('Repita a senha: ');
  if (first !== second) throw new UserInputError('As senhas digitadas não conferem.');
  return first;
}

/** Runs `fn` with a migrated database; prints pt-BR errors and sets the exit code. */
export async function withDb(fn: (db: Db) => Promise<void>): Promise<void> {
  loadDotEnv();
  try {
    const config = loadConfig();
    const handle = createDb(config.database);
    try {
      await migrateToLatest(handle.db);
      await fn(handle.db);
    } finally {
      await handle.destroy();
    }
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UserInputError) console.error(err.message);
    else console.error(err);
    process.exitCode = 1;
  }
}

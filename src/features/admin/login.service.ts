// Staff login rules: credentials, and the limit on failed attempts kept in the database
// (so every instance shares it), per account and per client address.
import type { Db } from '../../db/index';
import { nowIso } from '../../db/index';
import { dummyPasswordHash, verifyPassword } from './password';
import { createLoginAttemptsRepository, createUsersRepository } from './users.repository';

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export type LoginResult =
  | { kind: 'ok'; user: { id: number; email: string; nome: string; papel: string } }
  | { kind: 'invalid' }
  | { kind: 'locked'; retryAt: Date };

export function accountKey(email: string): string {
  return `conta:${email.trim().toLowerCase()}`.slice(0, 300);
}
export function addressKey(ip: string): string {
  return `ip:${ip}`.slice(0, 300);
}

export function createLoginService(db: Db) {
  const users = createUsersRepository(db);
  const attempts = createLoginAttemptsRepository(db);

  /** When the keys are locked, the moment the oldest counted failure leaves the window. */
  async function lockedUntil(keys: string[], now: Date): Promise<Date | null> {
    const since = nowIso(new Date(now.getTime() - LOGIN_WINDOW_MS));
    let until: Date | null = null;
    for (const key of keys) {
      const times = await attempts.times(key, since);
      if (times.length < LOGIN_MAX_FAILURES) continue;
      // Once this failure leaves the window, fewer than the maximum remain.
      const pivot = new Date(new Date(times[times.length - LOGIN_MAX_FAILURES]!).getTime() + LOGIN_WINDOW_MS);
      if (!until || pivot > until) until = pivot;
    }
    return until;
  }

  return {
    async login(input: { email: string; password: string; ip: string; now?: Date }): Promise<LoginResult> {
      const now = input.now ?? new Date();
      const keys = [accountKey(input.email), addressKey(input.ip)];
      const until = await lockedUntil(keys, now);
      if (until) return { kind: 'locked', retryAt: until };

      const user = input.email ? await users.findByEmail(input.email.trim()) : undefined;
      const ok = user
        ? await verifyPassword(input.password, user.senha_hash)
        : (await verifyPassword(input.password, await dummyPasswordHash()), false);
      if (!user || !ok || user.ativo !== 1) {
        await attempts.record(keys, nowIso(now));
        return { kind: 'invalid' };
      }
      // Success forgives the account's failures (not the address's: a shared address
      // being probed stays limited).
      await attempts.clear(keys[0]!);
      return { kind: 'ok', user: { id: user.id, email: user.email, nome: user.nome, papel: user.papel } };
    },

    /** Old rows no longer count; deleting them keeps the table small. */
    purge(now = new Date()) {
      return attempts.purgeBefore(nowIso(new Date(now.getTime() - LOGIN_WINDOW_MS)));
    },
  };
}

// Staff login rules: the limit on failed attempts, decided in the database BEFORE any
// password hash (per account and per client address, so every instance shares it and
// parallel attempts cannot overrun it), then the credentials.
import { nowIso } from '../../db/index';
import { recordLoginFailure, recordLoginLockout } from '../../platform/metrics/metrics';
import { HashQueueFullError } from './hash-queue';
import type { IdentityRepository } from './identity.repository';
import { dummyPasswordHash, verifyPassword } from './password';

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

export type LoginResult =
  | { kind: 'ok'; user: { id: number; email: string; nome: string; papel: string } }
  | { kind: 'invalid' }
  | { kind: 'locked'; retryAt: Date }
  /** too many password checks queued in this process: try again in a few seconds */
  | { kind: 'busy' };

export function accountKey(email: string): string {
  return `conta:${email.trim().toLowerCase()}`.slice(0, 300);
}
export function addressKey(ip: string): string {
  return `ip:${ip}`.slice(0, 300);
}

export function createLoginService(repo: IdentityRepository) {
  return {
    async login(input: { email: string; password: string; ip: string; now?: Date }): Promise<LoginResult> {
      const now = input.now ?? new Date();
      const keys = [accountKey(input.email), addressKey(input.ip)];
      // The attempt is counted before it is checked: of N parallel wrong attempts at most
      // LOGIN_MAX_FAILURES get this far; the others are told to wait, with no hash computed.
      const reservation = await repo.reserveAttempt(keys, LOGIN_MAX_FAILURES, LOGIN_WINDOW_MS, now);
      if (reservation.locked) {
        recordLoginLockout();
        return { kind: 'locked', retryAt: reservation.retryAt };
      }

      let user: Awaited<ReturnType<IdentityRepository['findByEmail']>>;
      let ok: boolean;
      try {
        user = input.email ? await repo.findByEmail(input.email.trim()) : undefined;
        // Unknown e-mails cost the same hash, so timing does not tell which accounts exist.
        ok = user
          ? await verifyPassword(input.password, user.senha_hash)
          : (await verifyPassword(input.password, await dummyPasswordHash()), false);
      } catch (err) {
        if (err instanceof HashQueueFullError) {
          // Nothing was checked: the attempt does not count.
          await repo.releaseAttempts(reservation.ids);
          return { kind: 'busy' };
        }
        throw err;
      }
      // A failure keeps its reservation rows: they are the failure's record.
      if (!user || !ok || user.ativo !== 1) {
        recordLoginFailure();
        return { kind: 'invalid' };
      }
      // Success forgives the account's failures (not the address's: a shared address
      // being probed stays limited) and releases this attempt's address row.
      await repo.clearAttempts(keys[0]!);
      await repo.releaseAttempts(reservation.ids);
      return { kind: 'ok', user: { id: user.id, email: user.email, nome: user.nome, papel: user.papel } };
    },

    /** Old rows no longer count; deleting them keeps the table small. */
    purge(now = new Date()) {
      return repo.purgeAttemptsBefore(nowIso(new Date(now.getTime() - LOGIN_WINDOW_MS)));
    },
  };
}

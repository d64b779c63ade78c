// Staff passwords: scrypt from node:crypto (no native dependency), OWASP parameters
// (N=2^17, r=8, p=1). The stored string carries its parameters so they can be raised
// later without invalidating existing hashes. Every hash in the process goes through
// one small queue (hash-queue.ts), so a burst of logins cannot take libuv's threadpool
// away from file reads and the rest of the server.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { passwordHashQueue } from './hash-queue';

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 256;

/** scrypt's cost (N), block size (r) and parallelism (p), as node:crypto takes them. */
export type ScryptParams = Required<Pick<ScryptOptions, 'N' | 'r' | 'p'>>;
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1 };
const KEY_LENGTH = 32;

function scrypt(password: string, salt: Buffer, keylen: number, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );
}

const maxmem = (N: number, r: number, p: number) => 128 * N * r * p + 32 * 1024 * 1024;

/** Returns a pt-BR message when the password is not acceptable, else null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `A senha precisa ter pelo menos ${MIN_PASSWORD_LENGTH} caracteres.`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A senha pode ter no máximo ${MAX_PASSWORD_LENGTH} caracteres.`;
  return null;
}

/**
 * "scrypt$N$r$p$salt$hash" (base64url). `params` exists for test fixtures, which create
 * many accounts and may use a cheaper cost; verification reads the cost from the hash.
 */
export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = params;
  // Creating or changing a password (admins, the reset link, the CLI) waits its turn
  // rather than being refused: it is rare and already limited elsewhere.
  const key = await passwordHashQueue.run(
    () => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r, p, maxmem: maxmem(N, r, p) }),
    { wait: true },
  );
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/**
 * Checks a password. Throws HashQueueFullError when the queue is full (the caller answers
 * 429); `verifications` counts the hashes actually computed (tests and the benchmark).
 */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [N, r, p] = parts.slice(1, 4).map((v) => Number.parseInt(v, 10)) as [number, number, number];
  if (![N, r, p].every((v) => Number.isInteger(v) && v > 0) || N > 2 ** 20) return false;
  const salt = Buffer.from(parts[4]!, 'base64url');
  const expected = Buffer.from(parts[5]!, 'base64url');
  if (password.length > MAX_PASSWORD_LENGTH) return false;
  const key = await passwordHashQueue.run(() => {
    hashCounters.verifications++;
    return scrypt(password.normalize('NFC'), salt, expected.length, { N, r, p, maxmem: maxmem(N, r, p) });
  });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** Hashes computed by verifyPassword in this process (never reset; read differences). */
export const hashCounters = { verifications: 0 };

// Verifying against this when the account does not exist keeps the response time the
// same, so timing does not reveal which e-mails have accounts.
let dummyHash: Promise<string> | null = null;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(18).toString('base64'));
  return dummyHash;
}

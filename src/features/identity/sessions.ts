// Staff sessions: a random value in the `sid` cookie, its sha256 as the row id in
// `sessoes` (with the account in a column). Nothing is ever written back wholesale: a
// request only moves the idle clock with an UPDATE, so a session deleted while one of its
// requests is in flight (logout, disabled account, new password) stays deleted.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nowIso } from '../../db/index';
import type { IdentityRepository } from './identity.repository';
import type { Role, StaffUser } from '../../staff/access';

export const SESSION_COOKIE = 'sid';
export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;
/** The idle clock is written at most this often per session (one UPDATE, not one per request). */
const TOUCH_EVERY_MS = 30 * 1000;

/** The row id of a cookie value: only hashes are stored. */
export function sessionKey(token: string): string {
  return createHash('sha256').update(token).digest('base64url');
}

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;

export type SessionState =
  | { kind: 'none' }
  /** a session existed but is over (idle, too old, account disabled): log in again */
  | { kind: 'ended' }
  | { kind: 'active'; id: string; staff: Omit<StaffUser, 'unidadeIds'> };

function expiry(loginAt: number, now: number): string {
  return nowIso(new Date(Math.min(now + SESSION_IDLE_MS, loginAt + SESSION_ABSOLUTE_MS)));
}

export function cookieOptions(request: FastifyRequest) {
  // request.protocol follows TRUST_PROXY (X-Forwarded-Proto only from a trusted proxy).
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: request.protocol === 'https' };
}

export function createSessions(repo: IdentityRepository) {
  return {
    /** Reads the request's session; ends it (row deleted) when it is over. */
    async read(request: FastifyRequest, nowMs = Date.now()): Promise<SessionState> {
      const token = request.cookies?.[SESSION_COOKIE];
      if (!token || !TOKEN_RE.test(token)) return { kind: 'none' };
      const id = sessionKey(token);
      const row = await repo.findSession(id);
      if (!row) return { kind: 'none' };
      const loginAt = Date.parse(row.criado_em);
      const seenAt = Date.parse(row.visto_em);
      if (row.ativo !== 1 || nowMs - seenAt > SESSION_IDLE_MS || nowMs - loginAt > SESSION_ABSOLUTE_MS) {
        await repo.deleteSession(id);
        return { kind: 'ended' };
      }
      if (
        nowMs - seenAt > TOUCH_EVERY_MS &&
        !(await repo.touchSession(id, nowIso(new Date(nowMs)), expiry(loginAt, nowMs)))
      ) {
        // Deleted between the read and now (a logout in parallel): it is over.
        return { kind: 'ended' };
      }
      const papel: Role = row.papel === 'gerente' ? 'gerente' : 'admin';
      return { kind: 'active', id, staff: { id: row.usuario_id, email: row.email, nome: row.nome, papel } };
    },

    /** A new session with a new id (no fixation); the request's previous one is deleted. */
    async start(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
      const previous = request.cookies?.[SESSION_COOKIE];
      if (previous && TOKEN_RE.test(previous)) await repo.deleteSession(sessionKey(previous));
      const token = randomBytes(32).toString('base64url');
      const now = Date.now();
      await repo.insertSession({
        id: sessionKey(token),
        usuarioId: userId,
        now: nowIso(new Date(now)),
        expiresAt: expiry(now, now),
      });
      reply.setCookie(SESSION_COOKIE, token, { ...cookieOptions(request), maxAge: SESSION_ABSOLUTE_MS / 1000 });
    },

    clearCookie(request: FastifyRequest, reply: FastifyReply) {
      reply.clearCookie(SESSION_COOKIE, cookieOptions(request));
    },

    /** Ends every session of the account ("sair" logs out everywhere). */
    endAllOf(userId: number, exceptId?: string) {
      return repo.deleteSessionsOf(userId, exceptId);
    },

    purge() {
      return repo.purgeSessions(nowIso());
    },
  };
}

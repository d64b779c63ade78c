import fp from 'fastify-plugin';
import session from '@fastify/session';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index';
import { nowIso } from '../db/index';

export const SESSION_IDLE_MS = 30 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 12 * 60 * 60 * 1000;

declare module 'fastify' {
  interface Session {
    userId?: number;
    /** ms since epoch: absolute expiry counts from here */
    loginAt?: number;
    /** ms since epoch: idle expiry counts from here */
    lastSeen?: number;
  }
}

/** Sessions in the database, so every instance behind a load balancer shares them. */
export function createSessionStore(db: Db) {
  return {
    get(sid: string, cb: (err: unknown, result?: any) => void) {
      db.selectFrom('sessoes')
        .select(['dados', 'expira_em'])
        .where('sid', '=', sid)
        .executeTakeFirst()
        .then((row) => {
          if (!row || row.expira_em <= nowIso()) return cb(null, null);
          const data = JSON.parse(row.dados);
          if (data.cookie?.expires) data.cookie.expires = new Date(data.cookie.expires);
          cb(null, data);
        }, cb);
    },
    set(sid: string, data: any, cb: (err?: unknown) => void) {
      const expires = data.cookie?.expires ? new Date(data.cookie.expires) : new Date(Date.now() + SESSION_IDLE_MS);
      const row = { sid, dados: JSON.stringify(data), expira_em: nowIso(expires), criado_em: nowIso() };
      db.insertInto('sessoes')
        .values(row)
        .onConflict((oc) => oc.column('sid').doUpdateSet({ dados: row.dados, expira_em: row.expira_em }))
        .execute()
        .then(() => cb(), cb);
    },
    destroy(sid: string, cb: (err?: unknown) => void) {
      db.deleteFrom('sessoes')
        .where('sid', '=', sid)
        .execute()
        .then(() => cb(), cb);
    },
  };
}

/** Deletes expired sessions; called periodically by the app. */
export async function purgeExpiredSessions(db: Db): Promise<void> {
  await db.deleteFrom('sessoes').where('expira_em', '<=', nowIso()).execute();
}

/**
 * Staff routes, and only they, get a session. @fastify/session does work on every request
 * it sees (a new signed id, a cookie object, a hash) even when nothing is saved, so it is
 * registered inside an encapsulated context around the staff routes, never globally:
 * public pages, the hot path, skip it entirely.
 */
export function withStaffSession(routes: FastifyPluginAsync): FastifyPluginAsync {
  return async (scope) => {
    await scope.register(session, {
      secret: scope.config.sessionSecret,
      cookieName: 'sid',
      saveUninitialized: false,
      rolling: true,
      store: createSessionStore(scope.db),
      cookie: { path: '/', httpOnly: true, sameSite: 'lax', secure: 'auto', maxAge: SESSION_IDLE_MS },
    });
    await scope.register(routes);
  };
}

/** Purges expired sessions periodically (the sessions themselves live in staff scopes). */
export default fp(
  async (app) => {
    const timer = setInterval(() => {
      purgeExpiredSessions(app.db).catch((err) => app.log.warn({ err }, 'session purge failed'));
    }, 10 * 60 * 1000);
    timer.unref();
    app.addHook('onClose', async () => clearInterval(timer));
  },
  { name: 'session', fastify: '5.x', dependencies: ['db', 'forms'] },
);

/**
 * Returns the logged-in user id, or null after ending an idle (30 min) or too old (12 h)
 * session. Touches the idle clock.
 */
export async function currentUserId(request: FastifyRequest): Promise<number | null> {
  const s = request.session;
  if (!s?.userId) return null;
  const now = Date.now();
  if (!s.loginAt || !s.lastSeen || now - s.lastSeen > SESSION_IDLE_MS || now - s.loginAt > SESSION_ABSOLUTE_MS) {
    await s.destroy();
    return null;
  }
  s.lastSeen = now;
  return s.userId;
}

/** Starts a staff session with a new id (no session fixation). */
export async function startStaffSession(request: FastifyRequest, userId: number): Promise<void> {
  await request.session.regenerate();
  const now = Date.now();
  request.session.userId = userId;
  request.session.loginAt = now;
  request.session.lastSeen = now;
}

export async function endStaffSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (request.session) await request.session.destroy();
  reply.clearCookie('sid', { path: '/' });
}

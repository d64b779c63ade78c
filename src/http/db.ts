import fp from 'fastify-plugin';
import type { DbHandle, Db, Engine, PoolStats } from '../db/index';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    /** long staff reads (reports, lists, exports): off the event loop on SQLite (DbHandle.readDb) */
    readDb: Db;
    dbEngine: Engine;
    /** the connection pool's counts right now (read by the metrics) */
    dbPoolStats(): PoolStats;
  }
}

/** Makes the database available as `app.db`; closes it when the app closes. */
export default fp<{ handle: DbHandle; ownsHandle: boolean }>(
  async (app, { handle, ownsHandle }) => {
    app.decorate('db', handle.db);
    app.decorate('readDb', handle.readDb);
    app.decorate('dbEngine', handle.engine);
    app.decorate('dbPoolStats', () => handle.poolStats?.() ?? { total: 1, idle: 1, waiting: 0 });
    if (ownsHandle) app.addHook('onClose', async () => handle.destroy());
  },
  { name: 'db', fastify: '5.x' },
);

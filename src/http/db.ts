import fp from 'fastify-plugin';
import type { DbHandle, Db, Engine } from '../db/index';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
    dbEngine: Engine;
  }
}

/** Makes the database available as `app.db`; closes it when the app closes. */
export default fp<{ handle: DbHandle; ownsHandle: boolean }>(
  async (app, { handle, ownsHandle }) => {
    app.decorate('db', handle.db);
    app.decorate('dbEngine', handle.engine);
    if (ownsHandle) app.addHook('onClose', async () => handle.destroy());
  },
  { name: 'db', fastify: '5.x' },
);

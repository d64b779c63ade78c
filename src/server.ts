// Listen and shut down gracefully; everything else is in app.ts.
import { buildApp } from './app';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { createDb, migrateToLatest } from './db/index';
import { isCatalogEmpty, seedDemo } from './db/seeds/demo';
import { seedDemoPhotos } from './features/unit-photos/demo';
import { createLocalStorage } from './features/storage/index';

async function main() {
  loadDotEnv();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }

  const handle = createDb(config.database);
  await migrateToLatest(handle.db);
  if (config.demoSeed && (await isCatalogEmpty(handle.db))) {
    await seedDemo(handle.db);
    // drawn with sharp, stored like staff uploads (about a second for the demo units)
    await seedDemoPhotos(handle.db, createLocalStorage(config.uploadsDir));
  }

  const app = await buildApp(config, { db: handle });
  app.addHook('onClose', async () => handle.destroy());
  if (config.demoSeed) app.log.info('demo content is loaded on an empty database (DEMO_SEED=false turns this off)');

  let closing = false;
  // While draining, answers close their keep-alive connection, so server.close() is not
  // held open by clients that would otherwise reuse it.
  app.addHook('onSend', async (_request, reply) => {
    if (closing) reply.header('connection', 'close');
  });
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: draining requests');
    // Fastify stops accepting, waits for in-flight requests, then runs onClose hooks (db).
    const force = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err) => {
        app.log.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  process.on('SIGINT', () => shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

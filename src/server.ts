// Listen and shut down gracefully; everything else is in app.ts.
import { buildApp } from './app';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { createDb, migrateToLatest } from './db/index';
import { isCatalogEmpty, seedDemo } from './db/seeds/demo';
import { seedDemoPhotos } from './features/unit-photos/demo';
import { invalidateCatalogCache } from './features/catalog/index';
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
  const seeded = config.demoSeed && (await isCatalogEmpty(handle.db));
  if (seeded) await seedDemo(handle.db);

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
  if (seeded) {
    // Demo photos are drawn with sharp after the site is up (several seconds on a small
    // machine): units show the placeholder until their photos are stored.
    seedDemoPhotos(handle.db, createLocalStorage(config.uploadsDir))
      .then((n) => {
        invalidateCatalogCache(app);
        app.log.info({ photos: n }, 'demo photos stored');
      })
      .catch((err) => app.log.warn({ err }, 'demo photos could not be stored'));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// Listen and shut down gracefully; everything else is in app.ts.
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app';
import { ConfigError, loadConfig, loadDotEnv } from './config';
import { createDb } from './db/index';
import { prepareDatabase } from './db/startup';
import { invalidateCatalogCache } from './features/catalog/index';

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

  // Several instances may start at once on an empty database: migrations and the demo
  // seed run under a database lock, once.
  const prepared = await prepareDatabase(config.database, { seed: config.demoSeed ? 'if-empty' : false });

  // Errors of pooled connections (a database restart) are logged; the pool replaces the
  // connection and requests meanwhile answer 503.
  let onConnectionError: (err: Error) => void = () => {};
  const handle = createDb(config.database, { onConnectionError: (err) => onConnectionError(err) });
  const app = await buildApp(config, { db: handle });
  onConnectionError = (err) =>
    app.log.warn({ err: { message: err.message, code: (err as { code?: string }).code } }, 'database connection lost');
  app.addHook('onClose', async () => handle.destroy());
  for (const m of prepared.migrations.results ?? [])
    app.log.info({ migration: m.migrationName, status: m.status }, 'migration applied');
  if (prepared.seeded) app.log.info('demo content loaded on the empty database (DEMO_SEED=false turns this off)');

  let closing = false;
  let photosChild: ChildProcess | null = null;
  // While draining, answers close their keep-alive connection, so server.close() is not
  // held open by clients that would otherwise reuse it.
  // A callback hook, not async: it runs on every response.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
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
    // The demo-photo child (first start only) closes its database connection too.
    const photosDone = photosChild
      ? new Promise((resolve) => photosChild!.once('exit', resolve).kill('SIGTERM'))
      : null;
    Promise.all([app.close(), photosDone]).then(
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
  if (prepared.seeded) {
    // Demo photos are drawn with sharp after the site is up (several seconds on a small
    // machine), in a child process so libvips never stays resident in the server: units
    // show the placeholder until their photos are stored.
    const child = fork(fileURLToPath(new URL('./cli/seed-photos.js', import.meta.url)), [], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    photosChild = child;
    let photos: number | null = null;
    child.on('message', (m: { photos?: number }) => (photos = m.photos ?? null));
    child.on('exit', (code) => {
      photosChild = null;
      if (closing) return;
      if (code !== 0 || photos === null) return app.log.warn({ code }, 'demo photos could not be stored');
      invalidateCatalogCache(app);
      app.log.info({ photos }, 'demo photos stored');
    });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

// Draws the demo unit photos (sharp) for units that have none. The server runs it as a
// child process after seeding an empty database, so libvips (~90 MB resident) never loads
// into the server itself (docs/decisions/165). It stops, closing the database, when the
// server asks (SIGTERM while draining) or goes away (the IPC channel closes); a photo cut
// short is left to the orphan sweep.
import { ConfigError, loadConfig, loadDotEnv } from '../config';
import { createDb, type DbHandle } from '../db/index';
import { createFileStorage } from '../platform/storage/index';
import { seedDemoPhotos } from '../features/unit-photos/demo';

let handle: DbHandle | null = null;
const stop = () => {
  void (handle?.destroy() ?? Promise.resolve()).finally(() => process.exit(1));
};
process.on('SIGTERM', stop);
if (process.send) process.on('disconnect', stop);

loadDotEnv();
try {
  const config = loadConfig();
  handle = createDb(config.database);
  const added = await seedDemoPhotos(handle.db, createFileStorage(config, handle.db));
  process.send?.({ photos: added });
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exitCode = 1;
} finally {
  process.off('disconnect', stop);
  await handle?.destroy();
  if (process.connected) process.disconnect();
}

// Backups (docs/decisions/226, 227): `npm run backup` / `npm run restore` (archive.ts), and
// the scheduled backup with BACKUP_DIR: every BACKUP_INTERVAL_HOURS, in one instance at a
// time (a lease row in `tarefas_agendadas`), keeping the newest BACKUP_KEEP files.
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import path from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/index';
import { startPolling } from '../jobs/polling';
import { createTaskLease } from '../jobs/task-lease.repository';
import { countJob } from '../metrics/metrics';
import { createBackup, pruneBackups, scheduledBackupName } from './archive';

export {
  BackupError,
  createBackup,
  pruneBackups,
  restoreBackup,
  type BackupManifest,
} from './archive';

export const BACKUP_TASK = 'backup';
/** How long a lease holds without renewal: a holder that died lets another instance take over after it. */
export const LEASE_MS = 15 * 60 * 1000;
/** A failed backup is tried again after this (or the interval, when shorter). */
const RETRY_MS = 60 * 60 * 1000;

export interface ScheduledBackupContext {
  db: Db;
  config: Pick<Config, 'database' | 'uploadsDir' | 'storage' | 'backup'>;
  log?: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** who holds the lease (defaults to host, pid and a random tag) */
  owner?: string;
}

/**
 * Takes the scheduled backup when it is due and no other instance holds it; returns the file
 * written, or null when there was nothing to do here. Safe to call from every instance.
 */
export async function runScheduledBackup(ctx: ScheduledBackupContext, now = new Date()): Promise<string | null> {
  const dir = ctx.config.backup.dir;
  if (!dir) return null;
  const task = createTaskLease(ctx.db, BACKUP_TASK);
  const owner = ctx.owner ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  await task.ensure(now.toISOString());
  // Measured from `now` (the caller's clock), advanced by the time actually spent.
  const started = Date.now();
  const until = () => new Date(now.getTime() + (Date.now() - started) + LEASE_MS).toISOString();
  if (!(await task.claim(now.toISOString(), until(), owner))) return null;
  // A long backup keeps its lease; if this process dies the lease runs out and another takes over.
  const renew = setInterval(() => void task.renew(owner, until()).catch(() => {}), Math.floor(LEASE_MS / 3));
  renew.unref();
  try {
    const { file, manifest } = await countJob('backup', () =>
      createBackup(ctx, path.join(dir, scheduledBackupName(now)), now),
    );
    const removed = await pruneBackups(dir, ctx.config.backup.keep);
    await task.finish(owner, {
      at: now.toISOString(),
      next: new Date(now.getTime() + ctx.config.backup.intervalMs).toISOString(),
      error: null,
    });
    ctx.log?.info({ file, files: manifest.files.length, removed }, 'scheduled backup written');
    return file;
  } catch (err) {
    await task
      .finish(owner, {
        at: now.toISOString(),
        next: new Date(now.getTime() + Math.min(RETRY_MS, ctx.config.backup.intervalMs)).toISOString(),
        error: String((err as Error).message ?? err).slice(0, 1000),
      })
      .catch(() => {});
    throw err;
  } finally {
    clearInterval(renew);
  }
}

/** Checks every few minutes whether the backup is due; never overlaps itself. */
export function startBackupScheduler(
  ctx: ScheduledBackupContext,
  checkEveryMs = Math.min(5 * 60 * 1000, ctx.config.backup.intervalMs),
): { stop(): Promise<void> } {
  return startPolling({
    pass: async () => {
      await runScheduledBackup(ctx);
      return false;
    },
    everyMs: checkEveryMs,
    firstAfterMs: 10_000,
    log: ctx.log,
    failure: 'scheduled backup failed',
  });
}

/** The scheduled backup runs in this process when BACKUP_DIR is set and SCHEDULED_JOBS is on. */
export default fp(
  async (app) => {
    if (!app.config.backup.dir || !app.config.scheduledJobs) return;
    let scheduler: { stop(): Promise<void> } | null = null;
    app.addHook('onReady', async () => {
      scheduler = startBackupScheduler({ db: app.db, config: app.config, log: app.log });
    });
    app.addHook('onClose', async () => {
      await scheduler?.stop();
    });
  },
  { name: 'backup', fastify: '5.x', dependencies: ['db'] },
);

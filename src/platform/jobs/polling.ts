// The timer of the background workers and periodic jobs: a pass at a time, never two.
import type { FastifyBaseLogger } from 'fastify';

export interface Polling {
  /** runs a pass now, or once more right after the one running */
  kick(): void;
  /** no new pass; resolves when the running one ends */
  stop(): Promise<void>;
}

/**
 * Runs `pass` every `everyMs` (the first time after `firstAfterMs`), never two at once, and
 * again at once while it answers true (a full batch: more is waiting). A timer tick during a
 * pass is dropped; a kick is not. An error is logged and the next tick tries again.
 */
export function startPolling(options: {
  pass: (shouldStop: () => boolean) => Promise<boolean>;
  everyMs: number;
  firstAfterMs: number;
  log?: Pick<FastifyBaseLogger, 'error'>;
  /** what the log says when a pass fails */
  failure: string;
}): Polling {
  let running: Promise<unknown> | null = null;
  let again = false;
  let stopped = false;
  const shouldStop = () => stopped;
  const loop = async () => {
    do {
      again = false;
      if (await options.pass(shouldStop)) again = true;
    } while (again && !stopped);
  };
  const tick = (rerun: boolean) => {
    if (stopped) return;
    if (running) {
      again ||= rerun;
      return;
    }
    running = loop()
      .catch((err) => options.log?.error({ err }, options.failure))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(() => tick(false), options.everyMs);
  timer.unref();
  setTimeout(() => tick(false), options.firstAfterMs).unref();
  return {
    kick: () => tick(true),
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}

// The enrolment job's timer: every minute, unpaid enrolments past their time expire and
// cancellations whose paid period ended take effect. Conditional updates make it safe on
// several instances at once; `app.enrolmentJobs.run()` runs it at once.
import type { FastifyBaseLogger } from 'fastify';
import { countJob } from '../../platform/metrics/metrics';
import type { EnrolmentService } from './enrolment.service';

const EVERY_MS = 60_000;

export function startEnrolmentJobs(service: Pick<EnrolmentService, 'runJobs'>, log: Pick<FastifyBaseLogger, 'error'>) {
  return startRepeating(
    () => countJob('enrolments', () => service.runJobs()),
    EVERY_MS,
    log,
    'enrolment job failed; retried in a minute',
  );
}

/** Runs `run` now and every `everyMs`, never overlapping itself; an error is logged and the next tick tries again. */
export function startRepeating(
  run: () => Promise<unknown>,
  everyMs: number,
  log: Pick<FastifyBaseLogger, 'error'>,
  failure: string,
) {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= run()
      .catch((err) => log.error({ err }, failure))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

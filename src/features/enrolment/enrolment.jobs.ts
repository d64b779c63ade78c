// The enrolment job's timer: every minute, unpaid enrolments past their time expire and
// cancellations whose paid period ended take effect. Conditional updates make it safe on
// several instances at once; `app.enrolmentJobs.run()` runs it at once.
import type { FastifyBaseLogger } from 'fastify';
import { countJob } from '../../platform/metrics/metrics';
import type { EnrolmentService } from './enrolment.service';

const EVERY_MS = 60_000;

export function startEnrolmentJobs(service: Pick<EnrolmentService, 'runJobs'>, log: Pick<FastifyBaseLogger, 'error'>) {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    running ??= countJob('enrolments', () => service.runJobs())
      .catch((err) => log.error({ err }, 'enrolment job failed; retried in a minute'))
      .finally(() => {
        running = null;
      });
  };
  tick();
  const timer = setInterval(tick, EVERY_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

// Trial classes: the public booking form, thanks page and .ics; the staff list, funnel and
// capacity screens; the reminder and anonymisation jobs (timer here, npm run jobs:* at once).
import fp from 'fastify-plugin';
import { anonymizeOldBookings, sendReminders, startBookingJobs } from './booking.jobs';
import { transactional } from '../../db/transactional';
import { createBookingRepository } from './booking.repository';
import { bookingRoutes } from './booking.routes';
import { createBookingService } from './booking.service';
import { createStaffService } from './staff.service';
import { staffRoutes } from './staff.routes';

declare module 'fastify' {
  interface FastifyInstance {
    /** this instance's trial-class jobs, run at once (CLI, tests with a fake clock) */
    bookingJobs: {
      reminders(now?: Date): Promise<{ queued: number }>;
      anonymize(now?: Date): Promise<{ anonymized: number }>;
    };
  }
}

/**
 * Trial-class booking: the public form and thanks page, the staff list, funnel
 * and capacity screens, and the reminder/anonymisation jobs (a timer in this process
 * when SCHEDULED_JOBS is on; `npm run jobs:*` run them at once).
 */
export default fp(
  async (app) => {
    const deps = { db: app.db, config: app.config, log: app.log };
    const repo = transactional(app.db, createBookingRepository);
    const service = createBookingService(deps, repo);
    const now = () => new Date();
    bookingRoutes(app, { service, now, catalog: () => app.catalog.snapshot() });
    const staff = createStaffService(repo, { publicUrl: app.config.publicUrl });
    await app.register(async (scope) => staffRoutes(scope, { staff, now }));

    app.decorate('bookingJobs', {
      reminders: (at?: Date) => sendReminders(deps, at),
      anonymize: (at?: Date) => anonymizeOldBookings(deps, at),
    });
    if (app.config.scheduledJobs) {
      let jobs: { stop(): Promise<void> } | null = null;
      app.addHook('onReady', async () => {
        jobs = startBookingJobs(deps);
      });
      app.addHook('onClose', async () => {
        await jobs?.stop();
      });
    }
  },
  { name: 'feature-booking', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity', 'feature-catalog'] },
);

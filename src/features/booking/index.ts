// Trial classes: the public booking form, thanks page and .ics; the staff list, funnel and
// capacity screens; the reminder job (timer here, npm run jobs:reminders at once).
import fp from 'fastify-plugin';
import { sendReminders, startBookingJobs } from './booking.jobs';
import { transactional } from '../../db/transactional';
import { createBookingRepository } from './booking.repository';
import { bookingRoutes } from './booking.routes';
import { createBookingService } from './booking.service';
import { createStaffService } from './staff.service';
import { staffRoutes } from './staff.routes';
import { staffScope } from '../../staff/scope';
import { enrolmentReads } from '../enrolment/services';

declare module 'fastify' {
  interface FastifyInstance {
    /** this instance's trial-class reminder job, run at once (CLI, tests with a fake clock) */
    bookingJobs: {
      reminders(now?: Date): Promise<{ queued: number }>;
    };
  }
}

/**
 * Trial-class booking: the public form and thanks page, the staff list, funnel
 * and capacity screens, and the reminder job (a timer in this process when SCHEDULED_JOBS
 * is on; `npm run jobs:reminders` runs it at once). Old bookings are anonymised by the
 * privacy feature's retention job (RETENTION_BOOKINGS_MONTHS).
 */
export default fp(
  async (app) => {
    const deps = { db: app.db, config: app.config, log: app.log };
    const repo = transactional(app.db, createBookingRepository);
    const service = createBookingService(deps, repo);
    const now = () => new Date();
    bookingRoutes(app, { service, now, catalog: () => app.catalog.snapshot() });
    const staff = createStaffService(
      repo,
      { publicUrl: app.config.publicUrl, enrolments: enrolmentReads(app.readDb) },
      createBookingRepository(app.readDb),
    );
    await staffScope(app, { role: 'staff' }, (scope) => staffRoutes(scope, { staff, now }));

    app.decorate('bookingJobs', {
      reminders: (at?: Date) => sendReminders(deps, at),
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

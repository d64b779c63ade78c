import fp from 'fastify-plugin';
import { withStaffSession } from '../../http/session';
import { bookingRoutes } from './booking.routes';
import { createBookingService } from './booking.service';

/** Trial-class booking (issue 14): the public form, the staff list and funnel, and the jobs. */
export default fp(
  async (app) => {
    const service = createBookingService({ db: app.db, config: app.config, log: app.log });
    bookingRoutes(app, { service, now: () => new Date() });
  },
  { name: 'feature-booking', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'auth'] },
);

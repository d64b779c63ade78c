// Calls to action: the counted redirects of the public site (/ir/…, no cookie) and the
// staff report of clicks per unit and week (/admin/cliques).
import fp from 'fastify-plugin';
import { createCtaRepository } from './cta.repository';
import { createCtaService } from './cta.service';
import { ctaRoutes, ctaStaffRoutes } from './cta.routes';
import { staffScope } from '../../staff/scope';

/** Calls to action: counted redirects (/ir/…) and the staff clicks report (/admin/cliques). */
export default fp(
  async (app) => {
    const service = createCtaService(createCtaRepository(app.db), createCtaRepository(app.readDb));
    ctaRoutes(app, service);
    await staffScope(app, { role: 'staff' }, ctaStaffRoutes(service));
  },
  { name: 'feature-cta', fastify: '5.x', dependencies: ['db', 'errors', 'forms', 'identity', 'feature-catalog'] },
);

import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config';
import { createDb, type DbHandle } from './db/index';
import dbPlugin from './http/db';
import { loggerOptions, OneLinePerRequest } from './http/logger';
import { createRequestIdGenerator } from './http/request-id';
import securityPlugin from './http/security';
import errorsPlugin from './http/errors';
import notFoundPlugin from './http/not-found';
import staticPlugin from './http/static';
import formsPlugin from './http/forms';
import healthPlugin from './http/health';
import brandPlugin from './brand/routes';
import { loadSharp } from './platform/storage/images';
import { fastifyTrustProxy } from './http/proxy';
import { canonicalIdParams } from './http/params';
import catalogFeature from './features/catalog/index';
import storageFeature from './platform/storage/index';
import mailFeature from './platform/mail/index';
import rateLimitPlugin from './platform/ratelimit/index';
import identityFeature from './features/identity/index';
import mailDiagnostic from './platform/mail/diagnostic';
import franchiseFeature from './features/franchise/index';
import feedbackFeature from './features/feedback/index';
import contentFeature from './features/content/index';
import auditFeature from './features/audit/index';
import ctaFeature from './features/cta/index';
import unitPhotosFeature from './features/unit-photos/index';
import bookingFeature from './features/booking/index';
import enrolmentFeature from './features/enrolment/index';
import envioFeature from './platform/envio/index';
import webhooksPlatform from './platform/webhooks/index';
import metricsPlugin from './platform/metrics/index';
import backupPlugin from './platform/backup/index';
import privacyComplianceFeature from './features/privacy/compliance';
import privacyFeature from './features/privacy/index';

export interface BuildOptions {
  /** an open database (tests share one per file); otherwise the app opens and closes its own */
  db?: DbHandle;
  /** pino logger options; false in tests */
  logger?: boolean | object;
}

export type App = FastifyInstance;

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const logger = options.logger ?? loggerOptions(config);
  const trustProxy = fastifyTrustProxy(config.trustProxy);
  const genReqId = createRequestIdGenerator();
  const app = Fastify({
    logger,
    trustProxy,
    genReqId,
    // One line per request instead of Fastify's two (http/logger.ts).
    logController: new OneLinePerRequest(),
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorate('config', config);
  // Path ids accept only the form kit's canonical id (before any route is added).
  app.addHook('onRoute', canonicalIdParams);
  const handle = options.db ?? createDb(config.database);
  await app.register(dbPlugin, { handle, ownsHandle: !options.db });
  await app.register(securityPlugin);
  // Before every route: its hook times them all.
  await app.register(metricsPlugin);
  await app.register(errorsPlugin);
  await app.register(rateLimitPlugin);
  await app.register(notFoundPlugin);
  await app.register(staticPlugin, { root: path.resolve('public') });
  await app.register(formsPlugin, { secret: config.sessionSecret });
  await app.register(identityFeature);
  await app.register(healthPlugin);
  await app.register(brandPlugin, { loadSharp });

  await app.register(storageFeature);
  await app.register(envioFeature);
  await app.register(mailFeature);
  await app.register(mailDiagnostic);
  await app.register(webhooksPlatform);
  await app.register(catalogFeature);
  await app.register(franchiseFeature);
  await app.register(feedbackFeature);
  await app.register(contentFeature);
  await app.register(auditFeature);
  await app.register(ctaFeature);
  await app.register(unitPhotosFeature);
  await app.register(bookingFeature);
  await app.register(enrolmentFeature);
  await app.register(backupPlugin);
  await app.register(privacyComplianceFeature);
  await app.register(privacyFeature);

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
  }
}

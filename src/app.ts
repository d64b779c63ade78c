import path from 'node:path';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Config } from './config';
import { createDb, type DbHandle } from './db/index';
import dbPlugin from './http/db';
import { lazyChildLogger, loggerOptions } from './http/logger';
import { createRequestIdGenerator } from './http/request-id';
import { schemaCompilers } from './http/schemas';
import securityPlugin, { HSTS } from './http/security';
import { AnswerFront, putInFront } from './http/answer-front';
import errorsPlugin from './http/errors';
import notFoundPlugin from './http/not-found';
import staticPlugin from './http/static';
import formsPlugin from './http/forms';
import healthPlugin from './http/health';
import brandPlugin from './brand/routes';
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
import envioFeature from './platform/envio/index';
import privacyFeature from './features/privacy/index';

export interface BuildOptions {
  /** an open database (tests share one per file); otherwise the app opens and closes its own */
  db?: DbHandle;
  /** pino logger options; false in tests */
  logger?: boolean | object;
  /** compile every route schema at start, as Fastify does by default (a test proves they all compile) */
  eagerSchemas?: boolean;
}

export type App = FastifyInstance;

export async function buildApp(config: Config, options: BuildOptions = {}) {
  const logger = options.logger ?? loggerOptions(config);
  const trustProxy = fastifyTrustProxy(config.trustProxy);
  const genReqId = createRequestIdGenerator();
  // Repeats of the catalog's kept answers are answered before Fastify (docs/decisions/182).
  // Requests logged line by line go through Fastify, which writes those lines.
  const front = new AnswerFront({
    requestId: genReqId,
    trustProxy,
    hsts: HSTS,
    logsRequests: () => (app.log as { isLevelEnabled?(level: string): boolean }).isLevelEnabled?.('info') === true,
    onError: (err) => app.log.error({ err }, 'answer front failed; the request went to Fastify'),
  });
  const app = Fastify({
    logger,
    trustProxy,
    genReqId,
    // Without a logger Fastify's own factory skips children altogether.
    ...(logger ? { childLoggerFactory: lazyChildLogger as unknown as FastifyServerOptions['childLoggerFactory'] } : {}),
    bodyLimit: 1024 * 1024,
    // Staff routes' schemas are compiled when first used, not held from the start (docs/decisions/170).
    schemaController: { compilersFactory: schemaCompilers({ eager: options.eagerSchemas }) as never },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  }).withTypeProvider<TypeBoxTypeProvider>();

  putInFront(app.server, front);
  app.decorate('config', config);
  app.decorate('answerFront', front);
  // Shutting down: every request goes to Fastify, which refuses new ones and closes connections.
  app.addHook('preClose', (done: () => void) => {
    front.close();
    done();
  });
  // Path ids accept only the form kit's canonical id (before any route is added).
  app.addHook('onRoute', canonicalIdParams);
  const handle = options.db ?? createDb(config.database);
  await app.register(dbPlugin, { handle, ownsHandle: !options.db });
  await app.register(securityPlugin);
  await app.register(errorsPlugin);
  await app.register(rateLimitPlugin);
  await app.register(notFoundPlugin);
  await app.register(staticPlugin, { root: path.resolve('public') });
  await app.register(formsPlugin, { secret: config.sessionSecret });
  await app.register(identityFeature);
  await app.register(healthPlugin);
  await app.register(brandPlugin);

  await app.register(storageFeature);
  await app.register(envioFeature);
  await app.register(mailFeature);
  await app.register(mailDiagnostic);
  await app.register(catalogFeature);
  await app.register(franchiseFeature);
  await app.register(feedbackFeature);
  await app.register(contentFeature);
  await app.register(auditFeature);
  await app.register(ctaFeature);
  await app.register(unitPhotosFeature);
  await app.register(bookingFeature);
  await app.register(privacyFeature);

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** answers repeats of kept public answers before routing (http/answer-front.ts) */
    answerFront: AnswerFront;
  }
}

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendInvalid } from '../../../http/errors';
import { uploadRoutes } from '../../../http/forms';
import { toId } from '../../../lib/form/index';
import { multipartReader, receivedUpload, releaseUpload } from '../../../platform/storage/multipart';
import { readMessageFields } from './fale-aqui.service';
import { FALE_AQUI_PATH, FALE_AQUI_POST_PATH, FaleAquiPage } from './fale-aqui.view';
import { IMAGE_FIELDS, MAX_IMAGE_BYTES, MAX_IMAGES } from './images';
import type { FeedbackServices } from '../services';
import { THANKS_PATH } from '../survey/survey.view';
import { UNIT_LINK_QUERY } from '../unit-link';

/** POSTs per address and window of the free-message form. */
export const FALE_AQUI_RATE_LIMIT = { max: 10, timeWindow: 60_000 };
export async function faleAquiRoutes(app: FastifyInstance, services: FeedbackServices) {
  // The photos wait in spool files (at most 3 parts × 20 MB: the third only to refuse it
  // with a clear message) while the CSRF check and the service look at the text fields.
  const readMultipart = multipartReader(
    { fileFields: IMAGE_FIELDS, maxFiles: MAX_IMAGES, maxFileBytes: MAX_IMAGE_BYTES },
    () => app.uploadSpool,
  );
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.faleAqui;

  async function renderForm(
    reply: FastifyReply,
    props: Omit<Parameters<typeof FaleAquiPage>[0], 'units' | 'csrfToken'>,
    status = 200,
  ) {
    reply.header('cache-control', 'no-store');
    return reply.page(
      h(FaleAquiPage, { ...props, units: await service.activeUnits(), csrfToken: reply.generateCsrf() }),
      status,
    );
  }

  r.get(
    FALE_AQUI_PATH,
    {
      // ?unidade= wins over ?unidade_id= when a link has both.
      schema: { querystring: Type.Object(UNIT_LINK_QUERY) },
    },
    async (request, reply) => {
      const values = readMessageFields({ unidade_id: request.query.unidade ?? request.query.unidade_id ?? '' });
      if (toId(values.unidade_id) === null) values.unidade_id = '';
      return renderForm(reply, { values, errors: {}, hadFiles: false });
    },
  );

  // Takes files: multipart is parsed in this route's scope only (forms.ts).
  await app.register(
    uploadRoutes((scope) => {
      scope.withTypeProvider<TypeBoxTypeProvider>().post(
        FALE_AQUI_POST_PATH,
        {
          // The multipart body is a stream: read by readMultipart, checked by the service.
          preHandler: [readMultipart, app.csrfProtection],
          onSend: releaseUpload,
          // Each request may hold up to 30 MB in memory while it is checked: a per-address
          // limit keeps one client from filling the memory (a gym's wi-fi stays far below it).
          config: { formPath: FALE_AQUI_PATH, rateLimit: FALE_AQUI_RATE_LIMIT },
        },
        async (request, reply) => {
          const upload = receivedUpload(request);
          const body = (request.body ?? {}) as Record<string, unknown>;
          const result = await service.submit(body, upload.files, upload.problem);
          // Stored, or a second POST of the same form (stored nothing): the same answer.
          if (result.status !== 'invalid') return reply.redirect(THANKS_PATH, 303);
          const hadFiles = upload.files.length > 0 || upload.problem !== null;
          const units = await service.activeUnits();
          return sendInvalid(
            request,
            reply,
            result.errors,
            () =>
              h(FaleAquiPage, {
                values: result.values,
                errors: result.errors,
                hadFiles,
                units,
                csrfToken: reply.generateCsrf(),
              }),
            result.httpStatus,
          );
        },
      );
    }),
  );
}

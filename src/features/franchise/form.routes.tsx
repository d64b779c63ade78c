// GET/POST /pages/Franquia/index.php (the franchise form) and its thank-you page.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendInvalid, wantsJson } from '../../http/errors';
import { newEnvioId } from '../../lib/form/index';
import type { LeadService } from './lead.service';
import { FranchiseFormPage, HONEYPOT_FIELD, ThankYouPage } from './form.view';

export const FORM_PATH = '/pages/Franquia/index.php';
export const THANKS_PATH = '/pages/Franquia/obrigado.php';

/** Per client address; people correcting a form a few times stay well below it. */
export const FORM_RATE_LIMIT = { max: 10, timeWindow: 10 * 60 * 1000 };

export default async function formRoutes(app: FastifyInstance, leads: LeadService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  r.get(FORM_PATH, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.page(h(FranchiseFormPage, { csrfToken: reply.generateCsrf(), envioId: newEnvioId() }));
  });

  r.post(
    FORM_PATH,
    {
      // Permissive: every rule lives in the service, so mistakes get the form back (422).
      schema: { body: Type.Record(Type.String(), Type.Unknown()) },
      config: { formPath: FORM_PATH, rateLimit: FORM_RATE_LIMIT },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const honeypot = body[HONEYPOT_FIELD];
      if (typeof honeypot === 'string' && honeypot.trim() !== '') {
        // A bot: answer as if all went well, store nothing.
        request.log.info('franchise form honeypot filled; ignored');
        return wantsJson(request) ? reply.code(201).send({ ok: true }) : reply.redirect(THANKS_PATH, 303);
      }
      const stored = await leads.submit(body, request.log);
      if (stored.status === 'invalid') {
        return sendInvalid(request, reply, stored.errors, () =>
          h(FranchiseFormPage, {
            csrfToken: reply.generateCsrf(),
            envioId: stored.envioId,
            values: stored.values,
            errors: stored.errors,
          }),
        );
      }
      // A second POST of the same form (double click) stored nothing: the same answer as the first.
      const id = stored.id;
      request.log.info({ leadId: id, duplicate: stored.status === 'duplicate' }, 'franchise lead stored');
      if (wantsJson(request)) return reply.code(201).send({ ok: true, id });
      return reply.redirect(THANKS_PATH, 303);
    },
  );

  r.get(THANKS_PATH, async (_request, reply) => reply.page(h(ThankYouPage, {})));
}

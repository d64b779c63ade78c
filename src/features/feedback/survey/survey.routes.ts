import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError, sendInvalid, wantsJson } from '../../../http/errors';
import { readOrigin } from './origin';
import { KIOSK_PATH, KioskPage, TOKEN_PATH } from './kiosk.view';
import type { FeedbackServices } from '../services';
import { emptyValues, parseUnitId } from './survey.service';
import { UNIT_LINK_QUERY } from '../unit-link';
import { SURVEY_PATH, SURVEY_POST_PATH, SurveyFormPage, THANKS_PATH, ThanksPage, UnitChooserPage } from './survey.view';

const FormBody = Type.Record(Type.String(), Type.Unknown());

/** The survey's address and the kiosk's name a unit that is unknown or takes no survey now. */
const unitNotFound = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(
    request,
    reply,
    404,
    'Unidade não encontrada',
    'Esta unidade não existe ou não recebe avaliações no momento.',
  );

export async function surveyRoutes(app: FastifyInstance, services: FeedbackServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.survey;

  r.get(
    SURVEY_PATH,
    {
      schema: {
        // ?unidade_id= wins over ?unidade= when a link has both.
        querystring: Type.Object({ ...UNIT_LINK_QUERY, origem: Type.Optional(Type.String({ maxLength: 30 })) }),
      },
    },
    async (request, reply) => {
      const raw = (request.query.unidade_id || request.query.unidade)?.trim() ?? '';
      if (raw === '') {
        return reply.page(h(UnitChooserPage, { units: await service.activeUnits() }));
      }
      const unitId = parseUnitId(raw);
      if (!unitId)
        return sendError(request, reply, 400, 'Endereço inválido', 'O código da unidade neste endereço não é válido.');
      const form = await service.formFor(unitId);
      if (!form) return unitNotFound(request, reply);
      reply.header('cache-control', 'no-store');
      return reply.page(
        h(SurveyFormPage, {
          ...form,
          values: { ...emptyValues(form.unit.id), origem: readOrigin(request.query.origem) },
          errors: {},
          csrfToken: reply.generateCsrf(),
        }),
      );
    },
  );

  r.post(
    SURVEY_POST_PATH,
    {
      schema: { body: FormBody },
      preHandler: app.csrfProtection,
      config: { formPath: SURVEY_PATH },
    },
    async (request, reply) => {
      const result = await service.submit(request.body ?? {});
      if (result.status !== 'invalid') {
        // JSON clients (the kiosk's queue) learn the outcome without following a redirect.
        // Stored, or a second POST of the same form (stored nothing): the same answer.
        if (wantsJson(request))
          return reply
            .code(result.status === 'stored' ? 201 : 200)
            .send({ ok: true, duplicado: result.status === 'duplicate' });
        return reply.redirect(THANKS_PATH, 303);
      }
      if (!result.unit) {
        const units = await service.activeUnits();
        return sendInvalid(request, reply, result.errors, () =>
          h(UnitChooserPage, { units, error: result.errors.unidade_id ?? 'Escolha uma unidade.' }),
        );
      }
      const unit = result.unit;
      return sendInvalid(request, reply, result.errors, () =>
        h(SurveyFormPage, {
          unit,
          questions: result.questions,
          values: result.values,
          errors: result.errors,
          csrfToken: reply.generateCsrf(),
        }),
      );
    },
  );

  r.get(THANKS_PATH, { schema: {} }, async (_request, reply) => reply.page(h(ThanksPage, {})));

  // Kiosk mode: the survey on a reception tablet, left open for days (see src/client/kiosk.ts).
  r.get(
    KIOSK_PATH,
    { schema: { querystring: Type.Object({ unidade_id: Type.Optional(Type.String({ maxLength: 30 })) }) } },
    async (request, reply) => {
      const unitId = parseUnitId(request.query.unidade_id?.trim() ?? '');
      if (!unitId)
        return sendError(
          request,
          reply,
          400,
          'Endereço inválido',
          'Abra o modo quiosque pela área da equipe, escolhendo a unidade.',
        );
      const form = await service.formFor(unitId);
      if (!form) return unitNotFound(request, reply);
      reply.header('cache-control', 'no-store');
      return reply.page(h(KioskPage, { ...form, csrfToken: reply.generateCsrf() }));
    },
  );

  // A fresh CSRF token for a page that stays open for days (the kiosk refreshes it).
  r.get(TOKEN_PATH, { schema: {} }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return reply.send({ token: reply.generateCsrf() });
  });
}

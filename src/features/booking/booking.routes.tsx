// GET/POST /aula-experimental?unidade=ID, the thanks page and its .ics file.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { invalidBody, sendError, wantsJson } from '../../http/errors';
import { queryId } from '../../lib/form/index';
import {
  addressOf,
  echoValues,
  newEnvioId,
  thanksPath,
  valuesFrom,
  type BookingErrors,
  type BookingService,
  type BookingUnit,
  type BookingValues,
} from './booking.service';
import { BookingFormPage, FORM_PATH, ThanksPage, UnitChooserPage } from './booking.view';
import { chooserUnits } from '../catalog/nearby';
import type { CatalogSnapshot } from '../catalog/catalog.snapshot';
import { buildIcs } from './ics';

/** Per client address: enough for a family booking together, not for a flood. */
export const BOOKING_RATE_LIMIT = { max: 30, timeWindow: 10 * 60 * 1000 };

const CodigoParams = Type.Object({ codigo: Type.String({ pattern: '^[A-Za-z0-9_-]{10,40}$' }) });

export interface BookingRouteOptions {
  service: BookingService;
  /** the clock; tests inject one */
  now: () => Date;
  /** the catalog's snapshot of active units (the unit chooser) */
  catalog: () => Promise<Pick<CatalogSnapshot, 'units'>>;
}

export function bookingRoutes(app: FastifyInstance, { service, now, catalog }: BookingRouteOptions) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  /** The unit from ?unidade= (or the form's field), or an error page already sent. */
  async function unitFrom(request: FastifyRequest, reply: FastifyReply, raw: unknown): Promise<BookingUnit | null> {
    const id = queryId(typeof raw === 'string' ? raw.trim() : raw);
    if (raw === undefined || raw === '') {
      await sendError(
        request,
        reply,
        400,
        'Escolha uma unidade',
        'Abra o agendamento pela página da unidade em que você quer treinar.',
      );
      return null;
    }
    if (id === null) {
      await sendError(
        request,
        reply,
        400,
        'Unidade inválida',
        'O código da unidade no endereço não é válido. Abra o agendamento pela página da unidade.',
      );
      return null;
    }
    const unit = await service.activeUnit(id);
    if (!unit) {
      await sendError(
        request,
        reply,
        404,
        'Unidade indisponível',
        'Esta unidade não existe ou não está recebendo agendamentos de aula experimental. Veja as outras unidades na ' +
          'página inicial.',
      );
      return null;
    }
    return unit;
  }

  async function showForm(
    request: FastifyRequest,
    reply: FastifyReply,
    unit: BookingUnit,
    status: number,
    extra: { values?: BookingValues; errors?: BookingErrors; notice?: string } = {},
  ) {
    reply.header('cache-control', 'no-store');
    const days = await service.offeredDays(unit, now());
    // A fresh envio_id after a refusal: nothing was stored, so the next try is a new submission.
    return reply.page(
      h(BookingFormPage, {
        unit,
        days,
        csrfToken: reply.generateCsrf(),
        envioId: newEnvioId(),
        retentionMonths: app.config.privacy.retention.bookingsMonths,
        ...extra,
      }),
      status,
    );
  }

  const Coordinate = Type.Optional(Type.String({ maxLength: 30 }));
  r.get(
    FORM_PATH,
    {
      schema: {
        querystring: Type.Object({
          unidade: Type.Optional(Type.String({ maxLength: 20 })),
          lat: Coordinate,
          lng: Coordinate,
        }),
      },
    },
    async (request, reply) => {
      const { unidade, lat, lng } = request.query;
      if (unidade === undefined || unidade.trim() === '') {
        // No unit yet: the chooser (nearest first when the browser gave a location).
        const chooser = chooserUnits((await catalog()).units, lat, lng);
        return reply.page(h(UnitChooserPage, chooser), chooser.error ? 400 : 200);
      }
      const unit = await unitFrom(request, reply, unidade);
      if (!unit) return reply;
      return showForm(request, reply, unit, 200);
    },
  );

  r.post(
    FORM_PATH,
    {
      schema: {
        querystring: Type.Object({ unidade: Type.Optional(Type.String({ maxLength: 20 })) }),
        body: Type.Record(Type.String(), Type.Unknown()),
      },
      config: { formPath: FORM_PATH, rateLimit: BOOKING_RATE_LIMIT },
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const values = valuesFrom(body);
      const outcome = await service.book(queryId(request.query.unidade ?? body.unidade) ?? 0, values, now());
      if (outcome.kind === 'booked') {
        request.log.info({ bookingId: outcome.booking.id, repeated: outcome.repeated }, 'trial class booked');
        if (wantsJson(request))
          return reply.code(201).send({ ok: true, id: outcome.booking.id, url: thanksPath(outcome.booking.codigo) });
        return reply.redirect(thanksPath(outcome.booking.codigo), 303);
      }
      // The unit again, for the form (an error page if it was deactivated meanwhile).
      const unit = await unitFrom(request, reply, request.query.unidade ?? body.unidade);
      if (!unit) return reply;
      if (outcome.kind === 'unit-unavailable') return showForm(request, reply, unit, 409);
      if (outcome.kind === 'full') {
        const notice =
          'Que pena: as vagas deste horário acabaram de ser preenchidas. Nada foi agendado. Escolha outro horário ' +
          'abaixo.';
        if (wantsJson(request))
          return reply.code(409).send(invalidBody({ vaga: notice }, { error: 'Horário sem vagas', message: notice }));
        return showForm(request, reply, unit, 409, { values: { ...echoValues(values), vaga: '' }, notice });
      }
      if (wantsJson(request)) return reply.code(422).send(invalidBody(outcome.errors));
      return showForm(request, reply, unit, 422, { values: echoValues(values), errors: outcome.errors });
    },
  );

  r.get(`${FORM_PATH}/confirmada/:codigo`, { schema: { params: CodigoParams } }, async (request, reply) => {
    const found = await service.thanks(request.params.codigo);
    if (!found)
      return sendError(request, reply, 404, 'Agendamento não encontrado', 'Este link de agendamento não existe.');
    // The page carries the booking's private link: never cached by shared caches.
    reply.header('cache-control', 'private, no-store');
    return reply.page(h(ThanksPage, { ...found, brandName: app.config.brandName }));
  });

  r.get(`${FORM_PATH}/confirmada/:codigo/agenda.ics`, { schema: { params: CodigoParams } }, async (request, reply) => {
    const found = await service.thanks(request.params.codigo);
    if (!found)
      return sendError(request, reply, 404, 'Agendamento não encontrado', 'Este link de agendamento não existe.');
    const { booking, unit } = found;
    const host = new URL(app.config.publicUrl).hostname;
    const ics = buildIcs(
      {
        uid: `aula-experimental-${booking.id}-${booking.codigo.slice(0, 8)}@${host}`,
        start: new Date(booking.inicio_em),
        end: new Date(booking.fim_em),
        stamp: new Date(booking.criado_em),
        summary: `Aula experimental: ${booking.atividade} – ${app.config.brandName} ${unit.nome}`,
        location: addressOf(unit),
        description:
          `Aula experimental grátis na ${app.config.brandName}, unidade ${unit.nome}.\nChegue 10 minutos ` +
          `antes, com roupa confortável, tênis e água.`,
        url: `${app.config.publicUrl}${thanksPath(booking.codigo)}`,
        geo:
          unit.latitude !== null && unit.longitude !== null
            ? { latitude: unit.latitude, longitude: unit.longitude }
            : null,
      },
      `-//${app.config.brandName.replace(/[\r\n]/g, ' ')}//Aula experimental//PT-BR`,
    );
    return reply
      .type('text/calendar; charset=utf-8')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', 'attachment; filename="aula-experimental.ics"')
      .send(ics);
  });
}

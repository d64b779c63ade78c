// Public routes of the online enrolment: /matricula (unit → plan → data), the summary,
// the acceptance, the payment/status page and "Minha matrícula".
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { invalidBody, sendError, wantsJson } from '../../http/errors';
import { EMAIL_MAX, echoValue, newEnvioId, parseEmail, toId } from '../../lib/form/index';
import { whatsappHref } from '../../brand/index';
import { chooserUnits } from '../catalog/nearby';
import type { CatalogSnapshot } from '../catalog/catalog.snapshot';
import { echoValues, valuesFrom, type Enrolment, type EnrolmentService, type OfferUnit } from './enrolment.service';
import {
  CancelConfirmPage,
  ClosedPage,
  DataFormPage,
  FLOW_PATH,
  MINE_PATH,
  MineEnterPage,
  MinePanelPage,
  MineRequestPage,
  PlanChooserPage,
  StatusPage,
  situationKey,
  statusPath,
  SummaryPage,
  UnitChooserPage,
} from './enrolment.view';

/** Per client address: a family enrolling together, not a flood. */
export const ENROLMENT_RATE_LIMIT = { max: 30, timeWindow: 10 * 60 * 1000 };
const LINK_RATE_LIMIT = { max: 5, timeWindow: 15 * 60 * 1000 };
const COOKIE = 'minha_matricula';
const PANEL_PATH = `${MINE_PATH}/painel`;
const Body = Type.Record(Type.String(), Type.Unknown());
const Codigo = Type.Object({ codigo: Type.String({ pattern: '^[A-Za-z0-9_-]{10,40}$' }) });
const FlowQuery = Type.Object({
  unidade: Type.Optional(Type.String({ maxLength: 20 })),
  plano: Type.Optional(Type.String({ maxLength: 20 })),
  lat: Type.Optional(Type.String({ maxLength: 30 })),
  lng: Type.Optional(Type.String({ maxLength: 30 })),
});

export interface EnrolmentRouteOptions {
  service: EnrolmentService;
  now: () => Date;
  confirmsAutomatically: boolean;
  brandWhatsapp: string | null;
  /** the catalog's snapshot of active units (the unit chooser, nearest first) */
  catalog: () => Promise<Pick<CatalogSnapshot, 'units'>>;
}

export function enrolmentRoutes(
  app: FastifyInstance,
  { service, now, confirmsAutomatically, brandWhatsapp, catalog }: EnrolmentRouteOptions,
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const privatePage = (reply: FastifyReply) =>
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
  const whatsapp = (unit?: Pick<OfferUnit, 'whatsapp' | 'nome'>) => {
    const phone = unit?.whatsapp ?? brandWhatsapp;
    return phone
      ? whatsappHref(phone.replace(/\D/g, ''), `Olá! Quero me matricular${unit ? ` na unidade ${unit.nome}` : ''}.`)
      : null;
  };

  async function closed(reply: FastifyReply) {
    return reply.page(h(ClosedPage, { whatsappHref: whatsapp() }));
  }

  const unavailable = (request: FastifyRequest, reply: FastifyReply) =>
    sendError(
      request,
      reply,
      404,
      'Plano indisponível',
      'Esta unidade ou este plano não está à venda online agora. Escolha outra unidade ou plano em /matricula.',
    );

  r.get(FLOW_PATH, { schema: { querystring: FlowQuery } }, async (request, reply) => {
    if (!service.selling) return closed(reply);
    const { unidade, plano, lat, lng } = request.query;
    if (!unidade?.trim()) {
      const selling = await service.unitIdsSelling();
      const units = (await catalog()).units.filter((u) => selling.has(u.id));
      const chooser = chooserUnits(units, lat, lng);
      return reply.page(h(UnitChooserPage, chooser), chooser.error ? 400 : 200);
    }
    const unitId = toId(unidade.trim());
    const offer = unitId ? await service.unitOffer(unitId) : null;
    if (!offer) return unavailable(request, reply);
    const planId = plano?.trim() ? toId(plano.trim()) : null;
    const plan = planId ? offer.plans.find((p) => p.id === planId) : undefined;
    if (!plan) {
      // A plan not sold online here (or gone): the unit's plans to choose from.
      return reply.page(
        h(PlanChooserPage, { unit: offer.unit, plans: offer.plans, whatsappHref: whatsapp(offer.unit) }),
      );
    }
    privatePage(reply);
    return reply.page(
      h(DataFormPage, { unit: offer.unit, plan, csrfToken: reply.generateCsrf(), envioId: newEnvioId() }),
    );
  });

  /** The unit and plan of a POST, or the error page already sent. */
  async function offerFrom(request: FastifyRequest, reply: FastifyReply) {
    const q = request.query as { unidade?: string; plano?: string };
    const offer = await service.offerOf(toId(q.unidade ?? '') ?? 0, toId(q.plano ?? '') ?? 0);
    if (!offer) await unavailable(request, reply);
    return offer;
  }

  const postOptions = {
    schema: { querystring: FlowQuery, body: Body },
    preHandler: app.csrfProtection,
    config: { formPath: FLOW_PATH, rateLimit: ENROLMENT_RATE_LIMIT },
  };

  r.post(`${FLOW_PATH}/resumo`, postOptions, async (request, reply) => {
    privatePage(reply);
    if (!service.selling) return closed(reply);
    const offer = await offerFrom(request, reply);
    if (!offer) return reply;
    const values = valuesFrom(request.body);
    const result = await service.preview(offer.unit.id, offer.plan.id, values, now());
    if (result.ok) {
      return reply.page(
        h(SummaryPage, {
          proposal: result.proposal,
          csrfToken: reply.generateCsrf(),
          values: echoValues(values),
          demo: service.demo,
        }),
      );
    }
    if ('unavailable' in result) return unavailable(request, reply);
    if (wantsJson(request)) return reply.code(422).send(invalidBody(result.errors));
    return reply.page(
      h(DataFormPage, {
        ...offer,
        csrfToken: reply.generateCsrf(),
        envioId: values.envio_id || newEnvioId(),
        values: echoValues(values),
        errors: result.errors,
      }),
      422,
    );
  });

  r.post(FLOW_PATH, postOptions, async (request, reply) => {
    privatePage(reply);
    if (!service.selling) return closed(reply);
    const offer = await offerFrom(request, reply);
    if (!offer) return reply;
    const values = valuesFrom(request.body);
    const outcome = await service.accept(
      offer.unit.id,
      offer.plan.id,
      values,
      { ip: request.ip ?? null, userAgent: request.headers['user-agent'] ?? null },
      now(),
    );
    if (outcome.kind === 'stored') {
      request.log.info({ repeated: outcome.repeated }, 'enrolment stored');
      if (wantsJson(request)) return reply.code(201).send({ ok: true, url: statusPath(outcome.codigo) });
      return reply.redirect(statusPath(outcome.codigo), 303);
    }
    if (outcome.kind === 'unavailable') return unavailable(request, reply);
    if (wantsJson(request)) return reply.code(422).send(invalidBody(outcome.errors));
    if (outcome.step === 'resumo' && outcome.proposal)
      return reply.page(
        h(SummaryPage, {
          proposal: outcome.proposal,
          csrfToken: reply.generateCsrf(),
          values: echoValues(values),
          errors: outcome.errors,
          demo: service.demo,
        }),
        422,
      );
    // A refused form gets a fresh envio_id: nothing was stored.
    return reply.page(
      h(DataFormPage, {
        ...offer,
        csrfToken: reply.generateCsrf(),
        envioId: newEnvioId(),
        values: echoValues(values),
        errors: outcome.errors,
      }),
      422,
    );
  });

  r.get(`${FLOW_PATH}/:codigo`, { schema: { params: Codigo } }, async (request, reply) => {
    const found = await service.statusOf(request.params.codigo);
    if (!found) return sendError(request, reply, 404, 'Matrícula não encontrada', 'Este link de matrícula não existe.');
    privatePage(reply);
    const choosesCard = [...found.instructions.values()].some((i) => i.authorizationId);
    return reply.page(
      h(StatusPage, {
        ...found,
        confirmsAutomatically,
        csrfToken: choosesCard ? reply.generateCsrf() : undefined,
      }),
    );
  });

  // Pix Automático's page: the person prefers the card; the QR code stops being valid first.
  r.post(
    `${FLOW_PATH}/:codigo/cartao`,
    {
      schema: { params: Codigo, body: Body },
      preHandler: app.csrfProtection,
      config: { formPath: FLOW_PATH, rateLimit: ENROLMENT_RATE_LIMIT },
    },
    async (request, reply) => {
      privatePage(reply);
      const url = await service.chooseCard(request.params.codigo);
      return reply.redirect(url ?? statusPath(request.params.codigo), 303);
    },
  );

  r.get(
    `${FLOW_PATH}/:codigo/situacao.json`,
    { schema: { params: Codigo }, config: { securityHeaders: 'data' } },
    async (request, reply) => {
      // Our database only: the page's script asks every few seconds, the provider is never called here.
      const found = await service.situation(request.params.codigo);
      privatePage(reply);
      if (!found) return reply.code(404).send({ error: 'Matrícula não encontrada' });
      return reply.send({ ...found, chave: situationKey(found.status, found.pendentes) });
    },
  );

  // "Minha matrícula": a one-time link by e-mail opens a session of one hour.
  r.get(MINE_PATH, async (_request, reply) => {
    privatePage(reply);
    return reply.page(h(MineRequestPage, { csrfToken: reply.generateCsrf() }));
  });

  r.post(
    MINE_PATH,
    {
      schema: { body: Body },
      preHandler: app.csrfProtection,
      config: { formPath: MINE_PATH, rateLimit: LINK_RATE_LIMIT },
    },
    async (request, reply) => {
      privatePage(reply);
      const parsed = parseEmail(request.body.email, { required: 'Informe o seu e-mail.', lowerCase: true });
      if (!parsed.ok) {
        if (wantsJson(request)) return reply.code(422).send(invalidBody({ email: parsed.error }));
        const email = echoValue(request.body.email, { max: EMAIL_MAX }).trim();
        return reply.page(h(MineRequestPage, { csrfToken: reply.generateCsrf(), email, error: parsed.error }), 422);
      }
      await service.requestLink(parsed.value, now());
      if (wantsJson(request)) return reply.send({ ok: true });
      return reply.page(h(MineRequestPage, { csrfToken: reply.generateCsrf(), sent: true }));
    },
  );

  r.get(
    `${MINE_PATH}/entrar`,
    { schema: { querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 2000 })) }) } },
    async (request, reply) => {
      privatePage(reply);
      const token = (request.query.token ?? '').slice(0, 200);
      // A button, not an automatic login: a mail scanner opening the link does not use it up.
      return reply.page(
        h(MineEnterPage, { token, csrfToken: reply.generateCsrf(), usable: /^[A-Za-z0-9_-]{43}$/.test(token) }),
      );
    },
  );

  r.post(
    `${MINE_PATH}/entrar`,
    {
      schema: { body: Body },
      preHandler: app.csrfProtection,
      config: { formPath: MINE_PATH, rateLimit: ENROLMENT_RATE_LIMIT },
    },
    async (request, reply) => {
      privatePage(reply);
      const token = typeof request.body.token === 'string' ? request.body.token.slice(0, 200) : '';
      const session = await service.openLink(token, now());
      if (!session)
        return reply.page(h(MineEnterPage, { token: '', csrfToken: reply.generateCsrf(), usable: false }), 410);
      reply.setCookie(COOKIE, session, {
        path: MINE_PATH,
        httpOnly: true,
        sameSite: 'lax',
        secure: 'auto',
        maxAge: 3600,
      });
      return reply.redirect(PANEL_PATH, 303);
    },
  );

  /** The session's e-mail, or the "link expired" page (410) already sent. */
  async function sessionOr410(request: FastifyRequest, reply: FastifyReply): Promise<string | null> {
    const email = await service.sessionEmail(request.cookies?.[COOKIE], now());
    if (!email) {
      reply.clearCookie(COOKIE, { path: MINE_PATH });
      await reply.page(h(MineEnterPage, { token: '', csrfToken: reply.generateCsrf(), usable: false }), 410);
      return null;
    }
    return email;
  }

  async function panel(reply: FastifyReply, email: string, notice?: string) {
    const at = now();
    const items = (await service.mine(email)).map((i) => ({
      ...i,
      canWithdraw: service.canWithdraw(i.enrolment, at),
      canCancel: service.canCancel(i.enrolment, at),
    }));
    return reply.page(h(MinePanelPage, { items, csrfToken: reply.generateCsrf(), notice }));
  }

  const NOTICES: Record<string, string> = {
    desistencia: 'Desistência registrada. Enviamos a confirmação por e-mail.',
    cancelamento: 'Cancelamento solicitado. Enviamos o protocolo por e-mail.',
  };
  r.get(
    PANEL_PATH,
    { schema: { querystring: Type.Object({ ok: Type.Optional(Type.String({ maxLength: 40 })) }) } },
    async (request, reply) => {
      privatePage(reply);
      const email = await sessionOr410(request, reply);
      if (!email) return reply;
      return panel(reply, email, NOTICES[request.query.ok ?? '']);
    },
  );

  /** The session's enrolment named in the path, or an error page already sent. */
  async function owned(request: FastifyRequest, reply: FastifyReply) {
    const email = await sessionOr410(request, reply);
    if (!email) return null;
    const e = await service.ownedBy(email, (request.params as { codigo: string }).codigo);
    if (!e)
      await sendError(request, reply, 404, 'Matrícula não encontrada', 'Esta matrícula não é do e-mail deste acesso.');
    return e ?? null;
  }

  const actionOptions = {
    schema: { params: Codigo, body: Body },
    preHandler: app.csrfProtection,
    config: { formPath: PANEL_PATH, rateLimit: ENROLMENT_RATE_LIMIT },
  };

  r.get(`${MINE_PATH}/:codigo/cancelar`, { schema: { params: Codigo } }, async (request, reply) => {
    privatePage(reply);
    const e = await owned(request, reply);
    if (!e) return reply;
    const at = now();
    if (!service.canCancel(e, at)) return reply.redirect(PANEL_PATH, 303);
    return reply.page(
      h(CancelConfirmPage, { enrolment: e, quote: service.cancellationQuote(e, at), csrfToken: reply.generateCsrf() }),
    );
  });

  // Desistir and Cancelar differ only in the service call, the refusal's words and the notice.
  const actions = [
    {
      path: 'desistir',
      run: (e: Enrolment, at: Date) => service.withdraw(e, at),
      refusal: 'Não foi possível desistir',
      why: 'O prazo de 7 dias terminou ou a matrícula já mudou de situação. Veja “Minha matrícula”.',
      notice: 'desistencia',
    },
    {
      path: 'cancelar',
      run: (e: Enrolment, at: Date) => service.cancel(e, at),
      refusal: 'Não foi possível cancelar',
      why: 'A matrícula já mudou de situação. Veja “Minha matrícula”.',
      notice: 'cancelamento',
    },
  ];
  for (const action of actions) {
    r.post(`${MINE_PATH}/:codigo/${action.path}`, actionOptions, async (request, reply) => {
      privatePage(reply);
      const e = await owned(request, reply);
      if (!e) return reply;
      const result = await action.run(e, now());
      if (!result.ok) return sendError(request, reply, 409, action.refusal, action.why);
      return reply.redirect(`${PANEL_PATH}?ok=${action.notice}`, 303);
    });
  }
}

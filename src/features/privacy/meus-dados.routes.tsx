// GET/POST /privacidade/meus-dados (ask for the link), /acesso (the link: a button that uses
// it and starts the session), /painel (the person's page), /arquivo (the ZIP), /correcao,
// /eliminacao, /revogacao and /sair. Every form is CSRF-protected and rate-limited per client address.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type, { type TProperties } from 'typebox';
import { h } from 'preact';
import { invalidBody, wantsJson } from '../../http/errors';
import { echoValue, EMAIL_MAX, newEnvioId, parseEmail, readEnvioId } from '../../lib/form/index';
import {
  LINK_PATH,
  MEUS_DADOS_PATH,
  type MeusDadosService,
  type MeusDadosSession,
  SESSION_TTL_MS,
} from './meus-dados.service';
import { InvalidLinkPage, LinkSentPage, OpenLinkPage, PanelPage, RequestLinkPage } from './meus-dados.view';

export const PANEL_PATH = `${MEUS_DADOS_PATH}/painel`;
const COOKIE = 'meus_dados';
/** Link requests per client address: a person asks once or twice. */
export const LINK_RATE_LIMIT = { max: 5, timeWindow: 15 * 60 * 1000 };
const PAGE_RATE_LIMIT = { max: 30, timeWindow: 10 * 60 * 1000 };

const Body = Type.Record(Type.String(), Type.Unknown());
const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function meusDadosRoutes(app: FastifyInstance, service: MeusDadosService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const private_ = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');

  /** The person's session, or the "link expired" page (410) already sent. */
  async function sessionOr410(request: FastifyRequest, reply: FastifyReply): Promise<MeusDadosSession | null> {
    const s = await service.session(request.cookies?.[COOKIE]);
    if (!s) {
      reply.clearCookie(COOKIE, { path: MEUS_DADOS_PATH });
      await reply.page(h(InvalidLinkPage, {}), 410);
      return null;
    }
    return s;
  }

  /** A form's POST: CSRF-checked, refused back to `formPath`, limited per client address. */
  const formPost = (formPath: string, rateLimit: typeof PAGE_RATE_LIMIT) => ({
    schema: { body: Body },
    preHandler: app.csrfProtection,
    config: { formPath, rateLimit },
  });
  /** A page's GET with its query values, limited per client address. */
  const pageGet = <Q extends TProperties>(query: Q) => ({
    schema: { querystring: Type.Object(query) },
    config: { rateLimit: PAGE_RATE_LIMIT },
  });
  /** A panel form's POST: never cached, its own session's (410 once it is over). */
  const panelPost = formPost(PANEL_PATH, PAGE_RATE_LIMIT);
  const inSession =
    (
      handle: (
        request: FastifyRequest,
        reply: FastifyReply,
        s: MeusDadosSession,
        body: Record<string, unknown>,
      ) => Promise<unknown>,
    ) =>
    async (request: FastifyRequest, reply: FastifyReply) => {
      private_(reply);
      const s = await sessionOr410(request, reply);
      if (!s) return reply;
      return handle(request, reply, s, request.body as Record<string, unknown>);
    };

  async function panel(
    reply: FastifyReply,
    s: MeusDadosSession,
    extra: { notice?: string; errors?: Record<string, string>; correcao?: string } = {},
    status = 200,
  ) {
    return reply.page(
      h(PanelPage, {
        csrfToken: reply.generateCsrf(),
        email: s.email,
        overview: await service.overview(s),
        envioIds: { correcao: newEnvioId(), eliminacao: newEnvioId(), revogacao: newEnvioId() },
        ...extra,
      }),
      status,
    );
  }

  r.get(MEUS_DADOS_PATH, async (_request, reply) => {
    private_(reply);
    return reply.page(h(RequestLinkPage, { csrfToken: reply.generateCsrf() }));
  });

  r.post(MEUS_DADOS_PATH, formPost(MEUS_DADOS_PATH, LINK_RATE_LIMIT), async (request, reply) => {
    private_(reply);
    const body = request.body;
    const parsed = parseEmail(body.email, { required: 'Informe o seu e-mail.', lowerCase: true });
    if (!parsed.ok) {
      const email = echoValue(body.email, { max: EMAIL_MAX }).trim();
      if (wantsJson(request)) return reply.code(422).send(invalidBody({ email: parsed.error }));
      return reply.page(h(RequestLinkPage, { csrfToken: reply.generateCsrf(), email, error: parsed.error }), 422);
    }
    await service.requestLink(parsed.value);
    if (wantsJson(request)) return reply.send({ ok: true });
    return reply.page(h(LinkSentPage, {}));
  });

  r.get(
    LINK_PATH,
    // A mangled link (any length) gets the "link no longer works" page, not a bare 400.
    pageGet({ token: Type.Optional(Type.String({ maxLength: 2000 })) }),
    async (request, reply) => {
      private_(reply);
      const token = request.query.token ?? '';
      if (!(await service.checkLink(token))) return reply.page(h(InvalidLinkPage, {}), 410);
      return reply.page(h(OpenLinkPage, { csrfToken: reply.generateCsrf(), token }));
    },
  );

  r.post(LINK_PATH, formPost(MEUS_DADOS_PATH, PAGE_RATE_LIMIT), async (request, reply) => {
    private_(reply);
    const session = await service.openLink(str(request.body.token).slice(0, 200));
    if (!session) return reply.page(h(InvalidLinkPage, {}), 410);
    reply.setCookie(COOKIE, session, {
      path: MEUS_DADOS_PATH,
      httpOnly: true,
      sameSite: 'lax',
      secure: 'auto',
      maxAge: SESSION_TTL_MS / 1000,
    });
    return reply.redirect(PANEL_PATH, 303);
  });

  r.get(PANEL_PATH, pageGet({ ok: Type.Optional(Type.String({ maxLength: 40 })) }), async (request, reply) => {
    private_(reply);
    const s = await sessionOr410(request, reply);
    if (!s) return reply;
    return panel(reply, s, { notice: request.query.ok });
  });

  r.post(
    `${MEUS_DADOS_PATH}/arquivo`,
    panelPost,
    inSession(async (_request, reply, s) => {
      const zip = await service.exportZip(s);
      return reply
        .type('application/zip')
        .header('content-disposition', 'attachment; filename="meus-dados.zip"')
        .send(Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength));
    }),
  );

  for (const [path, ask] of [
    ['correcao', service.askCorrection],
    ['eliminacao', service.askErasure],
  ] as const) {
    r.post(
      `${MEUS_DADOS_PATH}/${path}`,
      panelPost,
      inSession(async (request, reply, s, body) => {
        const result = await ask(s, body, readEnvioId(body));
        if (!result.ok) {
          const correcao = echoValue(body.correcao, { max: 6000, multiLine: true });
          if (wantsJson(request)) return reply.code(422).send(invalidBody(result.errors));
          return panel(reply, s, { errors: result.errors, correcao }, 422);
        }
        if (wantsJson(request)) return reply.send({ ok: true });
        return reply.redirect(`${PANEL_PATH}?ok=${path}`, 303);
      }),
    );
  }

  r.post(
    `${MEUS_DADOS_PATH}/revogacao`,
    panelPost,
    inSession(async (request, reply, s, body) => {
      const { revoked } = await service.revokeConsent(s, readEnvioId(body));
      if (wantsJson(request)) return reply.send({ ok: true, revogados: revoked });
      return reply.redirect(`${PANEL_PATH}?ok=revogacao`, 303);
    }),
  );

  r.post(
    `${MEUS_DADOS_PATH}/sair`,
    { schema: { body: Body }, preHandler: app.csrfProtection, config: { formPath: PANEL_PATH } },
    async (request, reply) => {
      const s = await service.session(request.cookies?.[COOKIE]);
      if (s) await service.endSession(s);
      reply.clearCookie(COOKIE, { path: MEUS_DADOS_PATH });
      return reply.redirect(MEUS_DADOS_PATH, 303);
    },
  );
}

// GET/POST /pages/Franquia/senha.php: ask for a link (acao=pedir), and the link's page
// to choose a new password (?token=…, acao=redefinir). See docs/decisions/051.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { invalidBody, sendError, wantsJson } from '../../http/errors';
import { echoValue, EMAIL_MAX, parseEmail } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import { ADMIN_PATH } from './login.routes';
import { RESET_PATH, type PasswordResetService } from './password-reset.service';
import { InvalidLinkView, NewPasswordView, ResetRequestView, ResetSentView } from './password-reset.view';

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function passwordResetRoutes(app: FastifyInstance, reset: PasswordResetService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const noStore = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');

  r.get(
    RESET_PATH,
    { schema: { querystring: Type.Object({ token: Type.Optional(Type.String({ maxLength: 200 })) }) } },
    async (request, reply) => {
      noStore(reply);
      const token = request.query.token;
      if (token === undefined || token === '')
        return reply.page(h(ResetRequestView, { csrfToken: reply.generateCsrf() }));
      if (!(await reset.checkToken(token))) return reply.page(h(InvalidLinkView, {}), 410);
      return reply.page(h(NewPasswordView, { csrfToken: reply.generateCsrf(), token }));
    },
  );

  r.post(
    RESET_PATH,
    {
      schema: { body: Type.Record(Type.String(), Type.Unknown()) },
      preHandler: app.csrfProtection,
      config: { formPath: RESET_PATH },
    },
    async (request, reply) => {
      noStore(reply);
      const body = request.body;
      if (str(body.acao) === 'redefinir') {
        const token = str(body.token).slice(0, 200);
        const result = await reset.reset({
          token,
          password: str(body.nova_senha),
          confirmation: str(body.confirmacao),
        });
        if (result.kind === 'invalid-token') {
          if (wantsJson(request))
            return sendError(
              request,
              reply,
              410,
              'Link inválido ou expirado',
              'Este link de redefinição de senha não vale mais: peça um novo link.',
            );
          return reply.page(h(InvalidLinkView, {}), 410);
        }
        if (result.kind === 'invalid') {
          if (wantsJson(request)) return reply.code(422).send(invalidBody(result.errors));
          return reply.page(h(NewPasswordView, { csrfToken: reply.generateCsrf(), token, errors: result.errors }), 422);
        }
        request.log.info({ userId: result.userId }, 'password reset by link');
        app.identity.sessions.clearCookie(request, reply);
        if (wantsJson(request)) return reply.send({ ok: true });
        return reply.redirect(`${ADMIN_PATH}?senha=1`, 303);
      }

      // The form kit's e-mail rule: no control character or NUL reaches PostgreSQL.
      const parsed = parseEmail(body.email, { required: 'Informe o seu e-mail.' });
      if (!parsed.ok) {
        const fieldError = parsed.error;
        const email = echoValue(body.email, { max: EMAIL_MAX }).trim();
        if (wantsJson(request)) return reply.code(422).send(invalidBody({ email: fieldError }));
        return reply.page(h(ResetRequestView, { csrfToken: reply.generateCsrf(), email, fieldError }), 422);
      }
      const email = parsed.value;
      // The link points at PUBLIC_URL, never at the request's Host header (which a
      // client chooses: a forged one would send the token elsewhere).
      const result = await reset.request({ email, ip: request.ip, baseUrl: app.config.publicUrl });
      if (result.kind === 'limited') {
        const seconds = Math.max(1, Math.ceil((result.retryAt.getTime() - Date.now()) / 1000));
        const message =
          `Muitos pedidos de redefinição a partir deste endereço. Tente novamente às ` +
          `${formatDateTime(result.retryAt.toISOString()).slice(-5)} (horário de Brasília).`;
        reply.header('retry-after', String(seconds));
        if (wantsJson(request)) return reply.code(429).send({ error: 'Muitos pedidos', message });
        return reply.page(h(ResetRequestView, { csrfToken: reply.generateCsrf(), email, error: message }), 429);
      }
      if (wantsJson(request)) return reply.send({ ok: true });
      return reply.page(h(ResetSentView, {}));
    },
  );
}

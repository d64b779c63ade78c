// Login and logout handlers. They live on /pages/Franquia/admin.php together with the
// lead panel (the interface's path), so the franchise panel route calls them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { h } from 'preact';
import { sendInvalid, wantsJson } from '../../http/errors';
import { echoValue, EMAIL_MAX, hasNul, oneLine } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import { LoginView } from './login.view';

export const ADMIN_PATH = '/pages/Franquia/admin.php';

/**
 * Only same-site relative paths are honoured as "voltar" targets: "/x" yes, "//evil",
 * "/\\evil", absolute URLs and control characters no (open-redirect protection).
 */
export function safeReturnPath(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > 2000) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return null;
  return value;
}

export function showLogin(
  _request: FastifyRequest,
  reply: FastifyReply,
  props: {
    status?: number;
    error?: string;
    notice?: string;
    email?: string;
    voltar?: string | null;
    fieldErrors?: { email?: string; senha?: string };
  } = {},
) {
  const { status = 200, ...rest } = props;
  reply.header('cache-control', 'no-store');
  return reply.page(h(LoginView, { csrfToken: reply.generateCsrf(), ...rest }), status);
}

export async function handleLogin(request: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>) {
  // Through the form kit: no control character or NUL reaches the account lookup.
  const fieldErrors: { email?: string; senha?: string } = {};
  const emailField = oneLine(body.email, { max: EMAIL_MAX, required: 'Informe o seu e-mail.' });
  const email = emailField.ok ? emailField.value : echoValue(body.email, { max: EMAIL_MAX }).trim();
  if (!emailField.ok) fieldErrors.email = emailField.error;
  const password = typeof body.senha === 'string' ? body.senha : '';
  if (!password) fieldErrors.senha = 'Informe a sua senha.';
  else if (hasNul(password) || password.length > 1024)
    fieldErrors.senha = 'A senha contém caracteres inválidos ou é longa demais.';
  const voltar = safeReturnPath(body.voltar);

  if (fieldErrors.email || fieldErrors.senha) {
    return sendInvalid(request, reply, fieldErrors, () =>
      h(LoginView, { csrfToken: reply.generateCsrf(), email, voltar, fieldErrors }),
    );
  }

  const identity = request.server.identity;
  const result = await identity.login.login({ email, password, ip: request.ip });
  if (result.kind === 'busy') {
    const message = 'Muitos acessos ao mesmo tempo. Aguarde alguns segundos e tente entrar de novo.';
    reply.header('retry-after', '5');
    if (wantsJson(request)) return reply.code(429).send({ error: 'Servidor ocupado', message });
    return showLogin(request, reply, { status: 429, email, voltar, error: message });
  }
  if (result.kind === 'locked') {
    const seconds = Math.max(1, Math.ceil((result.retryAt.getTime() - Date.now()) / 1000));
    const minutes = Math.ceil(seconds / 60);
    const message =
      `Muitas tentativas de login sem sucesso. Por segurança, o acesso foi bloqueado por alguns ` +
      `minutos: tente novamente às ${formatDateTime(result.retryAt.toISOString()).slice(-5)} (horário de Brasília), ` +
      `daqui a ${minutes} minuto${minutes === 1 ? '' : 's'}.`;
    reply.header('retry-after', String(seconds));
    if (wantsJson(request))
      return reply.code(429).send({ error: 'Muitas tentativas', message, retryAt: result.retryAt.toISOString() });
    return showLogin(request, reply, { status: 429, email, voltar, error: message });
  }
  if (result.kind === 'invalid') {
    const message = 'E-mail ou senha incorretos, ou conta desativada.';
    if (wantsJson(request)) return reply.code(401).send({ error: 'Login recusado', message });
    return showLogin(request, reply, { status: 401, email, voltar, error: message });
  }

  await identity.sessions.start(request, reply, result.user.id);
  request.log.info({ userId: result.user.id }, 'staff login');
  // Managers land on the staff home (attention queue); admins on the lead panel.
  const fallback = result.user.papel === 'admin' ? ADMIN_PATH : '/admin';
  return reply.redirect(voltar ?? fallback, 303);
}

/** "Sair" ends every session of the account (every browser), for good. */
export async function handleLogout(request: FastifyRequest, reply: FastifyReply) {
  const identity = request.server.identity;
  const state = await identity.state(request);
  if (state.kind === 'active') await identity.sessions.endAllOf(state.staff.id);
  identity.sessions.clearCookie(request, reply);
  return reply.redirect(`${ADMIN_PATH}?saiu=1`, 303);
}

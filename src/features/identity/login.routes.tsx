// Login and logout handlers. They live on /pages/Franquia/admin.php together with the
// lead panel (the interface's path), so the franchise panel route calls them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { h } from 'preact';
import { wantsJson } from '../../http/errors';
import { formatDateTime } from '../../lib/time';
import { LoginView } from './login.view';

export const ADMIN_PATH = '/pages/Franquia/admin.php';
const CONTROL_RE = /[\u0000-\u001f\u007f-\u009f]/;

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
  request: FastifyRequest,
  reply: FastifyReply,
  props: { status?: number; error?: string; notice?: string; email?: string; voltar?: string | null; fieldErrors?: { email?: string; senha?: string } } = {},
) {
  const { status = 200, ...rest } = props;
  reply.header('cache-control', 'no-store');
  return reply.page(h(LoginView, { csrfToken: reply.generateCsrf(), ...rest }), status);
}

export async function handleLogin(request: FastifyRequest, reply: FastifyReply, body: Record<string, unknown>) {
  const email = typeof body.email === 'string' ? body.email.trim().slice(0, 254) : '';
  const password = typeof body.senha === 'string' ? body.senha : '';
  const voltar = safeReturnPath(body.voltar);

  const fieldErrors: { email?: string; senha?: string } = {};
  if (!email) fieldErrors.email = 'Informe o seu e-mail.';
  // NUL and other control characters can reach neither the attempt keys nor PostgreSQL.
  else if (CONTROL_RE.test(email)) fieldErrors.email = 'O e-mail contém caracteres inválidos.';
  if (!password) fieldErrors.senha = 'Informe a sua senha.';
  if (fieldErrors.email || fieldErrors.senha) {
    if (wantsJson(request)) return reply.code(422).send({ errors: fieldErrors });
    return showLogin(request, reply, { status: 422, email, voltar, fieldErrors });
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
    const message = `Muitas tentativas de login sem sucesso. Por segurança, o acesso foi bloqueado por alguns minutos: tente novamente às ${formatDateTime(result.retryAt.toISOString()).slice(-5)} (horário de Brasília), daqui a ${minutes} minuto${minutes === 1 ? '' : 's'}.`;
    reply.header('retry-after', String(seconds));
    if (wantsJson(request)) return reply.code(429).send({ error: 'Muitas tentativas', message, retryAt: result.retryAt.toISOString() });
    return showLogin(request, reply, { status: 429, email, voltar, error: message });
  }
  if (result.kind === 'invalid') {
    const message = 'E-mail ou senha incorretos, ou conta desativada.';
    if (wantsJson(request)) return reply.code(401).send({ error: message });
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

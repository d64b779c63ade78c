// Login and logout handlers. They live on /pages/Franquia/admin.php together with the
// lead panel (the interface's path), so the franchise panel route calls them.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { h } from 'preact';
import { endStaffSession, startStaffSession } from '../../http/session';
import { wantsJson } from '../../http/errors';
import { formatDateTime } from '../../lib/time';
import { createLoginService } from './login.service';
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
  if (!password) fieldErrors.senha = 'Informe a sua senha.';
  if (fieldErrors.email || fieldErrors.senha) {
    if (wantsJson(request)) return reply.code(422).send({ errors: fieldErrors });
    return showLogin(request, reply, { status: 422, email, voltar, fieldErrors });
  }

  const result = await createLoginService(request.server.db).login({ email, password, ip: request.ip });
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

  await startStaffSession(request, result.user.id);
  request.log.info({ userId: result.user.id }, 'staff login');
  // Managers land on the staff home (attention queue); admins on the lead panel.
  const fallback = result.user.papel === 'admin' ? ADMIN_PATH : '/admin';
  return reply.redirect(voltar ?? fallback, 303);
}

export async function handleLogout(request: FastifyRequest, reply: FastifyReply) {
  await endStaffSession(request, reply);
  return reply.redirect(`${ADMIN_PATH}?saiu=1`, 303);
}

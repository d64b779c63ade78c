// "Esqueci minha senha": a single-use link valid for 30 minutes, e-mailed through the
// outbox in the same transaction that stores the token's hash. The answer to a request
// never depends on whether the address has an account.
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import { nowIso } from '../../db/index';
import { enqueueMail } from '../../platform/mail/outbox.repository';
import type { IdentityRepository } from './identity.repository';
import { accountKey } from './login.service';
import { hashPassword, passwordProblem } from './password';
import { brand } from '../../brand/index';

export const RESET_PATH = '/pages/Franquia/senha.php';
export const RESET_TOKEN_MS = 30 * 60 * 1000;
/** Requests per client address, and per e-mail typed, within RESET_WINDOW_MS. */
export const RESET_MAX_PER_ADDRESS = 5;
export const RESET_MAX_PER_EMAIL = 3;
export const RESET_WINDOW_MS = 15 * 60 * 1000;
/**
 * The shortest time a request's "done" answer takes. For an active account the token and
 * the mail are stored first (a transaction, ~1 ms), for any other address nothing is: without
 * a floor the answer's timing would tell whether the address has an account.
 */
export const RESET_ANSWER_FLOOR_MS = 250;

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
export const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

export type ResetRequestResult = { kind: 'done' } | { kind: 'limited'; retryAt: Date };
export type ResetResult =
  | { kind: 'ok'; userId: number }
  | { kind: 'invalid-token' }
  | { kind: 'invalid'; errors: { nova_senha?: string; confirmacao?: string } };

let explainedNoSmtp = false;

export function createPasswordResetService(deps: {
  repo: IdentityRepository;
  config: Pick<Config, 'smtp'>;
  log: Pick<FastifyBaseLogger, 'info' | 'warn'>;
}) {
  const { repo } = deps;

  /** "done" once RESET_ANSWER_FLOOR_MS have passed since `start` (performance.now()). */
  const done = async (start: number): Promise<ResetRequestResult> => {
    const wait = RESET_ANSWER_FLOOR_MS - (performance.now() - start);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return { kind: 'done' };
  };

  return {
    /**
     * Records the request against the address and the e-mail typed (known or not, so the
     * count reveals nothing); for an active account, stores a token and queues the mail.
     * Too many from one address → limited (429). Too many for one e-mail → the same
     * "done" answer with nothing sent (nobody can flood a colleague's inbox).
     */
    async request(input: { email: string; ip: string; baseUrl: string; now?: Date }): Promise<ResetRequestResult> {
      const start = performance.now();
      const now = input.now ?? new Date();
      const email = input.email.trim().toLowerCase();
      const byAddress = await repo.reserveAttempt(
        [`senha-ip:${input.ip}`.slice(0, 300)],
        RESET_MAX_PER_ADDRESS,
        RESET_WINDOW_MS,
        now,
      );
      if (byAddress.locked) return { kind: 'limited', retryAt: byAddress.retryAt };
      const byEmail = await repo.reserveAttempt(
        [`senha-conta:${email}`.slice(0, 300)],
        RESET_MAX_PER_EMAIL,
        RESET_WINDOW_MS,
        now,
      );
      if (byEmail.locked) {
        deps.log.info('password reset: too many requests for one e-mail; nothing sent');
        return done(start);
      }
      if (!deps.config.smtp) {
        if (!explainedNoSmtp) {
          explainedNoSmtp = true;
          deps.log.warn('redefinição de senha por e-mail indisponível: defina SMTP_HOST; use npm run user:password');
        }
        return done(start);
      }
      const user = await repo.findByEmail(email);
      if (user?.ativo !== 1) return done(start);
      const token = randomBytes(32).toString('base64url');
      const link = `${input.baseUrl}${RESET_PATH}?token=${token}`;
      await repo.transaction(async (trx, kysely) => {
        await trx.insertResetToken({
          usuarioId: user.id,
          tokenHash: tokenHash(token),
          now: nowIso(now),
          expiresAt: nowIso(new Date(now.getTime() + RESET_TOKEN_MS)),
        });
        await enqueueMail(kysely, {
          to: user.email,
          subject: `Redefinição de senha · ${brand().name}`,
          text: [
            `Olá, ${user.nome}.`,
            '',
            'Recebemos um pedido para redefinir a senha da sua conta na área da equipe.',
            'Para escolher uma nova senha, abra o link abaixo (vale por 30 minutos e uma única vez):',
            '',
            link,
            '',
            'Se você não pediu a redefinição, ignore esta mensagem: a sua senha atual continua valendo.',
          ].join('\n'),
          origin: `senha:${user.id}`,
        });
      });
      deps.log.info({ userId: user.id }, 'password reset link queued');
      return done(start);
    },

    /** Whether a link can still be used (the page shows the form or explains). */
    async checkToken(token: string): Promise<boolean> {
      if (!TOKEN_RE.test(token)) return false;
      return Boolean(await repo.findUsableResetToken(tokenHash(token), nowIso()));
    },

    /** Sets the new password: the token is used up, every session of the account ends. */
    async reset(input: { token: string; password: string; confirmation: string }): Promise<ResetResult> {
      if (!TOKEN_RE.test(input.token)) return { kind: 'invalid-token' };
      const errors: { nova_senha?: string; confirmacao?: string } = {};
      const problem = passwordProblem(input.password);
      if (problem) errors.nova_senha = problem;
      else if (input.password !== input.confirmation) errors.confirmacao = 'As duas senhas não são iguais.';
      const found = await repo.findUsableResetToken(tokenHash(input.token), nowIso());
      if (!found) return { kind: 'invalid-token' };
      if (errors.nova_senha || errors.confirmacao) return { kind: 'invalid', errors };
      const hash = await hashPassword(input.password);
      const done = await repo.transaction(async (trx) => {
        const now = nowIso();
        if (!(await trx.consumeResetToken(found.id, now))) return false;
        await trx.setPasswordHash(found.usuario_id, hash, { now });
        await trx.retireResetTokensOf(found.usuario_id, now);
        await trx.deleteSessionsOf(found.usuario_id);
        await trx.clearAttempts(accountKey(found.email));
        return true;
      });
      return done ? { kind: 'ok', userId: found.usuario_id } : { kind: 'invalid-token' };
    },

    purge() {
      return repo.purgeResetTokensBefore(nowIso(new Date(Date.now() - 24 * 60 * 60 * 1000)));
    },
  };
}
export type PasswordResetService = ReturnType<typeof createPasswordResetService>;

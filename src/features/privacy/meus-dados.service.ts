// "Meus dados": the person gives an e-mail address and gets, through the outbox, a link
// that works once for 24 hours; opening it starts a one-hour session on a page that shows
// what the site holds for that address, gives it as a ZIP, takes a correction or an erasure
// request, and revokes consent to be contacted. The answer to a link request never tells
// whether the address is known: the same page, and the same time (a floor, as the password
// reset does).
import { createHash, createHmac, randomBytes } from 'node:crypto';
import { brand } from '../../brand/index';
import type { Config } from '../../config';
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import { multiLine, take } from '../../lib/form/index';
import { enqueueMail } from '../../platform/mail/outbox.repository';
import type { RateLimitService } from '../../platform/ratelimit/ratelimit.service';
import type { PersonDataService, PrivacyRepos } from './person-data.service';
import { revokeWithin } from './consent.service';
import { requestRow } from './requests';

export const MEUS_DADOS_PATH = '/privacidade/meus-dados';
export const LINK_PATH = `${MEUS_DADOS_PATH}/acesso`;
export const LINK_TTL_MS = 24 * 60 * 60 * 1000;
export const SESSION_TTL_MS = 60 * 60 * 1000;
/** Link requests for one address within an hour; past it, the same answer and nothing sent. */
export const LINKS_PER_EMAIL = 3;
export const LINK_WINDOW_MS = 60 * 60 * 1000;
/**
 * The shortest time the answer to a link request takes: for a known address the link and
 * the mail are stored first, for another nothing is; without a floor the timing would tell.
 */
export const LINK_ANSWER_FLOOR_MS = 300;
export const CORRECTION_MAX = 3000;

const TOKEN_RE = /^[A-Za-z0-9_-]{43}$/;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export type MeusDadosSession = { email: string; sessionHash: string };

let explainedNoSmtp = false;

export function createMeusDadosService(deps: {
  repos: Transactional<PrivacyRepos>;
  person: PersonDataService;
  limits: RateLimitService;
  config: Pick<Config, 'smtp' | 'publicUrl' | 'sessionSecret'>;
  log: { info(obj: object, msg: string): void; warn(msg: string): void };
}) {
  const { repos, person } = deps;
  /** How logs and counters name an address: a keyed hash, never the address. */
  const tag = (email: string) =>
    createHmac('sha256', deps.config.sessionSecret).update(`privacidade:${email}`).digest('hex').slice(0, 16);

  const floor = async (start: number) => {
    const wait = LINK_ANSWER_FLOOR_MS - (performance.now() - start);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  };

  return {
    tag,

    /** Sends the link when the address has data (and mail is configured); always the same answer. */
    async requestLink(emailTyped: string, now = new Date()): Promise<void> {
      const start = performance.now();
      const email = emailTyped.trim().toLowerCase();
      try {
        const limit = await deps.limits.hit(`privacidade-link|${tag(email)}`, {
          max: LINKS_PER_EMAIL,
          timeWindow: LINK_WINDOW_MS,
        });
        if (!limit.allowed) {
          deps.log.info({ titular: tag(email) }, 'meus dados: too many links asked for one address; nothing sent');
          return;
        }
        if (!deps.config.smtp) {
          if (!explainedNoSmtp) {
            explainedNoSmtp = true;
            deps.log.warn('"Meus dados" precisa de e-mail para enviar o link: defina SMTP_HOST');
          }
          return;
        }
        const located = await person.locate({ email, phones: [] });
        if (located.size === 0) {
          deps.log.info({ titular: tag(email) }, 'meus dados: link asked for an address without data');
          return;
        }
        const token = randomBytes(32).toString('base64url');
        const link = `${deps.config.publicUrl}${LINK_PATH}?token=${token}`;
        const name = brand().name;
        await repos.transaction(async (tx, trx) => {
          await tx.requests.insertLink({
            email,
            tokenHash: sha256(token),
            now: nowIso(now),
            expiresAt: nowIso(new Date(now.getTime() + LINK_TTL_MS)),
          });
          await enqueueMail(trx, {
            to: email,
            subject: `Seus dados · ${name}`,
            text: [
              'Olá!',
              '',
              `Recebemos um pedido para ver os dados que a ${name} guarda ligados a este endereço de e-mail.`,
              'Para ver, baixar, pedir correção ou pedir a eliminação, abra o link abaixo',
              '(vale por 24 horas e uma única vez):',
              '',
              link,
              '',
              'Se você não fez este pedido, ignore esta mensagem: nada será mostrado a ninguém sem este link.',
            ].join('\n'),
            origin: 'privacidade:link',
          });
        });
        deps.log.info({ titular: tag(email) }, 'meus dados: link queued');
      } finally {
        await floor(start);
      }
    },

    /** Whether a link can still be opened (its page shows the button, or explains). */
    async checkLink(token: string): Promise<boolean> {
      if (!TOKEN_RE.test(token)) return false;
      return Boolean(await repos.requests.findUsableLink(sha256(token), nowIso()));
    },

    /**
     * Uses the link (once) and starts the session; the access is recorded as a request
     * answered by the site. Returns the session cookie's value, or null (used or expired).
     */
    async openLink(token: string, now = new Date()): Promise<string | null> {
      if (!TOKEN_RE.test(token)) return null;
      const session = randomBytes(32).toString('base64url');
      const opened = await repos.transaction(async (tx) => {
        const link = await tx.requests.consumeLink(
          sha256(token),
          sha256(session),
          nowIso(now),
          nowIso(new Date(now.getTime() + SESSION_TTL_MS)),
        );
        if (!link) return null;
        await tx.requests.insertRequest(
          requestRow({ tipo: 'acesso', canal: 'site', subject: { email: link.email, phones: [] }, done: true, now }),
        );
        return link;
      });
      if (!opened) return null;
      deps.log.info({ titular: tag(opened.email) }, 'meus dados: link opened');
      return session;
    },

    /** The session of a cookie value, or null. */
    async session(cookie: string | undefined): Promise<MeusDadosSession | null> {
      if (!cookie || !TOKEN_RE.test(cookie)) return null;
      const sessionHash = sha256(cookie);
      const found = await repos.requests.findSession(sessionHash, nowIso());
      return found ? { email: found.email, sessionHash } : null;
    },

    async endSession(s: MeusDadosSession) {
      await repos.requests.endSession(s.sessionHash);
    },

    overview(s: MeusDadosSession) {
      return person.overview({ email: s.email, phones: [] });
    },

    /** The ZIP; the copy given is recorded as a request answered by the site. */
    async exportZip(s: MeusDadosSession): Promise<Uint8Array> {
      const zip = await person.exportZip({ email: s.email, phones: [] });
      await repos.requests.insertRequest(
        requestRow({ tipo: 'portabilidade', canal: 'site', subject: { email: s.email, phones: [] }, done: true }),
      );
      deps.log.info({ titular: tag(s.email) }, 'meus dados: export downloaded');
      return zip;
    },

    /** A correction request (free text); a double submit stores one. */
    async askCorrection(
      s: MeusDadosSession,
      fields: Record<string, unknown>,
      envioId: string | null,
    ): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
      const errors: Record<string, string> = {};
      const texto = take(
        errors,
        'correcao',
        multiLine(fields.correcao, { max: CORRECTION_MAX, required: 'Escreva o que está errado e como deve ficar.' }),
        '',
      );
      if (Object.keys(errors).length) return { ok: false, errors };
      await repos.requests.insertRequest(
        requestRow({ tipo: 'correcao', canal: 'site', subject: { email: s.email, phones: [] }, texto, envioId }),
      );
      deps.log.info({ titular: tag(s.email) }, 'meus dados: correction asked');
      return { ok: true };
    },

    /** An erasure request (staff carry it out from the queue); a double submit stores one. */
    async askErasure(
      s: MeusDadosSession,
      fields: Record<string, unknown>,
      envioId: string | null,
    ): Promise<{ ok: true } | { ok: false; errors: Record<string, string> }> {
      if (fields.confirmar !== 'sim')
        return { ok: false, errors: { confirmar: 'Marque a caixa para confirmar o pedido de eliminação.' } };
      await repos.requests.insertRequest(
        requestRow({ tipo: 'eliminacao', canal: 'site', subject: { email: s.email, phones: [] }, envioId }),
      );
      deps.log.info({ titular: tag(s.email) }, 'meus dados: erasure asked');
      return { ok: true };
    },

    /**
     * Revokes the person's consents: the e-mail's and those of the phones found on the rows
     * of that e-mail. Recorded as a request the site concludes at once, in the same
     * transaction; a double submit revokes and stores once.
     */
    async revokeConsent(s: MeusDadosSession, envioId: string | null, now = new Date()): Promise<{ revoked: number }> {
      const subject = await person.expand({ email: s.email, phones: [] });
      const at = nowIso(now);
      const revoked = await repos.transaction(async (tx) => {
        const id = await tx.requests.insertRequest(
          requestRow({ tipo: 'revogacao', canal: 'site', subject, envioId, done: true, now }),
        );
        if (id === null) return 0;
        const n = await revokeWithin(
          tx,
          { email: subject.email, telefones: subject.phones },
          { by: null, at, requestId: id },
        );
        await tx.requests.setResult(id, JSON.stringify({ revogados: n }));
        return n;
      });
      deps.log.info({ titular: tag(s.email), revoked }, 'meus dados: consent revoked');
      return { revoked };
    },

    purge() {
      return repos.requests.purgeLinks(nowIso());
    },
  };
}
export type MeusDadosService = ReturnType<typeof createMeusDadosService>;

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';

const explained = new Set<string>();

/**
 * The address a notification of `kind` goes to, or null when mail is not configured
 * (no SMTP_HOST or no destination). The reason is logged once per process and kind, so
 * an unconfigured installation does not fill the log with one line per submission.
 */
export function notificationTarget(
  config: Pick<Config, 'smtp' | 'notificationEmail' | 'franchiseNotificationEmail'>,
  log: Pick<FastifyBaseLogger, 'info'>,
  kind: 'franchise' | 'feedback',
): string | null {
  const to = kind === 'franchise' ? config.franchiseNotificationEmail : config.notificationEmail;
  const variable = kind === 'franchise' ? 'FRANCHISE_NOTIFICATION_EMAIL' : 'NOTIFICATION_EMAIL';
  if (config.smtp && to) return to;
  if (!explained.has(kind)) {
    explained.add(kind);
    const missing = [!config.smtp ? 'SMTP_HOST' : null, !to ? variable : null].filter(Boolean).join(' e ');
    log.info({ kind }, `e-mail de notificação (${kind}) não configurado: defina ${missing}; nada será enfileirado`);
  }
  return null;
}

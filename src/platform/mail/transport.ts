// The SMTP transport, built from config.smtp. The security mode maps to nodemailer:
// "tls" = implicit TLS (465), "starttls" = upgrade required, "none" = plain (local relays).
import { createRequire } from 'node:module';
import type Nodemailer from 'nodemailer';
import type { SMTPTransportOptions } from 'nodemailer/lib/smtp-transport';
import type { SmtpConfig } from '../../config';

export function smtpTransportOptions(
  smtp: SmtpConfig,
  extra: Partial<SMTPTransportOptions> = {},
): SMTPTransportOptions {
  const security: Partial<SMTPTransportOptions> =
    smtp.secure === 'tls'
      ? { secure: true }
      : smtp.secure === 'starttls'
        ? { secure: false, requireTLS: true }
        : { secure: false, ignoreTLS: true };
  return {
    host: smtp.host,
    port: smtp.port,
    ...security,
    ...(smtp.user ? { auth: { user: smtp.user, pass: smtp.pass ?? '' } } : {}),
    // Short timeouts: the worker retries later anyway, and a hung server must not hold a claim.
    connectionTimeout: 15_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
    dnsTimeout: 10_000,
    ...extra,
  };
}

// Loaded on first use (a mail is sent or the diagnostic runs), not at start: it only costs memory before.
const require = createRequire(import.meta.url);

/** `pool: true` (the worker) keeps the connection open across messages. */
export function createSmtpTransport(
  smtp: SmtpConfig,
  extra: Partial<SMTPTransportOptions> & { pool?: boolean; maxConnections?: number } = {},
) {
  const nodemailer = require('nodemailer') as typeof Nodemailer;
  return nodemailer.createTransport(smtpTransportOptions(smtp, extra) as SMTPTransportOptions);
}
export type SmtpTransport = ReturnType<typeof createSmtpTransport>;

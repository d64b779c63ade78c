// The mail diagnostic: what the installation is configured with (never the password),
// the outbox state, and a live SMTP conversation whose transcript staff can read.
import { createRequire } from 'node:module';
import tls from 'node:tls';
import { format } from 'node:util';
import type { Config } from '../../config';
import type { OutboxRepository } from './outbox.repository';
import { createSmtpTransport } from './transport';
import { brand } from '../../brand/index';

const require = createRequire(import.meta.url);

export interface TranscriptLine {
  /** ms since the start of the test */
  ms: number;
  /** S = server, C = client, * = nodemailer's own note */
  dir: 'S' | 'C' | '*';
  text: string;
}

export interface SmtpTestResult {
  ok: boolean;
  action: 'testar' | 'enviar';
  totalMs: number;
  lines: TranscriptLine[];
  error?: string;
  explanation?: string;
  to?: string;
}

export function mailLibraryInfo() {
  let version = 'desconhecida';
  try {
    version = (require('nodemailer/package.json') as { version: string }).version;
  } catch {
    // the version is informative only
  }
  return {
    library: 'nodemailer',
    version,
    node: process.versions.node,
    openssl: process.versions.openssl ?? null,
    tlsAvailable: typeof tls.connect === 'function' && tls.getCiphers().length > 0,
    tlsMin: tls.DEFAULT_MIN_VERSION,
    tlsMax: tls.DEFAULT_MAX_VERSION,
  };
}

export function smtpSettings(
  config: Pick<Config, 'smtp' | 'mailFrom' | 'notificationEmail' | 'franchiseNotificationEmail'>,
) {
  const s = config.smtp;
  return {
    configured: Boolean(s),
    host: s?.host ?? null,
    port: s?.port ?? null,
    secure: s?.secure ?? null,
    user: s?.user ?? null,
    // Only whether it is set: never the value, its length, or any part of it.
    passwordSet: Boolean(s?.pass),
    mailFrom: config.mailFrom,
    notificationEmail: config.notificationEmail,
    franchiseNotificationEmail: config.franchiseNotificationEmail,
  };
}

/** What the page reads from the database: the outbox counts (admin/index.ts hands in the outbox). */
export function createDiagnosticService(outbox: Pick<OutboxRepository, 'summary'>) {
  return {
    outboxSummary: () => outbox.summary(),
  };
}
export type DiagnosticService = ReturnType<typeof createDiagnosticService>;

/** Removes every form of the password (plain, base64, AUTH PLAIN token) from a line. */
export function makeRedactor(user: string | undefined, pass: string | undefined) {
  const secrets: string[] = [];
  if (pass) {
    secrets.push(pass, Buffer.from(pass).toString('base64'));
    if (user) {
      secrets.push(
        Buffer.from(`\u0000${user}\u0000${pass}`).toString('base64'),
        Buffer.from(`${user}\u0000${pass}`).toString('base64'),
      );
    }
  }
  let afterAuth = false;
  return (dir: TranscriptLine['dir'], text: string): string => {
    let out = text;
    for (const s of secrets.filter((x) => x.length >= 1).sort((a, b) => b.length - a.length))
      out = out.split(s).join('/* oculto */');
    if (dir === 'C') {
      const auth = /^AUTH\s+(\S+)(\s+.*)?$/i.exec(out);
      if (auth) {
        afterAuth = auth[1]!.toUpperCase() !== 'PLAIN' || !auth[2];
        return `AUTH ${auth[1]}${auth[2] ? ' /* oculto */' : ''}`;
      }
      // AUTH LOGIN continues with base64 user and password lines: hide them.
      if (afterAuth && /^[A-Za-z0-9+/=\s*]+$/.test(out)) return '/* oculto */';
      afterAuth = false;
    }
    return out;
  };
}

/** pt-BR explanation of the usual failures. */
export function explainSmtpError(err: unknown, smtp: NonNullable<Config['smtp']>): string {
  const e = err as { code?: string; message?: string; responseCode?: number; reason?: string };
  const text = `${e.code ?? ''} ${e.message ?? ''} ${e.reason ?? ''}`;
  const where = `${smtp.host}:${smtp.port}`;
  if (/ECONNREFUSED/.test(text)) {
    return (
      `Conexão recusada: nada aceita conexões em ${where}. Confira SMTP_HOST e SMTP_PORT, se o servidor de ` +
      `e-mail está no ar e se um firewall não bloqueia a porta.`
    );
  }
  if (/ENOTFOUND|EAI_AGAIN|EDNS/.test(text)) {
    return (
      `O nome "${smtp.host}" não foi encontrado no DNS. Confira a grafia de SMTP_HOST e se este servidor ` +
      `consegue resolver nomes externos.`
    );
  }
  if (/wrong version number|ssl3_get_record|packet length too long|unknown protocol|WRONG_VERSION/i.test(text)) {
    return (
      `O modo de segurança não corresponde à porta: o servidor em ${where} não fala TLS direto. Use ` +
      `SMTP_SECURE=tls só com a porta 465; nas portas 587 e 25 use SMTP_SECURE=starttls.`
    );
  }
  if (/CERT|certificate|self[- ]signed|UNABLE_TO_VERIFY|altnames/i.test(text)) {
    return (
      `O certificado TLS do servidor não é confiável ou não corresponde ao nome "${smtp.host}". Use o nome ` +
      `exato do certificado em SMTP_HOST ou peça ao provedor um certificado válido.`
    );
  }
  if (e.code === 'ETLS' || /STARTTLS/i.test(text)) {
    return (
      `O servidor não ofereceu STARTTLS (ou a negociação falhou). Com SMTP_SECURE=starttls a conexão exige ` +
      `criptografia; confira a porta (587) ou use SMTP_SECURE=tls na porta 465.`
    );
  }
  if (e.code === 'EAUTH' || e.responseCode === 535) {
    return (
      'O servidor recusou o usuário ou a senha (SMTP_USER/SMTP_PASS). Confira as credenciais; alguns provedores ' +
      'exigem uma "senha de app" ou liberar o acesso SMTP na conta.'
    );
  }
  if (e.code === 'ENOAUTH' || e.responseCode === 530) {
    return 'O servidor exige autenticação: defina SMTP_USER e SMTP_PASS.';
  }
  if (/ETIMEDOUT|timeout|Greeting never received/i.test(text)) {
    return (
      `Tempo esgotado esperando o servidor em ${where}. Pode ser um firewall descartando a conexão ou um modo ` +
      `de segurança trocado (porta 465 pede SMTP_SECURE=tls; se o servidor espera TLS e recebe texto, ele fica calado).`
    );
  }
  if (e.code === 'EENVELOPE' || (e.responseCode && e.responseCode >= 550)) {
    return (
      'O servidor recusou o remetente ou o destinatário. Confira MAIL_FROM (muitos provedores só aceitam o ' +
      'endereço da própria conta) e o endereço de destino.'
    );
  }
  return 'O envio falhou por um motivo não identificado; a transcrição abaixo mostra a resposta real do servidor.';
}

/**
 * Opens a real SMTP connection (verify) or sends a test message, capturing the
 * conversation through nodemailer's logger with the password redacted.
 */
export async function runSmtpTest(
  config: Pick<Config, 'smtp' | 'mailFrom'>,
  action: 'testar' | 'enviar',
  to?: string,
): Promise<SmtpTestResult> {
  const smtp = config.smtp!;
  const started = Date.now();
  const lines: TranscriptLine[] = [];
  const redact = makeRedactor(smtp.user, smtp.pass);
  const capture = (entry: unknown, message: unknown, ...args: unknown[]) => {
    const tnx = (entry as { tnx?: string } | undefined)?.tnx;
    const dir: TranscriptLine['dir'] = tnx === 'server' ? 'S' : tnx === 'client' ? 'C' : '*';
    const text = typeof message === 'string' ? format(message, ...args) : format(entry, message, ...args);
    for (const line of text.split(/\r?\n/)) {
      if (line === '') continue;
      if (lines.length >= 400) return;
      lines.push({ ms: Date.now() - started, dir, text: redact(dir, line).slice(0, 1000) });
    }
  };
  const logger = { trace: capture, debug: capture, info: capture, warn: capture, error: capture, fatal: capture };
  const transport = createSmtpTransport(smtp, {
    logger,
    debug: true,
    connectionTimeout: 10_000,
    greetingTimeout: 8_000,
    socketTimeout: 15_000,
  });
  try {
    if (action === 'testar') {
      await transport.verify();
    } else {
      await transport.sendMail({
        from: config.mailFrom,
        to,
        subject: `Teste de e-mail · ${brand().name}`,
        text:
          `Esta é uma mensagem de teste enviada pela página de diagnóstico de e-mail em ` +
          `${new Date().toISOString()}.\nSe você a recebeu, o envio está funcionando.`,
      });
    }
    return { ok: true, action, totalMs: Date.now() - started, lines, to };
  } catch (err) {
    const raw = `${(err as { code?: string }).code ?? ''} ${(err as Error).message ?? String(err)}`.trim();
    return {
      ok: false,
      action,
      totalMs: Date.now() - started,
      lines,
      to,
      error: redact('*', raw)
        .replace(/[\r\n]+/g, ' ')
        .slice(0, 500),
      explanation: explainSmtpError(err, smtp),
    };
  } finally {
    transport.close();
  }
}

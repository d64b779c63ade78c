// The environment is read once, here, and validated by one schema: a bad value stops
// the process at start-up with one message per field instead of failing later.
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import Type, { type Static } from 'typebox';
import Value from 'typebox/value';
import { normalizePhone } from './lib/form/parsers';

export const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  UPLOADS_DIR: Type.String({ minLength: 1, default: './data/uploads' }),
  // Where uploaded files live: "local" (UPLOADS_DIR, one machine) or "database" (a table,
  // shared by every instance). Unset: local on SQLite, database on PostgreSQL.
  STORAGE_DRIVER: Type.Optional(Type.String()),
  // The orphan sweep (docs/decisions/071): how often it runs and how old a leftover must be.
  STORAGE_SWEEP_INTERVAL_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 120 }),
  STORAGE_SWEEP_AGE_SECONDS: Type.Integer({ minimum: 1, maximum: 86_400, default: 120 }),
  SESSION_SECRET: Type.Optional(Type.String({ minLength: 32 })),
  SMTP_HOST: Type.Optional(Type.String({ minLength: 1 })),
  SMTP_PORT: Type.Optional(Type.Integer({ minimum: 1, maximum: 65535 })),
  SMTP_USER: Type.Optional(Type.String()),
  SMTP_PASS: Type.Optional(Type.String()),
  // "tls": implicit TLS (port 465); "starttls": upgrade required; "none": plain (tests, local relays).
  SMTP_SECURE: Type.Union([Type.Literal('tls'), Type.Literal('starttls'), Type.Literal('none')], {
    default: 'starttls',
  }),
  MAIL_FROM: Type.String({ minLength: 3, default: 'Academia <nao-responda@localhost>' }),
  NOTIFICATION_EMAIL: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  FRANCHISE_NOTIFICATION_EMAIL: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  TRUST_PROXY: Type.String({ default: 'false' }),
  LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l)),
    { default: 'info' },
  ),
  DEMO_SEED: Type.Boolean({ default: true }),
  MAIL_WORKER: Type.Boolean({ default: true }),
  // Timers for the scheduled jobs (trial-class reminders, anonymisation, weekly digest) in this process.
  SCHEDULED_JOBS: Type.Boolean({ default: true }),
  // Outbox delivery: messages claimed per round, pause between rounds when the queue is
  // empty, and how long a claim holds before another instance takes the message over.
  MAIL_BATCH_SIZE: Type.Integer({ minimum: 1, maximum: 1000, default: 50 }),
  MAIL_INTERVAL_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 5_000 }),
  MAIL_LEASE_MS: Type.Integer({ minimum: 2_000, maximum: 60_000, default: 60_000 }),
  // Outgoing webhooks (platform/webhooks): the delivery worker in this process, how often
  // it looks for due deliveries, how long a claim holds, the receiver's time limit, the
  // waits between attempts (seconds, comma-separated) and whether private addresses may be
  // called (an internal network; tests on 127.0.0.1).
  WEBHOOKS_WORKER: Type.Boolean({ default: true }),
  WEBHOOKS_ALLOW_PRIVATE: Type.Boolean({ default: false }),
  WEBHOOKS_INTERVAL_MS: Type.Integer({ minimum: 100, maximum: 3_600_000, default: 2_000 }),
  WEBHOOKS_LEASE_MS: Type.Integer({ minimum: 2_000, maximum: 600_000, default: 30_000 }),
  WEBHOOKS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  WEBHOOKS_RETRY_SCHEDULE: Type.String({
    pattern: '^[0-9]+([.][0-9]+)?(,[0-9]+([.][0-9]+)?){0,29}$',
    default: '5,30,120,600,3600,7200,14400,21600,21600,21600',
  }),
  // PostgreSQL pool: connections per instance, and how long a request may wait for a
  // connection or a statement before it answers 503.
  DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 200, default: 10 }),
  DB_CONNECT_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 2_000 }),
  DB_STATEMENT_TIMEOUT_MS: Type.Integer({ minimum: 0, maximum: 600_000, default: 10_000 }),
  // Staff reports' read-only connections per instance: one, so reports queue instead of
  // taking every core of the database from the public pages (docs/decisions/237).
  DB_READ_POOL_MAX: Type.Integer({ minimum: 1, maximum: 50, default: 1 }),
  // The chain's name as customers read it; the rest of the brand lives in src/brand/.
  BRAND_NAME: Type.String({ minLength: 2, maxLength: 80, default: 'Academia Movimento' }),
  // Absolute links (sitemap, canonical, og:image, QR codes, links in e-mails).
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^/\\s]+(/[^\\s]*)?$', maxLength: 200 })),
  // The chain's own WhatsApp (footer, and "Matricule-se" of a unit without one) and social pages.
  BRAND_WHATSAPP: Type.Optional(Type.String({ pattern: '^[0-9+() -]{10,20}$' })),
  BRAND_INSTAGRAM: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$', maxLength: 200 })),
  BRAND_FACEBOOK: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$', maxLength: 200 })),
  // /metrics answers only with this bearer token; unset, the endpoint does not exist (404).
  METRICS_TOKEN: Type.Optional(Type.String({ minLength: 24, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' })),
  // Scheduled backups (docs/operations.md, Backups): where, how many kept, how often.
  BACKUP_DIR: Type.Optional(Type.String({ minLength: 1 })),
  BACKUP_KEEP: Type.Integer({ minimum: 1, maximum: 1000, default: 7 }),
  BACKUP_INTERVAL_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 24 }),
  // The data-protection officer (encarregado, LGPD art. 41), shown in the footer and on /privacidade.
  DPO_NAME: Type.String({ minLength: 2, maxLength: 120, default: 'Encarregado de proteção de dados' }),
  DPO_EMAIL: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
  // The mail provider's name as /privacidade lists it among processors (default: the SMTP host).
  MAIL_PROVIDER_NAME: Type.Optional(Type.String({ minLength: 2, maxLength: 120 })),
  // Months each kind of personal data is kept before the retention job anonymises it.
  RETENTION_LEADS_MONTHS: Type.Integer({ minimum: 1, maximum: 120, default: 24 }),
  RETENTION_MESSAGES_MONTHS: Type.Integer({ minimum: 1, maximum: 120, default: 24 }),
  RETENTION_SURVEY_CONTACT_MONTHS: Type.Integer({ minimum: 1, maximum: 120, default: 24 }),
  RETENTION_BOOKINGS_MONTHS: Type.Integer({ minimum: 1, maximum: 120, default: 12 }),
  // Online enrolment (docs/enrolment.md): who takes the payments. "pix" needs no account: a
  // static Pix code from PIX_KEY, confirmed by staff against the bank statement.
  // "asaas": Asaas (docs/operations.md, Payments): dynamic Pix and card on its hosted page, confirmed by its webhook.
  PAYMENT_PROVIDER: Type.Union([Type.Literal('pix'), Type.Literal('asaas')], { default: 'pix' }),
  // The receiving Pix key (CPF/CNPJ digits, e-mail, +55 phone or random key) and the names
  // the payer's bank shows. Unset outside production: a demo key, and the pages say so.
  PIX_KEY: Type.Optional(Type.String({ minLength: 1, maxLength: 77, pattern: '^[\\x21-\\x7e]+$' })),
  PIX_MERCHANT_NAME: Type.Optional(Type.String({ minLength: 1, maxLength: 25 })),
  PIX_MERCHANT_CITY: Type.String({ minLength: 1, maxLength: 15, default: 'SAO PAULO' }),
  ENROLMENT_PIX_EXPIRY_HOURS: Type.Integer({ minimum: 1, maximum: 720, default: 48 }),
  // Asaas (PAYMENT_PROVIDER=asaas): the API's base URL with /v3 (sandbox or production), the
  // account's API key, the token Asaas sends in `asaas-access-token` with each webhook, and
  // the time limit of one call.
  ASAAS_API_URL: Type.Optional(Type.String({ pattern: '^https?://[^/\\s]+(/[^\\s]*)?$', maxLength: 200 })),
  ASAAS_API_KEY: Type.Optional(Type.String({ minLength: 8, maxLength: 400, pattern: '^[\\x21-\\x7e]+$' })),
  ASAAS_WEBHOOK_TOKEN: Type.Optional(Type.String({ minLength: 32, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' })),
  ASAAS_TIMEOUT_MS: Type.Integer({ minimum: 100, maximum: 60_000, default: 10_000 }),
  // Pix Automático (journey 3: the first payment's QR code also authorises the monthly debits).
  ASAAS_PIX_AUTOMATICO: Type.Boolean({ default: false }),
  // A monthly payment this many days past its due date makes the member "inadimplente".
  PAYMENT_OVERDUE_DAYS: Type.Integer({ minimum: 0, maximum: 60, default: 3 }),
});

export type Env = Static<typeof EnvSchema>;

export type DatabaseConfig =
  | { engine: 'sqlite'; filename: string }
  | { engine: 'postgres'; connectionString: string; schema?: string; pool?: PgPoolConfig };

/** PostgreSQL pool tuning (DB_POOL_MAX, DB_READ_POOL_MAX, DB_CONNECT_TIMEOUT_MS, DB_STATEMENT_TIMEOUT_MS). */
export interface PgPoolConfig {
  max: number;
  /** connections of the staff reports' read-only pool */
  readMax: number;
  connectTimeoutMs: number;
  statementTimeoutMs: number;
}

export interface StorageConfig {
  driver: 'local' | 'database';
  /** the orphan sweep runs at start-up and then every `sweepIntervalMs` */
  sweepIntervalMs: number;
  /** a temporary file not written to, or an unreferenced final file, older than this is removed */
  sweepAgeMs: number;
}

export interface SmtpConfig {
  host: string;
  port: number;
  user?: string;
  pass?: string;
  secure: 'tls' | 'starttls' | 'none';
}

export interface WebhooksConfig {
  /** run the delivery worker in this process */
  worker: boolean;
  /** private, loopback, link-local… addresses may be called (WEBHOOKS_ALLOW_PRIVATE) */
  allowPrivate: boolean;
  intervalMs: number;
  leaseMs: number;
  /** a receiver's whole answer must come within this */
  timeoutMs: number;
  /** the wait after attempt 1, 2, …; after the last one the delivery fails */
  retryDelaysMs: number[];
}

/** Months each kind of personal data is kept (the retention job and /privacidade read these). */
export interface RetentionConfig {
  leadsMonths: number;
  messagesMonths: number;
  surveyContactMonths: number;
  bookingsMonths: number;
}

export interface PrivacyConfig {
  dpoName: string;
  dpoEmail: string;
  /** DPO_EMAIL was not set: the address was made from PUBLIC_URL's host (a warning in production) */
  dpoEmailDefaulted: boolean;
  /** the mail provider's name on /privacidade, or null (the SMTP host is shown) */
  mailProviderName: string | null;
  retention: RetentionConfig;
}

/** The receiving Pix account of the `pix` provider. */
export interface PixConfig {
  key: string;
  merchantName: string;
  merchantCity: string;
  /** no PIX_KEY outside production: a demo key; the pages say "demonstração" */
  demo: boolean;
}

/** The Asaas account of the `asaas` provider. */
export interface AsaasConfig {
  /** base URL including /v3, without a trailing slash */
  apiUrl: string;
  apiKey: string;
  webhookToken: string;
  timeoutMs: number;
  pixAutomatico: boolean;
}

export interface PaymentsConfig {
  provider: 'pix' | 'asaas';
  /** null: nothing can be paid online (production without PIX_KEY): "Matricule-se" stays on WhatsApp */
  pix: PixConfig | null;
  /** set when provider is `asaas` */
  asaas: AsaasConfig | null;
  /** an unpaid enrolment expires after this */
  pixExpiryMs: number;
  /** days a monthly payment may be overdue before the member is inadimplente */
  overdueDays: number;
}

/** The Pix key of the demo: a random-key shape that no bank account holds. */
export const DEMO_PIX_KEY = '00000000-0000-4000-8000-000000000000';

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  database: DatabaseConfig;
  uploadsDir: string;
  storage: StorageConfig;
  sessionSecret: string;
  smtp: SmtpConfig | null;
  mailFrom: string;
  notificationEmail: string | null;
  franchiseNotificationEmail: string | null;
  /** TRUST_PROXY, checked: see parseTrustProxy and http/proxy.ts */
  trustProxy: TrustProxy;
  logLevel: string;
  demoSeed: boolean;
  mailWorker: boolean;
  /** run the weekly digest scheduler in this process */
  /** run the scheduled jobs' timers (trial-class reminders, anonymisation) in this process */
  scheduledJobs: boolean;
  mail: { batchSize: number; intervalMs: number; leaseMs: number };
  webhooks: WebhooksConfig;
  brandName: string;
  /** origin (and optional path prefix) for absolute links, without a trailing slash */
  publicUrl: string;
  /** the chain's WhatsApp as E.164 (+55…), or null */
  brandWhatsapp: string | null;
  brandInstagram: string | null;
  brandFacebook: string | null;
  /** bearer token of /metrics; null: the endpoint is off */
  metricsToken: string | null;
  /** scheduled backups; dir null: none are taken by the server */
  backup: { dir: string | null; keep: number; intervalMs: number };
  privacy: PrivacyConfig;
  payments: PaymentsConfig;
}

/**
 * false: X-Forwarded-* ignored. true: every peer is a proxy. addresses: the proxies'
 * addresses, subnets or the names loopback/linklocal/uniquelocal. hops: exactly that many
 * proxies in front (the client is the Nth address from the right of X-Forwarded-For).
 */
export type TrustProxy = false | true | { addresses: string[] } | { hops: number };

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Configuração inválida:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Loads `.env` (when present) into process.env without overriding what is set. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(item: string): boolean {
  if (PROXY_NAMES.has(item.toLowerCase())) return true;
  const [ip, range, ...rest] = item.split('/');
  if (rest.length || !ip) return false;
  const family = isIP(ip);
  if (!family) return false;
  if (range === undefined) return true;
  if (/^\d{1,3}$/.test(range)) return Number(range) <= (family === 4 ? 32 : 128);
  return family === 4 && isIP(range) === 4; // 10.0.0.0/255.0.0.0
}

/** Refuses what cannot work (a host name, a negative count) with what to write instead. */
export function parseTrustProxy(value: string): TrustProxy {
  const v = value.trim();
  const lower = v.toLowerCase();
  if (lower === '' || lower === 'false' || lower === '0') return false;
  if (lower === 'true') return true;
  if (/^\d+$/.test(v)) {
    const hops = Number(v);
    if (hops > 10)
      throw new ConfigError([
        `TRUST_PROXY: ${hops} proxies em sequência não é plausível; informe o número de proxies (1 a 10) ou os ` +
          `endereços deles, ex.: TRUST_PROXY=10.0.0.5,10.0.0.6`,
      ]);
    return { hops };
  }
  const items = v
    .split(',')
    .map((i) => i.trim())
    .filter(Boolean);
  const bad = items.filter((i) => !isProxyAddress(i));
  if (bad.length) {
    throw new ConfigError([
      `TRUST_PROXY: ${bad.map((b) => JSON.stringify(b)).join(', ')} não é endereço IP, sub-rede nem um dos nomes ` +
        `loopback, linklocal, uniquelocal. ` +
        'Use true, o número de proxies à frente (ex.: 1) ou os endereços/sub-redes dos proxies separados por vírgula ' +
        '(ex.: 127.0.0.1,10.0.0.0/8). Nomes de máquina não são aceitos: informe o IP.',
    ]);
  }
  return { addresses: items };
}

export function parseDatabaseUrl(url: string | undefined): DatabaseConfig {
  if (!url) return { engine: 'sqlite', filename: path.resolve('data/academia.sqlite') };
  if (/^postgres(ql)?:\/\//i.test(url)) return { engine: 'postgres', connectionString: url };
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    // SQLite's name for a database in memory: every connection (start-up's, the server's)
    // would get an empty one of its own. Refused rather than made a file named ":memory:".
    if (file === ':memory:')
      throw new ConfigError([
        'DATABASE_URL: sqlite::memory: não serve para o servidor (cada conexão teria um banco vazio); use ' +
          'sqlite:caminho/arquivo.sqlite',
      ]);
    return { engine: 'sqlite', filename: path.resolve(file) };
  }
  throw new ConfigError([
    `DATABASE_URL: use postgres://… ou sqlite:caminho/arquivo.sqlite (recebido "${url.split(':')[0]}:…")`,
  ]);
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Only the variables we know, empty strings treated as unset (common in .env files).
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(EnvSchema.properties)) {
    const v = source[key];
    if (v !== undefined && v.trim() !== '') raw[key] = v.trim();
  }
  const withDefaults = Value.Default(EnvSchema, Value.Convert(EnvSchema, raw));
  const problems = [...Value.Errors(EnvSchema, withDefaults)].map(
    (e) =>
      `${e.instancePath.replace(/^\//, '') || 'ambiente'}: ${e.message} ` +
      `(valor atual: ${describe(e.instancePath, raw)})`,
  );
  if (problems.length) throw new ConfigError(problems);
  const env = withDefaults as Env;

  const isProduction = env.NODE_ENV === 'production';
  if (isProduction && !env.SESSION_SECRET) {
    problems.push('SESSION_SECRET: obrigatório em produção (pelo menos 32 caracteres aleatórios)');
  }
  if (env.SMTP_HOST && (env.SMTP_USER ? !env.SMTP_PASS : false)) {
    problems.push('SMTP_PASS: obrigatório quando SMTP_USER está definido');
  }
  if (env.STORAGE_DRIVER !== undefined && env.STORAGE_DRIVER !== 'local' && env.STORAGE_DRIVER !== 'database') {
    problems.push(
      `STORAGE_DRIVER: use "local" (arquivos em UPLOADS_DIR, uma máquina) ou "database" (arquivos no banco, várias ` +
        `instâncias; funciona em SQLite e PostgreSQL) (valor atual: ${JSON.stringify(env.STORAGE_DRIVER)})`,
    );
  }
  let database: DatabaseConfig | undefined;
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
    if (database.engine === 'postgres') {
      database.pool = {
        max: env.DB_POOL_MAX,
        readMax: env.DB_READ_POOL_MAX,
        connectTimeoutMs: env.DB_CONNECT_TIMEOUT_MS,
        statementTimeoutMs: env.DB_STATEMENT_TIMEOUT_MS,
      };
    }
  } catch (err) {
    if (err instanceof ConfigError) problems.push(...err.problems);
    else throw err;
  }
  let trustProxy: TrustProxy = false;
  try {
    trustProxy = parseTrustProxy(env.TRUST_PROXY);
  } catch (err) {
    if (err instanceof ConfigError) problems.push(...err.problems);
    else throw err;
  }
  if (env.PAYMENT_PROVIDER === 'asaas') {
    if (!env.ASAAS_API_URL)
      problems.push(
        'ASAAS_API_URL: obrigatório com PAYMENT_PROVIDER=asaas (https://api-sandbox.asaas.com/v3 para testes, ' +
          'https://api.asaas.com/v3 em produção)',
      );
    if (!env.ASAAS_API_KEY)
      problems.push('ASAAS_API_KEY: obrigatório com PAYMENT_PROVIDER=asaas (chave de API da conta)');
    if (!env.ASAAS_WEBHOOK_TOKEN)
      problems.push(
        'ASAAS_WEBHOOK_TOKEN: obrigatório com PAYMENT_PROVIDER=asaas (de 32 a 255 caracteres, o mesmo cadastrado ' +
          'no webhook do Asaas)',
      );
  }
  const brandWhatsapp = env.BRAND_WHATSAPP ? normalizePhone(env.BRAND_WHATSAPP) : null;
  if (env.BRAND_WHATSAPP && !brandWhatsapp) {
    problems.push('BRAND_WHATSAPP: use um número brasileiro com DDD, por exemplo (11) 99999-0000');
  }
  if (problems.length || !database) throw new ConfigError(problems);

  const smtp: SmtpConfig | null = env.SMTP_HOST
    ? {
        host: env.SMTP_HOST,
        port: env.SMTP_PORT ?? (env.SMTP_SECURE === 'tls' ? 465 : 587),
        user: env.SMTP_USER,
        pass: env.SMTP_PASS,
        secure: env.SMTP_SECURE,
      }
    : null;

  return {
    env: env.NODE_ENV,
    isProduction,
    port: env.PORT,
    host: env.HOST,
    database,
    uploadsDir: path.resolve(env.UPLOADS_DIR),
    storage: {
      driver:
        (env.STORAGE_DRIVER as 'local' | 'database' | undefined) ??
        (database.engine === 'postgres' ? 'database' : 'local'),
      sweepIntervalMs: env.STORAGE_SWEEP_INTERVAL_SECONDS * 1000,
      sweepAgeMs: env.STORAGE_SWEEP_AGE_SECONDS * 1000,
    },
    // Outside production a per-process secret is fine: sessions simply end at restart.
    sessionSecret: env.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    smtp,
    mailFrom: env.MAIL_FROM,
    notificationEmail: env.NOTIFICATION_EMAIL ?? null,
    franchiseNotificationEmail: env.FRANCHISE_NOTIFICATION_EMAIL ?? null,
    trustProxy,
    logLevel: env.LOG_LEVEL,
    demoSeed: env.DEMO_SEED,
    mailWorker: env.MAIL_WORKER,
    scheduledJobs: env.SCHEDULED_JOBS,
    mail: { batchSize: env.MAIL_BATCH_SIZE, intervalMs: env.MAIL_INTERVAL_MS, leaseMs: env.MAIL_LEASE_MS },
    webhooks: {
      worker: env.WEBHOOKS_WORKER,
      allowPrivate: env.WEBHOOKS_ALLOW_PRIVATE,
      intervalMs: env.WEBHOOKS_INTERVAL_MS,
      leaseMs: env.WEBHOOKS_LEASE_MS,
      timeoutMs: env.WEBHOOKS_TIMEOUT_MS,
      retryDelaysMs: env.WEBHOOKS_RETRY_SCHEDULE.split(',').map((s) => Math.round(Number(s) * 1000)),
    },
    brandName: env.BRAND_NAME,
    // Outside production a local default keeps links usable; production should set it.
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    brandWhatsapp,
    brandInstagram: env.BRAND_INSTAGRAM ?? null,
    brandFacebook: env.BRAND_FACEBOOK ?? null,
    metricsToken: env.METRICS_TOKEN ?? null,
    backup: {
      dir: env.BACKUP_DIR ? path.resolve(env.BACKUP_DIR) : null,
      keep: env.BACKUP_KEEP,
      intervalMs: env.BACKUP_INTERVAL_HOURS * 3_600_000,
    },
    privacy: {
      dpoName: env.DPO_NAME,
      dpoEmail: env.DPO_EMAIL ?? defaultDpoEmail(env.PUBLIC_URL),
      dpoEmailDefaulted: !env.DPO_EMAIL,
      mailProviderName: env.MAIL_PROVIDER_NAME ?? null,
      retention: {
        leadsMonths: env.RETENTION_LEADS_MONTHS,
        messagesMonths: env.RETENTION_MESSAGES_MONTHS,
        surveyContactMonths: env.RETENTION_SURVEY_CONTACT_MONTHS,
        bookingsMonths: env.RETENTION_BOOKINGS_MONTHS,
      },
    },
    payments: {
      provider: env.PAYMENT_PROVIDER,
      pix:
        env.PAYMENT_PROVIDER === 'pix' && (env.PIX_KEY || !isProduction)
          ? {
              key: env.PIX_KEY ?? DEMO_PIX_KEY,
              merchantName: env.PIX_MERCHANT_NAME ?? env.BRAND_NAME.slice(0, 25),
              merchantCity: env.PIX_MERCHANT_CITY,
              demo: !env.PIX_KEY,
            }
          : null,
      asaas:
        env.PAYMENT_PROVIDER === 'asaas' && env.ASAAS_API_URL && env.ASAAS_API_KEY && env.ASAAS_WEBHOOK_TOKEN
          ? {
              apiUrl: env.ASAAS_API_URL.replace(/\/+$/, ''),
              apiKey: env.ASAAS_API_KEY,
              webhookToken: env.ASAAS_WEBHOOK_TOKEN,
              timeoutMs: env.ASAAS_TIMEOUT_MS,
              pixAutomatico: env.ASAAS_PIX_AUTOMATICO,
            }
          : null,
      pixExpiryMs: env.ENROLMENT_PIX_EXPIRY_HOURS * 3_600_000,
      overdueDays: env.PAYMENT_OVERDUE_DAYS,
    },
  };
}

/** privacidade@ the site's own domain (PUBLIC_URL without "www."); privacidade@localhost outside it. */
export function defaultDpoEmail(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname.replace(/^www\./, '') : 'localhost';
  return `privacidade@${host}`;
}

// Never echo secrets back, even in a start-up error.
function describe(pointer: string, raw: Record<string, unknown>): string {
  const key = pointer.replace(/^\//, '');
  if (!(key in raw)) return 'ausente';
  if (/PASS|SECRET|TOKEN|API_KEY/.test(key)) return '(oculto)';
  return JSON.stringify(raw[key]);
}

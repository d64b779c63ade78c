// The environment is read once, here, and validated by one schema: a bad value stops
// the process at start-up with one message per field instead of failing later.
import { existsSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import Type, { type Static } from 'typebox';
import Value from 'typebox/value';
import { normalizeBrazilianPhone } from './lib/text';

const EnvSchema = Type.Object({
  NODE_ENV: Type.Union([Type.Literal('development'), Type.Literal('production'), Type.Literal('test')], {
    default: 'development',
  }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 3000 }),
  HOST: Type.String({ minLength: 1, default: '0.0.0.0' }),
  DATABASE_URL: Type.Optional(Type.String({ minLength: 1 })),
  UPLOADS_DIR: Type.String({ minLength: 1, default: './data/uploads' }),
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
  // The chain's name as customers read it; the rest of the brand lives in src/brand/.
  BRAND_NAME: Type.String({ minLength: 2, maxLength: 80, default: 'Academia Movimento' }),
  // Absolute links (sitemap, canonical, og:image, QR codes, links in e-mails).
  PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^/\\s]+(/[^\\s]*)?$', maxLength: 200 })),
  // The chain's own WhatsApp (footer, and "Matricule-se" of a unit without one) and social pages.
  BRAND_WHATSAPP: Type.Optional(Type.String({ pattern: '^[0-9+() -]{10,20}$' })),
  BRAND_INSTAGRAM: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$', maxLength: 200 })),
  BRAND_FACEBOOK: Type.Optional(Type.String({ pattern: '^https://[^\\s]+$', maxLength: 200 })),
});

export type Env = Static<typeof EnvSchema>;

export type DatabaseConfig =
  | { engine: 'sqlite'; filename: string }
  | { engine: 'postgres'; connectionString: string; schema?: string };

export interface SmtpConfig {
  host: string;
  port: number;
  user?: string;
  pass?: string;
  secure: 'tls' | 'starttls' | 'none';
}

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  database: DatabaseConfig;
  uploadsDir: string;
  sessionSecret: string;
  smtp: SmtpConfig | null;
  mailFrom: string;
  notificationEmail: string | null;
  franchiseNotificationEmail: string | null;
  /** Passed to Fastify's trustProxy: false, true, a hop count or a list of addresses. */
  trustProxy: boolean | number | string;
  logLevel: string;
  demoSeed: boolean;
  mailWorker: boolean;
  brandName: string;
  /** origin (and optional path prefix) for absolute links, without a trailing slash */
  publicUrl: string;
  /** the chain's WhatsApp as E.164 (+55…), or null */
  brandWhatsapp: string | null;
  brandInstagram: string | null;
  brandFacebook: string | null;
}

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

function parseTrustProxy(value: string): boolean | number | string {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return true;
  if (/^\d+$/.test(v)) return Number(v);
  return value.trim();
}

export function parseDatabaseUrl(url: string | undefined): DatabaseConfig {
  if (!url) return { engine: 'sqlite', filename: path.resolve('data/academia.sqlite') };
  if (/^postgres(ql)?:\/\//i.test(url)) return { engine: 'postgres', connectionString: url };
  if (url.startsWith('sqlite:')) return { engine: 'sqlite', filename: path.resolve(url.slice('sqlite:'.length)) };
  throw new ConfigError([`DATABASE_URL: use postgres://… ou sqlite:caminho/arquivo.sqlite (recebido "${url.split(':')[0]}:…")`]);
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
    (e) => `${e.instancePath.replace(/^\//, '') || 'ambiente'}: ${e.message} (valor atual: ${describe(e.instancePath, raw)})`,
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
  let database: DatabaseConfig | undefined;
  try {
    database = parseDatabaseUrl(env.DATABASE_URL);
  } catch (err) {
    if (err instanceof ConfigError) problems.push(...err.problems);
    else throw err;
  }
  const brandWhatsapp = env.BRAND_WHATSAPP ? normalizeBrazilianPhone(env.BRAND_WHATSAPP) : null;
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
    // Outside production a per-process secret is fine: sessions simply end at restart.
    sessionSecret: env.SESSION_SECRET ?? randomBytes(32).toString('hex'),
    smtp,
    mailFrom: env.MAIL_FROM,
    notificationEmail: env.NOTIFICATION_EMAIL ?? null,
    franchiseNotificationEmail: env.FRANCHISE_NOTIFICATION_EMAIL ?? null,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL,
    demoSeed: env.DEMO_SEED,
    mailWorker: env.MAIL_WORKER,
    brandName: env.BRAND_NAME,
    // Outside production a local default keeps links usable; production should set it.
    publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, ''),
    brandWhatsapp,
    brandInstagram: env.BRAND_INSTAGRAM ?? null,
    brandFacebook: env.BRAND_FACEBOOK ?? null,
  };
}

// Never echo secrets back, even in a start-up error.
function describe(pointer: string, raw: Record<string, unknown>): string {
  const key = pointer.replace(/^\//, '');
  if (!(key in raw)) return 'ausente';
  if (/PASS|SECRET/.test(key)) return '(oculto)';
  return JSON.stringify(raw[key]);
}

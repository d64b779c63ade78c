// Logs: one readable line per event on a terminal (pino-pretty, development only), JSON
// lines otherwise — for the log collector of a production host.
import type { Config } from '../config';

export function loggerOptions(config: Config, isTty = Boolean(process.stdout.isTTY)): object {
  return {
    level: config.logLevel,
    // Cookies carry session ids and CSRF secrets: never log them.
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    // A password-reset link's token must not land in the request log.
    serializers: {
      req: (req: { method: string; url: string; host?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: req.url.replace(/([?&]token=)[^&#]*/g, '$1oculto'),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
    ...(isTty && !config.isProduction
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true },
          },
        }
      : {}),
  };
}

type LogMethod = (...args: unknown[]) => void;
interface ChildCapable {
  child(bindings: object, options?: object): unknown;
  isLevelEnabled(level: string): boolean;
  level: string;
}

/**
 * A request's logger, made a pino child only when something is logged. Fastify makes one
 * child per request; pino serialises its bindings on creation, which cost more than the rest
 * of a small answer's own work (docs/decisions/170). Lines below the level are dropped
 * without a child; lines at or above it go through the real child, with the request id.
 */
class LazyRequestLogger {
  #real: ChildCapable | undefined;
  constructor(
    private readonly parent: ChildCapable,
    private readonly bindings: object,
  ) {}
  private get real(): ChildCapable {
    return (this.#real ??= this.parent.child(this.bindings) as ChildCapable);
  }
  get level(): string {
    return this.#real ? this.#real.level : this.parent.level;
  }
  set level(level: string) {
    this.real.level = level;
  }
  isLevelEnabled(level: string): boolean {
    return this.#real ? this.#real.isLevelEnabled(level) : this.parent.isLevelEnabled(level);
  }
  child(bindings: object, options?: object): unknown {
    return this.real.child(bindings, options);
  }
  #log(level: string, args: unknown[]): void {
    if (this.isLevelEnabled(level)) (this.real as unknown as Record<string, LogMethod>)[level]!(...args);
  }
  fatal(...args: unknown[]) {
    this.#log('fatal', args);
  }
  error(...args: unknown[]) {
    this.#log('error', args);
  }
  warn(...args: unknown[]) {
    this.#log('warn', args);
  }
  info(...args: unknown[]) {
    this.#log('info', args);
  }
  debug(...args: unknown[]) {
    this.#log('debug', args);
  }
  trace(...args: unknown[]) {
    this.#log('trace', args);
  }
  silent() {}
}

/**
 * Fastify's `childLoggerFactory`: the lazy child above. A route with its own log level or
 * serializers gets a real child at once (none has today).
 */
export function lazyChildLogger(logger: ChildCapable, bindings: object, options: object) {
  const { level, serializers } = options as { level?: string; serializers?: object };
  if (level !== undefined || serializers !== undefined) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings);
}

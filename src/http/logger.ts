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
      ? { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname', singleLine: true } } }
      : {}),
  };
}

// Logs: one readable line per event on a terminal (pino-pretty, development only), JSON
// lines otherwise — for the log collector of a production host.
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';
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

/**
 * One line per request, written when the answer is sent: method, address, status, time and
 * the request id ("request errored" with the error when it failed). Fastify's own controller
 * writes two at info ("incoming request" then "request completed", and a third for a 404):
 * the first says nothing the last does not, and each line is a serialisation and a write
 * (docs/decisions/192). The arrival line stays at debug, to find a request that never ends.
 */
export class OneLinePerRequest extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (!this.isLogDisabled(request)) request.log.debug({ req: request }, 'incoming request');
  }
  override routeNotFound(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    if (error)
      reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored');
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}

import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { h } from 'preact';
import { ErrorPage } from '../views/layout';
import { renderPage } from '../views/render';
import { isDbUnavailableError } from '../db/unavailable';

declare module 'fastify' {
  interface FastifyReply {
    /** Sends a rendered page as text/html. */
    page(vnode: VNode<any>, status?: number): FastifyReply;
  }
  interface FastifyContextConfig {
    /** Where the form that posts to this route lives, for the "send again" link on a CSRF refusal. */
    formPath?: string;
  }
}

/** True when the client asked for JSON (search scripts, API clients). */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  title: string,
  message: string,
) {
  if (wantsJson(request))
    return reply.code(status).type('application/json; charset=utf-8').send({ error: title, message });
  return reply.page(h(ErrorPage, { status, title, message }), status);
}

/** An error whose title and pt-BR message may be shown as they are (a user's mistake). */
export interface ShownError extends Error {
  statusCode: number;
  shown: { title: string; message: string };
}
/** A public address whose unit id is malformed (the unit pages, the counted redirects): 400. */
export const badUnitAddress = (request: FastifyRequest, reply: FastifyReply) =>
  sendError(
    request,
    reply,
    400,
    'Endereço inválido',
    'O código da unidade no endereço não é válido. Escolha a unidade na página inicial.',
  );

export function httpError(statusCode: number, title: string, message: string): ShownError {
  return Object.assign(new Error(message), { statusCode, shown: { title, message } });
}

/**
 * The one answer to a refused form (the form kit's error shape): 422 with the same page,
 * values kept and the error summary on top; JSON clients get
 * `{ error, message, errors: { campo: mensagem } }`.
 */
export function sendInvalid(
  request: FastifyRequest,
  reply: FastifyReply,
  errors: Record<string, string>,
  page: () => VNode<any>,
  status = 422,
) {
  reply.header('cache-control', 'no-store');
  if (wantsJson(request)) {
    return reply.code(status).send(invalidBody(errors));
  }
  return reply.page(page(), status);
}

/**
 * The JSON body of a refused form (see sendInvalid), for routes that render their page
 * themselves: always `error` and `message` (docs/interface.md, Errors), plus the fields' `errors`.
 */
export function invalidBody<E extends object>(errors: E, shown: { error?: string; message?: string } = {}) {
  return {
    error: shown.error ?? 'Dados inválidos',
    message: shown.message ?? 'Revise os campos indicados. Nada foi gravado.',
    errors,
  };
}

// Values a database refuses (NUL/bad encoding, out-of-range number, too long for the
// column). The form kit refuses them first; these codes are the net under it, so a
// value that slipped past a form is a 400, never a 500.
const DB_VALUE_CODES = new Set(['22021', '22P05', '22003', '22001', '22P02', '22007', '22008']);

const CSRF_CODES = new Set(['FST_CSRF_MISSING_SECRET', 'FST_CSRF_INVALID_TOKEN']);

/**
 * One error handler for the whole app. User mistakes get a pt-BR 4xx; anything else is
 * a 5xx whose details stay in the log, tagged with the request id.
 */
export default fp(
  async (app) => {
    app.decorateReply('page', function (this: FastifyReply, vnode: VNode<any>, status = 200) {
      return this.code(status).type('text/html; charset=utf-8').send(renderPage(vnode));
    });

    app.setErrorHandler((error: FastifyError, request, reply) => {
      // The database is restarting or unreachable: a transaction never committed, so
      // nothing was stored. Say so and when to retry, instead of a 500.
      if (isDbUnavailableError(error)) {
        request.log.warn({ err: error, reqId: request.id }, 'database unavailable');
        reply.header('retry-after', '5');
        return sendError(
          request,
          reply,
          503,
          'Serviço temporariamente indisponível',
          'Estamos com uma instabilidade passageira e nada foi gravado. Aguarde alguns segundos e envie de novo.',
        );
      }
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;

      if (CSRF_CODES.has(error.code)) {
        const formPath = request.routeOptions.config.formPath ?? request.url.split('?')[0] ?? '/';
        const title = 'Não foi possível confirmar o envio';
        const message =
          'O formulário expirou ou veio sem o código de segurança, então nada foi gravado. Abra o formulário de novo ' +
          'e envie mais uma vez.';
        if (wantsJson(request)) {
          return reply
            .code(403)
            .send(
              invalidBody(
                { _token: 'Token de segurança ausente ou inválido. Recarregue o formulário.' },
                { error: title, message },
              ),
            );
        }
        return reply.page(
          h(ErrorPage, {
            status: 403,
            title,
            message,
            // formPath is a path of ours; Preact escapes it.
            link: { href: formPath, label: 'Abrir o formulário novamente' },
          }),
          403,
        );
      }

      const shown = (error as Partial<ShownError>).shown;
      if (shown && status < 500) return sendError(request, reply, status, shown.title, shown.message);
      if (DB_VALUE_CODES.has(String(error.code))) {
        request.log.warn({ err: error, reqId: request.id }, 'database refused a value');
        return sendError(
          request,
          reply,
          400,
          'Valor inválido',
          'Um dos valores enviados não é aceito. Revise o que foi digitado. Nada foi gravado.',
        );
      }

      if (status >= 500) {
        request.log.error({ err: error, reqId: request.id }, 'request failed');
        return sendError(
          request,
          reply,
          status,
          'Algo deu errado do nosso lado',
          `Tente de novo em instantes. Se o problema continuar, informe o código ${request.id} à equipe.`,
        );
      }

      if (error.validation) {
        return sendError(request, reply, 400, 'Requisição inválida', 'Os parâmetros enviados não são válidos.');
      }
      if (status === 413) {
        return sendError(
          request,
          reply,
          413,
          'Envio grande demais',
          'O envio ultrapassa o tamanho permitido. Nada foi gravado.',
        );
      }
      if (status === 429) {
        return sendError(
          request,
          reply,
          429,
          'Muitas tentativas',
          'Você fez muitas requisições seguidas. Aguarde um pouco e tente de novo.',
        );
      }
      if (status === 415) {
        // Only the routes that take files parse multipart (forms.ts, uploadRoutes).
        const multipartBody = /^multipart\//i.test(String(request.headers['content-type'] ?? ''));
        return sendError(
          request,
          reply,
          415,
          'Formato não suportado',
          multipartBody
            ? 'Este formulário não recebe arquivos: envie-o pela página do site. Nada foi gravado.'
            : 'Esta página recebe apenas formulários (application/x-www-form-urlencoded, ou multipart/form-data ' +
                'quando há fotos). Nada foi gravado.',
        );
      }
      if (status === 400 && /multipart|boundary|Unexpected end of form|Malformed/i.test(error.message)) {
        return sendError(
          request,
          reply,
          400,
          'Envio incompleto',
          'O formulário chegou incompleto ou malformado. Envie de novo pela página do site. Nada foi gravado.',
        );
      }
      return sendError(request, reply, status, 'Requisição inválida', 'Não foi possível atender a esta requisição.');
    });
  },
  { name: 'errors', fastify: '5.x' },
);

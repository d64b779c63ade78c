// GET/POST /pages/Franquia/smtp_test.php: the mail diagnostic (administrators only: the staff
// scope of diagnostic.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { h } from 'preact';
import { invalidBody, wantsJson } from '../../http/errors';
import { echoValue, parseEmail } from '../../lib/form/index';
import {
  mailLibraryInfo,
  runSmtpTest,
  smtpSettings,
  type DiagnosticService,
  type SmtpTestResult,
} from './diagnostic.service';
import { DiagnosticPage, DIAGNOSTIC_PATH } from './diagnostic.view';
import { FormBody } from '../../staff/http';

/** A refused POST's JSON keys (docs/interface.md, Errors): `error` and `message`, and the field's message. */
function refusal(status: number | undefined, toError: string | undefined) {
  if (toError) return invalidBody({ destinatario: toError });
  if (status === 400)
    return { error: 'Ação inválida', message: 'Escolha testar a conexão ou enviar um e-mail de teste.' };
  if (status === 409)
    return {
      error: 'E-mail não configurado',
      message: 'Defina SMTP_HOST e as demais variáveis SMTP para testar o envio.',
    };
  return {};
}

export default async function diagnosticRoutes(app: FastifyInstance, diagnostic: DiagnosticService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  async function render(
    request: FastifyRequest,
    reply: FastifyReply,
    extra: { result?: SmtpTestResult | null; toValue?: string; toError?: string; status?: number } = {},
  ) {
    reply.header('cache-control', 'no-store');
    const props = {
      library: mailLibraryInfo(),
      settings: smtpSettings(app.config),
      outbox: await diagnostic.outboxSummary(),
    };
    if (wantsJson(request)) {
      return reply
        .code(extra.status ?? 200)
        .send({ ...props, result: extra.result ?? null, ...refusal(extra.status, extra.toError) });
    }
    return reply.page(
      h(DiagnosticPage, { staff: request.staffPage, csrfToken: request.staffPage.csrfToken, ...props, ...extra }),
      extra.status ?? 200,
    );
  }

  r.get(DIAGNOSTIC_PATH, async (request, reply) => render(request, reply));

  r.post(
    DIAGNOSTIC_PATH,
    {
      schema: { body: FormBody },
      config: { formPath: DIAGNOSTIC_PATH, rateLimit: { max: 20, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const body = (request.body ?? {}) as Record<string, unknown>;
      const acao = body.acao === 'enviar' ? 'enviar' : body.acao === 'testar' ? 'testar' : null;
      if (!acao) return render(request, reply, { status: 400 });
      if (!app.config.smtp) return render(request, reply, { status: 409 });
      let to: string | undefined;
      if (acao === 'enviar') {
        const parsed = parseEmail(body.destinatario, { required: 'Informe um e-mail válido para receber o teste.' });
        if (!parsed.ok) {
          const typed = echoValue(body.destinatario, { max: 254 }).trim();
          return render(request, reply, {
            toValue: typed,
            toError: 'Informe um e-mail válido para receber o teste.',
            status: 422,
          });
        }
        to = parsed.value;
      }
      request.log.info({ userId: request.staff?.id, acao }, 'smtp diagnostic');
      const result = await runSmtpTest(app.config, acao, to);
      return render(request, reply, { result, toValue: to });
    },
  );
}

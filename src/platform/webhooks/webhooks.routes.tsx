// The admins' webhook screens: /admin/webhooks (list + new), /admin/webhooks/:id (settings,
// test, delete, delivery log), /admin/webhooks/:id/entregas/:sub/reenviar. Guards and CSRF:
// the staff scope (index.ts); form POSTs: src/staff/screens.ts.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { wantsJson } from '../../http/errors';
import { done, FormBody, formValues, IdParams } from '../../staff/http';
import { NotFoundError } from '../../staff/errors';
import { actionPost, formPost, refuse } from '../../staff/screens';
import type { FieldErrors, FormValues } from '../../staff/validation';
import type { WebhooksService } from './webhooks.service';
import { EndpointPage, SecretPage, WEBHOOKS_PATH, WebhooksPage } from './webhooks.view';

const PageQuery = Type.Object({
  ok: Type.Optional(Type.String({ maxLength: 40 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

const eventsOf = (eventos: string) => eventos.split(',').filter(Boolean);
const MISSING = 'Endpoint não encontrado';

export function webhookRoutes(app: FastifyInstance, webhooks: WebhooksService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  /** An endpoint's page (settings form and delivery log); gone → NotFoundError, the scope's 404. */
  async function endpointPage(
    request: FastifyRequest,
    id: number,
    extra: { values?: FormValues; errors?: FieldErrors; notice?: string; page?: string } = {},
  ) {
    const endpoint = await webhooks.endpoint(id);
    if (!endpoint) throw new NotFoundError(MISSING);
    const values = extra.values ?? {
      url: endpoint.url,
      eventos: eventsOf(endpoint.eventos),
      ativo: endpoint.ativo ? '1' : '',
    };
    return (
      <EndpointPage
        staff={request.staffPage}
        id={id}
        ativo={endpoint.ativo}
        desativadoMotivo={endpoint.desativado_motivo}
        values={values}
        errors={extra.errors}
        notice={extra.notice}
        log={await webhooks.log(id, extra.page)}
      />
    );
  }

  r.get(WEBHOOKS_PATH, { schema: { querystring: PageQuery } }, async (request, reply) =>
    reply.page(
      <WebhooksPage
        staff={request.staffPage}
        endpoints={await webhooks.list()}
        values={{ ativo: '1' }}
        notice={request.query.ok}
      />,
    ),
  );

  r.post(WEBHOOKS_PATH, { schema: { body: FormBody }, config: { formPath: WEBHOOKS_PATH } }, async (request, reply) => {
    const result = await webhooks.create(request.body);
    if (!result.ok && result.repeatOf !== undefined) {
      // The same form sent again long after: nothing stored, the secret not shown again.
      const to = result.repeatOf === null ? WEBHOOKS_PATH : `${WEBHOOKS_PATH}/${result.repeatOf}`;
      return done(request, reply, `${to}?ok=repetido`, { id: result.repeatOf, repetido: true });
    }
    if (!result.ok)
      return refuse(request, reply, result.errors, async () => (
        <WebhooksPage
          staff={request.staffPage}
          endpoints={await webhooks.list()}
          values={formValues(request.body)}
          errors={result.errors}
        />
      ));
    // The secret is in this answer only: never kept by a cache, never shown again.
    reply.header('cache-control', 'no-store');
    const status = result.repeat ? 200 : 201;
    if (wantsJson(request))
      return reply.code(status).send({ ok: true, id: result.id, segredo: result.segredo, repetido: result.repeat });
    const url = String(request.body.url ?? '').trim();
    return reply.page(
      <SecretPage staff={request.staffPage} id={result.id} url={url} segredo={result.segredo} />,
      status,
    );
  });

  r.get(`${WEBHOOKS_PATH}/:id`, { schema: { params: IdParams, querystring: PageQuery } }, async (request, reply) =>
    reply.page(
      await endpointPage(request, request.params.id, { notice: request.query.ok, page: request.query.pagina }),
    ),
  );

  formPost(app, `${WEBHOOKS_PATH}/:id`, {
    missing: MISSING,
    save: async ({ params, body }) => {
      const result = await webhooks.update(params.id, body);
      if ('missing' in result) return null;
      return result.ok ? { ok: true, value: null } : result;
    },
    // The page as it was (state, delivery log), with what was typed and the messages.
    refused: ({ request, params, body }, errors) =>
      endpointPage(request, params.id, { values: formValues(body), errors }),
    saved: (_value, { params: { id } }) => ({ to: `${WEBHOOKS_PATH}/${id}?ok=salvo`, data: { id } }),
  });

  actionPost(app, `${WEBHOOKS_PATH}/:id/teste`, {
    missing: MISSING,
    act: ({ params, body }) => webhooks.sendTest(params.id, body),
    saved: (entrega, { params: { id } }) => ({ to: `${WEBHOOKS_PATH}/${id}?ok=teste`, data: { entrega } }),
  });

  actionPost(app, `${WEBHOOKS_PATH}/:id/excluir`, {
    missing: MISSING,
    act: async ({ params }) => ((await webhooks.remove(params.id)) ? true : null),
    saved: () => ({ to: `${WEBHOOKS_PATH}?ok=excluido` }),
  });

  actionPost(app, `${WEBHOOKS_PATH}/:id/entregas/:sub/reenviar`, {
    params: 'sub',
    missing: 'Entrega não encontrada (ou sendo enviada agora)',
    act: async ({ params }) => ((await webhooks.resend(params.id, params.sub)) ? true : null),
    saved: (_value, { params: { id } }) => ({ to: `${WEBHOOKS_PATH}/${id}?ok=reenvio` }),
  });
}

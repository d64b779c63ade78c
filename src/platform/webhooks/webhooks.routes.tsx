// The admins' webhook screens: /admin/webhooks (list + new), /admin/webhooks/:id (settings,
// test, delete, delivery log), /admin/webhooks/:id/entregas/:sub/reenviar.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { done, FormBody, formValues, IdParams, IdSubParams, notFound, sendInvalid, staffProps } from '../../staff/http';
import type { FieldErrors, FormValues } from '../../staff/validation';
import type { WebhooksService } from './webhooks.service';
import { EndpointPage, SecretPage, WEBHOOKS_PATH, WebhooksPage } from './webhooks.view';

const PageQuery = Type.Object({
  ok: Type.Optional(Type.String({ maxLength: 40 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});

const eventsOf = (eventos: string) => eventos.split(',').filter(Boolean);

export function webhookRoutes(app: FastifyInstance, webhooks: WebhooksService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };

  async function listPage(request: FastifyRequest, reply: FastifyReply, notice?: string) {
    return reply.page(
      <WebhooksPage
        staff={staffProps(request, reply)}
        endpoints={await webhooks.list()}
        values={{ ativo: '1' }}
        notice={notice}
      />,
    );
  }

  async function endpointPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: { values?: FormValues; errors?: FieldErrors; notice?: string; page?: string } = {},
    status = 200,
  ) {
    const endpoint = await webhooks.endpoint(id);
    if (!endpoint) return notFound(request, reply, 'Endpoint não encontrado');
    const values = extra.values ?? {
      url: endpoint.url,
      eventos: eventsOf(endpoint.eventos),
      ativo: endpoint.ativo ? '1' : '',
    };
    return reply.page(
      <EndpointPage
        staff={staffProps(request, reply)}
        id={id}
        ativo={endpoint.ativo}
        desativadoMotivo={endpoint.desativado_motivo}
        values={values}
        errors={extra.errors}
        notice={extra.notice}
        log={await webhooks.log(id, extra.page)}
      />,
      status,
    );
  }

  r.get(WEBHOOKS_PATH, { ...admin, schema: { querystring: PageQuery } }, async (request, reply) =>
    listPage(request, reply, request.query.ok),
  );

  r.post(
    WEBHOOKS_PATH,
    { ...adminPost, schema: { body: FormBody }, config: { formPath: WEBHOOKS_PATH } },
    async (request, reply) => {
      const result = await webhooks.create(request.body);
      if (!result.ok && result.repeatOf !== undefined) {
        // The same form sent again long after: nothing stored, the secret not shown again.
        const to = result.repeatOf === null ? WEBHOOKS_PATH : `${WEBHOOKS_PATH}/${result.repeatOf}`;
        return done(request, reply, `${to}?ok=repetido`, { id: result.repeatOf, repetido: true });
      }
      if (!result.ok) {
        const endpoints = await webhooks.list();
        return sendInvalid(request, reply, result.errors, () => (
          <WebhooksPage
            staff={staffProps(request, reply)}
            endpoints={endpoints}
            values={formValues(request.body)}
            errors={result.errors}
          />
        ));
      }
      // The secret is in this answer only: never kept by a cache, never shown again.
      reply.header('cache-control', 'no-store');
      if (request.headers.accept?.includes('application/json') && !request.headers.accept.includes('text/html'))
        return reply
          .code(result.repeat ? 200 : 201)
          .send({ ok: true, id: result.id, segredo: result.segredo, repetido: result.repeat });
      const url = String(request.body.url ?? '').trim();
      return reply.page(
        <SecretPage staff={staffProps(request, reply)} id={result.id} url={url} segredo={result.segredo} />,
        result.repeat ? 200 : 201,
      );
    },
  );

  r.get(
    `${WEBHOOKS_PATH}/:id`,
    { ...admin, schema: { params: IdParams, querystring: PageQuery } },
    async (request, reply) =>
      endpointPage(request, reply, request.params.id, { notice: request.query.ok, page: request.query.pagina }),
  );

  r.post(
    `${WEBHOOKS_PATH}/:id`,
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      const result = await webhooks.update(id, request.body);
      if (!result.ok) {
        if ('missing' in result) return notFound(request, reply, 'Endpoint não encontrado');
        // The page as it was (state, delivery log), with what was typed and the messages.
        const endpoint = await webhooks.endpoint(id);
        if (!endpoint) return notFound(request, reply, 'Endpoint não encontrado');
        const log = await webhooks.log(id, undefined);
        return sendInvalid(request, reply, result.errors, () => (
          <EndpointPage
            staff={staffProps(request, reply)}
            id={id}
            ativo={endpoint.ativo}
            desativadoMotivo={endpoint.desativado_motivo}
            values={formValues(request.body)}
            errors={result.errors}
            log={log}
          />
        ));
      }
      return done(request, reply, `${WEBHOOKS_PATH}/${id}?ok=salvo`, { id });
    },
  );

  r.post(
    `${WEBHOOKS_PATH}/:id/teste`,
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const deliveryId = await webhooks.sendTest(request.params.id, request.body);
      if (deliveryId === null) return notFound(request, reply, 'Endpoint não encontrado');
      return done(request, reply, `${WEBHOOKS_PATH}/${request.params.id}?ok=teste`, { entrega: deliveryId });
    },
  );

  r.post(
    `${WEBHOOKS_PATH}/:id/excluir`,
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      if (!(await webhooks.remove(request.params.id))) return notFound(request, reply, 'Endpoint não encontrado');
      return done(request, reply, `${WEBHOOKS_PATH}?ok=excluido`);
    },
  );

  r.post(
    `${WEBHOOKS_PATH}/:id/entregas/:sub/reenviar`,
    { ...adminPost, schema: { params: IdSubParams, body: FormBody } },
    async (request, reply) => {
      const { id, sub } = request.params;
      if (!(await webhooks.resend(id, sub)))
        return notFound(request, reply, 'Entrega não encontrada (ou sendo enviada agora)');
      return done(request, reply, `${WEBHOOKS_PATH}/${id}?ok=reenvio`);
    },
  );
}

// Admin pages of privacy compliance: the consents screen (look up, revoke) and the
// incident register (list, create, edit, CSV). Admins only; never cached.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { invalidBody, wantsJson } from '../../http/errors';
import { csvStream } from '../../lib/csv';
import { saoPauloDay } from '../../lib/time';
import { done, FormBody, formValues, IdParams, NoticeQuery, notFound, staffProps } from '../../staff/http';
import type { FieldErrors } from '../../staff/validation';
import { ConsentsPage } from './consent-admin.view';
import { parseContact } from './consent.service';
import { CONSENTS_PATH, IncidentFormPage, IncidentsListPage, INCIDENTS_PATH, incidentValues } from './incidents.view';
import type { PrivacyServices } from './services';

const ListQuery = Type.Object({
  ok: Type.Optional(Type.String({ maxLength: 40 })),
  pagina: Type.Optional(Type.String({ maxLength: 10 })),
});
const ConsentQuery = Type.Object({
  contato: Type.Optional(Type.String({ maxLength: 2000 })),
  ok: Type.Optional(Type.String({ maxLength: 40 })),
});

export function complianceRoutes(app: FastifyInstance, s: Pick<PrivacyServices, 'consents' | 'incidents'>) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };

  function invalid(request: FastifyRequest, reply: FastifyReply, errors: FieldErrors, render: () => unknown) {
    if (wantsJson(request)) return reply.code(422).send(invalidBody(errors));
    return render();
  }

  // ---- consents ----

  r.get(CONSENTS_PATH, { ...admin, schema: { querystring: ConsentQuery } }, async (request, reply) => {
    const contato = (request.query.contato ?? '').trim();
    const notice =
      request.query.ok === 'revogado'
        ? 'Consentimento revogado: nenhuma resposta por e-mail nem lembrete será enviado a este contato.'
        : undefined;
    if (!contato) return reply.page(<ConsentsPage staff={staffProps(request, reply)} contato="" rows={null} />);
    const parsed = parseContact(contato);
    if (!parsed.ok) {
      const errors = { contato: parsed.error };
      return invalid(request, reply, errors, () =>
        reply.page(
          <ConsentsPage staff={staffProps(request, reply)} contato={contato} rows={null} errors={errors} />,
          422,
        ),
      );
    }
    const rows = await s.consents.lookup(parsed.contact);
    if (wantsJson(request)) return reply.send({ consentimentos: rows });
    return reply.page(
      <ConsentsPage staff={staffProps(request, reply)} contato={contato} rows={rows} notice={notice} />,
    );
  });

  r.post(
    `${CONSENTS_PATH}/revogar`,
    { ...adminPost, schema: { body: FormBody }, config: { formPath: CONSENTS_PATH } },
    async (request, reply) => {
      const contato = typeof request.body.contato === 'string' ? request.body.contato.trim() : '';
      const parsed = parseContact(contato);
      if (!parsed.ok) {
        const errors = { contato: parsed.error };
        return invalid(request, reply, errors, () =>
          reply.page(
            <ConsentsPage staff={staffProps(request, reply)} contato={contato} rows={null} errors={errors} />,
            422,
          ),
        );
      }
      const revogados = await s.consents.revoke(parsed.contact, request.staff!.id);
      return done(request, reply, `${CONSENTS_PATH}?contato=${encodeURIComponent(contato)}&ok=revogado`, {
        revogados,
      });
    },
  );

  // ---- incidents ----

  r.get(INCIDENTS_PATH, { ...admin, schema: { querystring: ListQuery } }, async (request, reply) => {
    const { info, rows } = await s.incidents.page(request.query.pagina);
    if (wantsJson(request))
      return reply.send({ total: info.total, pagina: info.page, paginas: info.pages, itens: rows });
    const list = { ...info, path: INCIDENTS_PATH, q: '' };
    return reply.page(
      <IncidentsListPage staff={staffProps(request, reply)} rows={rows} list={list} notice={request.query.ok} />,
    );
  });

  r.get(`${INCIDENTS_PATH}.csv`, admin, async (request, reply) => {
    const { header, rows } = s.incidents.exportRows();
    request.log.info({ userId: request.staff!.id, export: 'incidentes' }, 'csv export');
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="incidentes-${saoPauloDay()}.csv"`);
    return reply.send(csvStream(header, rows));
  });

  r.get(`${INCIDENTS_PATH}/novo`, admin, async (request, reply) =>
    reply.page(<IncidentFormPage staff={staffProps(request, reply)} values={{}} />),
  );

  r.post(
    `${INCIDENTS_PATH}/novo`,
    { ...adminPost, schema: { body: FormBody }, config: { formPath: `${INCIDENTS_PATH}/novo` } },
    async (request, reply) => {
      const result = await s.incidents.create(request.staff!.id, request.body);
      if (!result.ok) {
        return invalid(request, reply, result.errors, () =>
          reply.page(
            <IncidentFormPage
              staff={staffProps(request, reply)}
              values={formValues(request.body)}
              errors={result.errors}
            />,
            422,
          ),
        );
      }
      return done(request, reply, `${INCIDENTS_PATH}/${result.id}?ok=criado`, { id: result.id });
    },
  );

  r.get(
    `${INCIDENTS_PATH}/:id`,
    { ...admin, schema: { params: IdParams, querystring: NoticeQuery } },
    async (request, reply) => {
      const incident = await s.incidents.get(request.params.id);
      if (!incident) return notFound(request, reply, 'Incidente não encontrado');
      if (wantsJson(request)) return reply.send(incident);
      return reply.page(
        <IncidentFormPage
          staff={staffProps(request, reply)}
          incident={incident}
          values={incidentValues(incident)}
          notice={request.query.ok}
        />,
      );
    },
  );

  r.post(
    `${INCIDENTS_PATH}/:id`,
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      const incident = await s.incidents.get(id);
      if (!incident) return notFound(request, reply, 'Incidente não encontrado');
      const result = await s.incidents.update(request.staff!.id, id, request.body);
      if (!result) return notFound(request, reply, 'Incidente não encontrado');
      if (!result.ok) {
        return invalid(request, reply, result.errors, () =>
          reply.page(
            <IncidentFormPage
              staff={staffProps(request, reply)}
              incident={incident}
              values={formValues(request.body)}
              errors={result.errors}
            />,
            422,
          ),
        );
      }
      return done(request, reply, `${INCIDENTS_PATH}/${id}?ok=salvo`, { id });
    },
  );
}

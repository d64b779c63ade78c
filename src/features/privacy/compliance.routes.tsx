// Admin pages of privacy compliance: the consents screen (look up, revoke) and the
// incident register (list, create, edit, CSV). Admins only; never cached (the staff scope,
// compliance.ts).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { wantsJson } from '../../http/errors';
import { saoPauloDay } from '../../lib/time';
import { done, FormBody, formValues, IdParams, NoticeQuery, notFound } from '../../staff/http';
import { ListQuery } from '../../staff/list';
import { sendCsvExport } from '../../staff/reports';
import { staffOf } from '../../staff/scope';
import { formPost, refuse } from '../../staff/screens';
import { ConsentsPage } from './consent-admin.view';
import { parseContact } from './consent.service';
import { CONSENTS_PATH, IncidentFormPage, IncidentsListPage, INCIDENTS_PATH, incidentValues } from './incidents.view';
import type { PrivacyServices } from './services';

// `ok` and `pagina` as the other staff pages take them (staff/list.ts ListQuery).
const IncidentsQuery = Type.Object({ ok: ListQuery.properties.ok, pagina: ListQuery.properties.pagina });
const ConsentQuery = Type.Object({
  contato: Type.Optional(Type.String({ maxLength: 2000 })),
  ok: ListQuery.properties.ok,
});

export function complianceRoutes(app: FastifyInstance, s: Pick<PrivacyServices, 'consents' | 'incidents'>) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();

  // ---- consents ----

  r.get(CONSENTS_PATH, { schema: { querystring: ConsentQuery } }, async (request, reply) => {
    const contato = (request.query.contato ?? '').trim();
    const notice =
      request.query.ok === 'revogado'
        ? 'Consentimento revogado: nenhuma resposta por e-mail nem lembrete será enviado a este contato.'
        : undefined;
    if (!contato) return reply.page(<ConsentsPage staff={request.staffPage} contato="" rows={null} />);
    const parsed = parseContact(contato);
    if (!parsed.ok) {
      const errors = { contato: parsed.error };
      return refuse(request, reply, errors, () => (
        <ConsentsPage staff={request.staffPage} contato={contato} rows={null} errors={errors} />
      ));
    }
    const rows = await s.consents.lookup(parsed.contact);
    if (wantsJson(request)) return reply.send({ consentimentos: rows });
    return reply.page(<ConsentsPage staff={request.staffPage} contato={contato} rows={rows} notice={notice} />);
  });

  r.post(
    `${CONSENTS_PATH}/revogar`,
    { schema: { body: FormBody }, config: { formPath: CONSENTS_PATH } },
    async (request, reply) => {
      const contato = typeof request.body.contato === 'string' ? request.body.contato.trim() : '';
      const parsed = parseContact(contato);
      if (!parsed.ok) {
        const errors = { contato: parsed.error };
        return refuse(request, reply, errors, () => (
          <ConsentsPage staff={request.staffPage} contato={contato} rows={null} errors={errors} />
        ));
      }
      const revogados = await s.consents.revoke(parsed.contact, staffOf(request).id);
      return done(request, reply, `${CONSENTS_PATH}?contato=${encodeURIComponent(contato)}&ok=revogado`, {
        revogados,
      });
    },
  );

  // ---- incidents ----

  r.get(INCIDENTS_PATH, { schema: { querystring: IncidentsQuery } }, async (request, reply) => {
    const { info, rows } = await s.incidents.page(request.query.pagina);
    if (wantsJson(request))
      return reply.send({ total: info.total, pagina: info.page, paginas: info.pages, itens: rows });
    const list = { ...info, path: INCIDENTS_PATH, q: '' };
    return reply.page(
      <IncidentsListPage staff={request.staffPage} rows={rows} list={list} notice={request.query.ok} />,
    );
  });

  r.get(`${INCIDENTS_PATH}.csv`, async (request, reply) => {
    const csv = s.incidents.exportRows();
    return sendCsvExport(request, reply, { name: 'incidentes', file: `incidentes-${saoPauloDay()}` }, csv);
  });

  r.get(`${INCIDENTS_PATH}/novo`, async (request, reply) =>
    reply.page(<IncidentFormPage staff={request.staffPage} values={{}} />),
  );

  /** An incident saved: its id; a refusal: the field errors. */
  const saved = (result: { ok: true; id: number } | { ok: false; errors: Record<string, string> }) =>
    result.ok ? { ok: true as const, value: result.id } : result;
  formPost(app, `${INCIDENTS_PATH}/novo`, {
    params: 'none',
    formPath: `${INCIDENTS_PATH}/novo`,
    save: async ({ actor, body }) => saved(await s.incidents.create(actor.id, body)),
    refused: ({ request, body }, errors) => (
      <IncidentFormPage staff={request.staffPage} values={formValues(body)} errors={errors} />
    ),
    saved: (id) => ({ to: `${INCIDENTS_PATH}/${id}?ok=criado`, data: { id } }),
  });

  r.get(`${INCIDENTS_PATH}/:id`, { schema: { params: IdParams, querystring: NoticeQuery } }, async (request, reply) => {
    const incident = await s.incidents.get(request.params.id);
    if (!incident) return notFound(request, reply, 'Incidente não encontrado');
    if (wantsJson(request)) return reply.send(incident);
    return reply.page(
      <IncidentFormPage
        staff={request.staffPage}
        incident={incident}
        values={incidentValues(incident)}
        notice={request.query.ok}
      />,
    );
  });

  formPost(app, `${INCIDENTS_PATH}/:id`, {
    load: ({ id }) => s.incidents.get(id),
    missing: 'Incidente não encontrado',
    save: async ({ actor, params, body }) => {
      const result = await s.incidents.update(actor.id, params.id, body);
      return result && saved(result);
    },
    refused: ({ request, record, body }, errors) => (
      <IncidentFormPage staff={request.staffPage} incident={record} values={formValues(body)} errors={errors} />
    ),
    saved: (id) => ({ to: `${INCIDENTS_PATH}/${id}?ok=salvo`, data: { id } }),
  });
}

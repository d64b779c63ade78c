// The survey report (NPS by period, unit and category), its CSV export and one answer's page.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { OptionalDay, OptionalId, privatePage, sendCsvExport, visibleUnits as unitsOf } from '../../../staff/reports';
import { resolvePeriod, type ResponseListFilter } from './nps';
import type { SurveyReportService } from './report.service';
import { REPORT_PATH, SurveyReportPage, SurveyResponsePage } from './report.view';
import { listWithExport, recordPage, unitRecord } from '../staff-pages';
import { staffOf } from '../../../staff/scope';
import { FormBody, IdParams } from '../../../staff/http';

const ReportQuery = Type.Object({
  unidade_id: OptionalId,
  de: OptionalDay,
  ate: OptionalDay,
  categoria: Type.Optional(
    Type.Union([
      Type.Literal(''),
      Type.Literal('promotores'),
      Type.Literal('neutros'),
      Type.Literal('detratores'),
      Type.Literal('pendentes'),
    ]),
  ),
  pagina: OptionalId,
});

export async function reportRoutes(app: FastifyInstance, report: SurveyReportService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const visibleUnits = (request: Parameters<typeof unitsOf>[0]) => unitsOf(request, () => report.allUnits());
  const responseOf = unitRecord(report.response, (d) => d.header.unidade_id, [
    'Resposta não encontrada',
    'Esta resposta não existe.',
  ]);

  listWithExport(app, {
    path: REPORT_PATH,
    query: ReportQuery,
    async page(request, reply, q, scope) {
      const period = resolvePeriod(q.de, q.ate);
      const categoria = (q.categoria || undefined) as ResponseListFilter | undefined;
      const data = await report.report({ unitIds: scope.unitIds, period, categoria, page: q.pagina });
      privatePage(reply);
      return reply.page(
        h(SurveyReportPage, {
          staff: request.staffPage,
          units: await visibleUnits(request),
          filters: { unidade_id: q.unidade_id ?? '', categoria: categoria ?? '', period },
          report: data,
        }),
      );
    },
    async csv(request, reply, q, scope) {
      const period = resolvePeriod(q.de, q.ate);
      const csv = await report.exportRows({
        unitIds: scope.unitIds,
        period,
        categoria: (q.categoria || undefined) as ResponseListFilter | undefined,
      });
      return sendCsvExport(
        request,
        reply,
        {
          name: 'pesquisa',
          filters: { ...q, de: period.de, ate: period.ate },
          file: `pesquisa-${period.de}-a-${period.ate}`,
        },
        csv,
      );
    },
  });

  r.get(
    `${REPORT_PATH}/resposta/:id`,
    {
      schema: { params: IdParams, querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 1 })) }) },
    },
    async (request, reply) => {
      const detail = await responseOf(request, reply, request.params.id);
      if (!detail) return reply;
      return recordPage(request, reply, SurveyResponsePage, {
        detail,
        saved: (request.query as { salvo?: string }).salvo === '1',
      });
    },
  );

  r.post(
    `${REPORT_PATH}/resposta/:id/tratada`,
    {
      schema: { params: IdParams, body: FormBody },
    },
    async (request, reply) => {
      const id = Number(request.params.id);
      if (!(await responseOf(request, reply, id))) return reply;
      await report.markHandled(id, staffOf(request).id);
      return reply.redirect(`${REPORT_PATH}/resposta/${id}?salvo=1`, 303);
    },
  );
}

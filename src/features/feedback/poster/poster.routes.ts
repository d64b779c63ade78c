// The printable QR poster of a unit's survey and its SVG download.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { h } from 'preact';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../../../http/errors';
import { canAccessUnit } from '../../../staff/access';
import { privatePage, unitForbidden } from '../../../staff/reports';
import { IdParams } from '../../../staff/http';
import type { SurveyReportService } from '../survey/report.service';
import { qrSvg } from '../../../lib/qr';
import { surveyUrl } from './poster.service';
import { POSTER_PATH, PosterPage } from './poster.view';
import { staffOf } from '../../../staff/scope';

export async function posterRoutes(app: FastifyInstance, report: SurveyReportService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  /** The unit of a poster/kiosk route, or an answer already sent (404/403). */
  async function unitFor(request: FastifyRequest, reply: FastifyReply, id: number) {
    const unit = await report.activeUnit(id);
    if (!unit) {
      await sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe ou não está ativa.');
      return null;
    }
    if (!canAccessUnit(staffOf(request), unit.id)) {
      await unitForbidden(request, reply);
      return null;
    }
    return unit;
  }

  r.get(`${POSTER_PATH}/:id`, { schema: { params: IdParams } }, async (request, reply) => {
    const unit = await unitFor(request, reply, Number(request.params.id));
    if (!unit) return reply;
    const url = surveyUrl(app.config.publicUrl, unit.id, 'cartaz');
    privatePage(reply);
    return reply.page(h(PosterPage, { brandName: app.config.brandName, unit, url, svg: await qrSvg(url) }));
  });

  r.get(`${POSTER_PATH}/:id/qr.svg`, { schema: { params: IdParams } }, async (request, reply) => {
    const unit = await unitFor(request, reply, Number(request.params.id));
    if (!unit) return reply;
    privatePage(reply);
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('content-disposition', `attachment; filename="qr-pesquisa-unidade-${unit.id}.svg"`)
      .send(await qrSvg(surveyUrl(app.config.publicUrl, unit.id, 'cartaz')));
  });
}

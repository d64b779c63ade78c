// GET /ir/:acao — count a call to action, then send the visitor on (302). The target comes
// from the catalog, never from the request. GET /admin/cliques — the staff report.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { badUnitAddress, sendError } from '../../http/errors';
import { privatePage, unitForbidden } from '../../staff/reports';
import { staffOf } from '../../staff/scope';
import { brand } from '../../brand/index';
import { ctaTarget, isCtaAction, TRIAL_CLASS_PATH } from './cta';
import type { CtaService } from './cta.service';
import { CLICKS_PATH, ClicksPage } from './cta.view';
import { parseInteger, queryId, toId } from '../../lib/form/index';

const GoQuery = Type.Object({
  unidade: Type.Optional(Type.String({ maxLength: 20 })),
  plano: Type.Optional(Type.String({ maxLength: 20 })),
});
const ReportQuery = Type.Object({
  unidade_id: Type.Optional(Type.String({ maxLength: 20 })),
  semanas: Type.Optional(Type.String({ maxLength: 20 })),
  q: Type.Optional(Type.String({ maxLength: 100 })),
  pagina: Type.Optional(Type.String({ maxLength: 20 })),
});

/** Public: the counted redirects (no session, no cookie). */
export function ctaRoutes(app: FastifyInstance, service: CtaService) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  // The booking page is another feature's: known once every route is registered.
  let bookingAvailable = false;
  app.addHook('onReady', async () => {
    bookingAvailable = app.hasRoute({ method: 'GET', url: TRIAL_CLASS_PATH });
  });

  r.get(
    '/ir/:acao',
    { schema: { params: Type.Object({ acao: Type.String() }), querystring: GoQuery }, attachValidation: true },
    async (request, reply) => {
      const { acao } = request.params;
      if (!isCtaAction(acao)) return sendError(request, reply, 404, 'Página não encontrada', 'Este link não existe.');
      const unitId = request.validationError ? null : queryId(request.query.unidade);
      const rawPlan = request.validationError ? undefined : request.query.plano;
      const planId = rawPlan === undefined || rawPlan === '' ? null : queryId(rawPlan);
      if (unitId === null || (rawPlan && planId === null)) return badUnitAddress(request, reply);
      const snap = await app.catalog.snapshot();
      const unit = snap.unitsById.get(unitId);
      if (!unit)
        return sendError(
          request,
          reply,
          404,
          'Unidade não encontrada',
          'Esta unidade não existe ou não está mais em funcionamento.',
        );
      // A plan only counts (and only goes into the message) when this unit offers it.
      const plan =
        planId !== null && snap.unitsByPlan.get(planId)?.some((u) => u.id === unitId)
          ? (snap.plansById.get(planId) ?? null)
          : null;
      // "Matricule-se" opens the online enrolment where the unit sells online; WhatsApp elsewhere.
      const online = acao === 'matricula' && (await app.enrolmentUnits()).has(unitId);
      const target = online
        ? `/matricula?unidade=${unitId}${plan ? `&plano=${plan.id}` : ''}`
        : ctaTarget(acao, unit, plan, brand().whatsappDigits, bookingAvailable);
      if (!target)
        return sendError(
          request,
          reply,
          404,
          'Indisponível',
          `A ${unit.nome} não oferece este contato no momento. Veja a página da unidade.`,
        );
      // HEAD (link checkers, previews) is not a click. A failed insert never blocks the visitor.
      if (request.method === 'GET') {
        await service.record(unitId, acao, plan ? plan.id : null, (err) =>
          request.log.warn({ err }, 'could not count a call-to-action click'),
        );
      }
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex');
      return reply.redirect(target, 302);
    },
  );
}

/** Staff: the clicks report (for a staff scope: index.ts). */
export function ctaStaffRoutes(service: CtaService) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();
    r.get(CLICKS_PATH, { schema: { querystring: ReportQuery }, attachValidation: true }, async (request, reply) => {
      // The form kit reads the filters: a bad unit id, week count or page falls back to the
      // defaults; a query the schema refuses (too long, repeated) is read as no filter at all.
      const query = request.validationError ? {} : request.query;
      const weeksParsed = parseInteger(query.semanas ?? '', 1, 99, 8);
      const report = await service.report(staffOf(request), {
        unit: toId(query.unidade_id),
        weeks: weeksParsed.ok ? weeksParsed.value : NaN,
        q: (query.q ?? '').trim(),
        pagina: query.pagina,
      });
      if (report === 'forbidden') return unitForbidden(request, reply);
      privatePage(reply);
      return reply.page(h(ClicksPage, { staff: request.staffPage, report }));
    });
  };
}

// The staff start page: the attention queue and the units' tools.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { QueryValue } from '../../http/params';
import { unitScope } from '../../staff/access';
import type { AttentionService } from './attention.service';
import { homeQueue, toolUnits } from './home.service';
import { HOME_PATH, StaffHomePage } from './home.view';
import { privatePage, unitForbidden, visibleUnits as unitsOf } from '../../staff/reports';
import type { SurveyReportService } from './survey/report.service';
import { staffOf } from '../../staff/scope';

const HomeQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 100 })), pagina: QueryValue });

export async function homeRoutes(
  app: FastifyInstance,
  { attention, report }: { attention: AttentionService; report: SurveyReportService },
) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const visibleUnits = (request: Parameters<typeof unitsOf>[0]) => unitsOf(request, () => report.allUnits());

  r.get(HOME_PATH, { schema: { querystring: HomeQuery }, attachValidation: true }, async (request, reply) => {
    const scope = unitScope(staffOf(request), null);
    if (scope.forbidden) return unitForbidden(request, reply);
    // The tools filter: a value the schema refuses (too long, repeated) is read as none.
    const q = request.validationError ? {} : request.query;
    const now = new Date();
    const queue = homeQueue(await attention.queue(scope.unitIds, now));
    privatePage(reply);
    const units = (await visibleUnits(request)).filter((u) => u.ativo === 1);
    const tools = toolUnits(units, (q.q ?? '').trim(), q.pagina);
    return reply.page(h(StaffHomePage, { staff: request.staffPage, queue, now, tools }));
  });
}

// The prices and terms of the plans a unit offers. Registered in a per-unit staff scope:
// admins reach any unit, a manager only their own (another unit's id is 403, as on the
// timetable); login, CSRF and the 404/403 pages come from the scope (src/staff/).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formValues, IdParams, IdSubParams, notFound } from '../../../staff/http';
import { ListQuery, listPage } from '../../../staff/list';
import { formPost } from '../../../staff/screens';
import type { ContentServices } from '../services';
import { periodLabel } from '../units/units.service';
import { planPriceValues } from './plan-prices.service';
import { PlanPriceFormPage, PlanPricesPage, planPricesPath } from './plan-prices.view';

const NOT_OFFERED = 'Plano não encontrado nesta unidade';

export function planPriceRoutes(scope: FastifyInstance, s: ContentServices) {
  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  const base = '/admin/conteudo/unidades/:id/planos';

  r.get(base, { schema: { params: IdParams, querystring: ListQuery } }, async (request, reply) => {
    const data = await s.planPrices.unitPlans(request.params.id);
    if (!data) return notFound(request, reply, 'Unidade não encontrada');
    const { items, list } = listPage(
      data.plans,
      request.query,
      planPricesPath(data.unit.id),
      (p) => `${p.nome} ${periodLabel(p.periodicidade)}`,
    );
    return reply.page(
      <PlanPricesPage staff={request.staffPage} unit={data.unit} plans={items} list={list} notice={request.query.ok} />,
    );
  });

  r.get(`${base}/:sub`, { schema: { params: IdSubParams } }, async (request, reply) => {
    const data = await s.planPrices.get(request.params.id, request.params.sub);
    if (!data) return notFound(request, reply, NOT_OFFERED);
    return reply.page(
      <PlanPriceFormPage
        staff={request.staffPage}
        unit={data.unit}
        plan={data.plan}
        values={planPriceValues(data.plan)}
      />,
    );
  });

  formPost(scope, `${base}/:sub`, {
    params: 'sub',
    load: ({ id, sub }) => s.planPrices.get(id, sub),
    missing: NOT_OFFERED,
    save: ({ actor, params, body }) => s.planPrices.update(actor, params.id, params.sub, body),
    refused: ({ request, record, body }, errors) => (
      <PlanPriceFormPage
        staff={request.staffPage}
        unit={record.unit}
        plan={record.plan}
        values={formValues(body)}
        errors={errors}
      />
    ),
    saved: (_value, { params }) => ({
      to: `${planPricesPath(params.id)}?ok=salvo`,
      data: { unidade_id: params.id, plano_id: params.sub },
    }),
  });
}

// The admins' page of the payment provider (/admin/pagamentos) and its one action: process
// again an event that failed for good.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { h } from 'preact';
import { rawString } from '../../lib/form/index';
import { FormBody, NoticeQuery } from '../../staff/http';
import { staffScope } from '../../staff/scope';
import type { ProviderPaymentsService } from './provider.service';
import { PROVIDER_PATH, ProviderPage } from './provider.view';

const NOTICES: Record<string, string> = {
  reprocessar: 'O evento volta para a fila e é processado em instantes.',
  nada: 'Nada mudou: o evento já não estava com falha.',
};

export function providerStaffRoutes(app: FastifyInstance, { payments }: { payments: ProviderPaymentsService }) {
  staffScope(app, { role: 'admin', noStore: true }, (scope) => {
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();
    r.get(PROVIDER_PATH, { schema: { querystring: NoticeQuery } }, async (request, reply) => {
      const overview = await payments.overview();
      return reply.page(
        h(ProviderPage, { staff: request.staffPage, ...overview, notice: NOTICES[request.query.ok ?? ''] }),
      );
    });
    r.post(`${PROVIDER_PATH}/eventos/reprocessar`, { schema: { body: FormBody } }, async (request, reply) => {
      const done = await payments.retryEvent(rawString(request.body.id).slice(0, 200));
      return reply.redirect(`${PROVIDER_PATH}?ok=${done ? 'reprocessar' : 'nada'}`, 303);
    });
  });
}

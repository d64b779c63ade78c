// Staff routes of enrolments (/admin/matriculas): a manager sees and acts on their units'
// enrolments only; the contract's versions are edited by admins.
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { sendError } from '../../http/errors';
import { csvStream } from '../../db/csv/index';
import { rawString, toId } from '../../lib/form/index';
import { saoPauloDay } from '../../lib/time';
import { FormBody, IdSubParams, IdParams, NoticeQuery } from '../../staff/http';
import { staffOf, staffScope } from '../../staff/scope';
import { accessibleUnits } from '../../staff/access';
import type { EnrolmentStaffService } from './staff.service';
import { EXPORT_HEADER } from './staff.service';
import {
  CONTRACT_PATH,
  ContractPage,
  ContractVersionPage,
  detailPath,
  EnrolmentDetailPage,
  EnrolmentListPage,
  STAFF_PATH,
} from './staff.view';

const Filter = Type.Object({
  unidade_id: Type.Optional(Type.String({ maxLength: 20 })),
  status: Type.Optional(Type.String({ maxLength: 40 })),
  de: Type.Optional(Type.String({ maxLength: 20 })),
  ate: Type.Optional(Type.String({ maxLength: 20 })),
  pagina: Type.Optional(Type.String({ maxLength: 20 })),
});
const errors = {
  notFound: { title: 'Matrícula não encontrada', message: 'Esta matrícula não existe. Volte para a lista.' },
  forbidden: { title: 'Acesso negado', message: 'Esta unidade não está entre as unidades da sua conta.' },
};

export function enrolmentStaffRoutes(
  app: FastifyInstance,
  {
    staff: service,
    now,
    units,
  }: { staff: EnrolmentStaffService; now: () => Date; units: () => Promise<{ id: number; nome: string }[]> },
) {
  const params = (q: { unidade_id?: string; status?: string; de?: string; ate?: string; pagina?: string }) => ({
    ...q,
    unidade_id: q.unidade_id ? (toId(q.unidade_id) ?? -1) : null,
  });

  staffScope(app, { role: 'staff', noStore: true, errors }, (scope) => {
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();

    r.get(STAFF_PATH, { schema: { querystring: Filter } }, async (request, reply) => {
      const q = request.query;
      const p = params(q);
      if (p.unidade_id === -1) return sendError(request, reply, 400, 'Filtro inválido', 'Escolha a unidade na lista.');
      const list = await service.list(staffOf(request), p);
      return reply.page(
        h(EnrolmentListPage, {
          staff: request.staffPage,
          units: accessibleUnits(staffOf(request), await units()),
          filter: { unidade_id: q.unidade_id ?? '', status: q.status ?? '', de: q.de ?? '', ate: q.ate ?? '' },
          rows: list.rows,
          window: list.window,
          refunds: list.refunds,
          now: now(),
        }),
      );
    });

    r.get(`${STAFF_PATH}.csv`, { schema: { querystring: Filter } }, async (request, reply) => {
      const p = params(request.query);
      if (p.unidade_id === -1) return sendError(request, reply, 400, 'Filtro inválido', 'Escolha a unidade na lista.');
      const rows = service.exportRows(staffOf(request), p);
      request.log.info({ userId: staffOf(request).id, export: 'matriculas', filters: request.query }, 'csv export');
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="matriculas-${saoPauloDay(now())}.csv"`);
      return reply.send(csvStream(EXPORT_HEADER, rows));
    });

    r.get(`${STAFF_PATH}/:id`, { schema: { params: IdParams, querystring: NoticeQuery } }, async (request, reply) => {
      const d = await service.detail(staffOf(request), toId(request.params.id) ?? 0);
      return reply.page(h(EnrolmentDetailPage, { staff: request.staffPage, ...d, notice: request.query.ok }));
    });

    const act = (
      path: string,
      notice: string,
      run: (staff: ReturnType<typeof staffOf>, id: number, sub: number) => Promise<boolean>,
    ) =>
      r.post(path, { schema: { params: IdSubParams, body: FormBody } }, async (request, reply) => {
        const id = toId(request.params.id) ?? 0;
        const done = await run(staffOf(request), id, toId(request.params.sub) ?? 0);
        return reply.redirect(`${detailPath(id)}?ok=${done ? notice : 'nada'}`, 303);
      });
    act(`${STAFF_PATH}/:id/pagamentos/:sub/confirmar`, 'pagamento', (staff, id, sub) =>
      service.confirmPayment(staff, id, sub, now()),
    );
    act(`${STAFF_PATH}/:id/pagamentos/:sub/reembolso`, 'reembolso', (staff, id, sub) =>
      service.registerRefund(staff, id, sub, now()),
    );

    r.post(`${STAFF_PATH}/:id/recepcao`, { schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
      const id = toId(request.params.id) ?? 0;
      const done = await service.markFrontDesk(staffOf(request), id, now());
      return reply.redirect(`${detailPath(id)}?ok=${done ? 'recepcao' : 'nada'}`, 303);
    });
  });

  staffScope(app, { role: 'admin', noStore: true, errors }, (scope) => {
    const r = scope.withTypeProvider<TypeBoxTypeProvider>();
    const page = async (
      staffPage: Parameters<typeof ContractPage>[0]['staff'],
      extra: { text?: string; error?: string; saved?: number | null },
    ) => {
      const versions = await service.contractVersions();
      return h(ContractPage, {
        staff: staffPage,
        versions,
        text: extra.text ?? versions[0]?.texto ?? '',
        error: extra.error,
        saved: extra.saved,
      });
    };

    r.get(
      CONTRACT_PATH,
      { schema: { querystring: Type.Object({ salvo: Type.Optional(Type.String({ maxLength: 10 })) }) } },
      async (request, reply) => reply.page(await page(request.staffPage, { saved: toId(request.query.salvo ?? '') })),
    );
    r.post(CONTRACT_PATH, { schema: { body: FormBody } }, async (request, reply) => {
      const text = rawString(request.body.texto);
      const result = await service.saveContract(staffOf(request).id, text, now());
      if (!result.ok)
        return reply.page(await page(request.staffPage, { text: text.slice(0, 60_000), error: result.error }), 422);
      return reply.redirect(`${CONTRACT_PATH}?salvo=${result.versao}`, 303);
    });
    r.get(`${CONTRACT_PATH}/:id`, { schema: { params: IdParams } }, async (request, reply) => {
      const version = await service.contractVersion(toId(request.params.id) ?? 0);
      if (!version)
        return sendError(request, reply, 404, 'Versão não encontrada', 'Esta versão do contrato não existe.');
      return reply.page(h(ContractVersionPage, { staff: request.staffPage, version }));
    });
  });
}

// Content hub and unit screens (admin only, except the hub, which shows a manager the
// timetables they may edit).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { formatPhone as formatBrazilianPhone } from '../../../lib/form/index';
import { scopeUnits } from '../../identity/access';
import {
  done,
  FormBody,
  formValues,
  IdParams,
  NoticeQuery,
  notFound,
  sendInvalid,
  staffProps,
} from '../../../staff/http';
import type { FormValues } from '../../../staff/validation';
import type { ContentServices } from '../services';
import { ListQuery, listPage } from '../../../staff/list';
import { isPlanSearch } from './units.service';
import { ContentHome, UnitFormPage, UnitsListPage } from './units.view';

type UnitSnapshot = NonNullable<Awaited<ReturnType<ContentServices['units']['get']>>>;

export function unitValues(u: UnitSnapshot): FormValues {
  const v: FormValues = {
    nome: u.nome,
    slug: u.slug,
    cidade: u.cidade,
    uf: u.uf,
    bairro: u.bairro,
    endereco: u.endereco,
    cep: u.cep ?? '',
    telefone: u.telefone ? formatBrazilianPhone(u.telefone) : '',
    whatsapp: u.whatsapp ? formatBrazilianPhone(u.whatsapp) : '',
    email: u.email ?? '',
    latitude: u.latitude === null ? '' : String(u.latitude),
    longitude: u.longitude === null ? '' : String(u.longitude),
    descricao: u.descricao ?? '',
    beneficio_nome: u.beneficio_nome ?? '',
    beneficio_url: u.beneficio_url ?? '',
    areas: u.areaIds.map(String),
    modalidades: u.modalityIds.map(String),
    planos: u.planIds.map(String),
  };
  for (const h of u.hours) {
    v[`abre_${h.dia_semana}`] = h.abre;
    v[`fecha_${h.dia_semana}`] = h.fecha;
  }
  return v;
}

export function unitRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };

  r.get('/admin/conteudo', { preHandler: [app.requireStaff] }, async (request, reply) => {
    const staff = request.staff!;
    const mine = scopeUnits(staff);
    const units = mine === null ? [] : await s.units.listByIds(mine);
    return reply.page(<ContentHome staff={staffProps(request, reply)} units={units} />);
  });

  r.get('/admin/conteudo/unidades', { ...admin, schema: { querystring: ListQuery } }, async (request, reply) => {
    const { items, list } = listPage(
      await s.units.list(),
      request.query,
      '/admin/conteudo/unidades',
      (u) => `${u.nome} ${u.bairro} ${u.cidade} ${u.uf}`,
    );
    return reply.page(
      <UnitsListPage staff={staffProps(request, reply)} units={items} list={list} notice={request.query.ok} />,
    );
  });

  r.get('/admin/conteudo/unidades/nova', admin, async (request, reply) => {
    return reply.page(
      <UnitFormPage
        staff={staffProps(request, reply)}
        unit={null}
        values={{}}
        options={await s.units.formOptions([])}
      />,
    );
  });

  // The plan search re-shows the form as sent (nothing saved, nothing typed lost).
  r.post(
    '/admin/conteudo/unidades/nova',
    { ...adminPost, schema: { body: FormBody }, config: { formPath: '/admin/conteudo/unidades/nova' } },
    async (request, reply) => {
      if (isPlanSearch(request.body)) {
        return reply.page(
          <UnitFormPage
            staff={staffProps(request, reply)}
            unit={null}
            values={formValues(request.body)}
            options={await s.units.formOptions([], request.body)}
            searched
          />,
        );
      }
      const result = await s.units.create({ id: request.staff!.id }, request.body);
      if (!result.ok) {
        const options = await s.units.formOptions([], request.body);
        return sendInvalid(request, reply, result.errors, () => (
          <UnitFormPage
            staff={staffProps(request, reply)}
            unit={null}
            values={formValues(request.body)}
            errors={result.errors}
            options={options}
          />
        ));
      }
      return done(request, reply, `/admin/conteudo/unidades/${result.value.id}?ok=criado`, { id: result.value.id });
    },
  );

  r.get(
    '/admin/conteudo/unidades/:id',
    { ...admin, schema: { params: IdParams, querystring: NoticeQuery } },
    async (request, reply) => {
      const unit = await s.units.get(request.params.id);
      if (!unit) return notFound(request, reply, 'Unidade não encontrada');
      return reply.page(
        <UnitFormPage
          staff={staffProps(request, reply)}
          unit={unit}
          values={unitValues(unit)}
          options={await s.units.formOptions(unit.planIds)}
          notice={request.query.ok}
        />,
      );
    },
  );

  r.post(
    '/admin/conteudo/unidades/:id',
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const unit = await s.units.get(request.params.id);
      if (!unit) return notFound(request, reply, 'Unidade não encontrada');
      if (isPlanSearch(request.body)) {
        return reply.page(
          <UnitFormPage
            staff={staffProps(request, reply)}
            unit={unit}
            values={formValues(request.body)}
            options={await s.units.formOptions(unit.planIds, request.body)}
            searched
          />,
        );
      }
      const result = await s.units.update({ id: request.staff!.id }, unit.id, request.body);
      if (!result.ok) {
        const options = await s.units.formOptions(unit.planIds, request.body);
        return sendInvalid(request, reply, result.errors, () => (
          <UnitFormPage
            staff={staffProps(request, reply)}
            unit={unit}
            values={formValues(request.body)}
            errors={result.errors}
            options={options}
          />
        ));
      }
      return done(request, reply, `/admin/conteudo/unidades/${unit.id}?ok=salvo`, { id: unit.id });
    },
  );

  r.post(
    '/admin/conteudo/unidades/:id/ativo',
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: '/admin/conteudo/unidades' } },
    async (request, reply) => {
      const unit = await s.units.get(request.params.id);
      if (!unit) return notFound(request, reply, 'Unidade não encontrada');
      const active = request.body.ativo === '1';
      await s.units.setActive({ id: request.staff!.id }, unit.id, active);
      return done(request, reply, `/admin/conteudo/unidades/${unit.id}?ok=${active ? 'ativado' : 'desativado'}`, {
        ativo: active,
      });
    },
  );
}

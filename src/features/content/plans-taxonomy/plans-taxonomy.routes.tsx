// Plans, areas and modalities screens (admin only).
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import {
  PlanFormPage,
  PlansListPage,
  TAXONOMY_LABELS,
  TaxonomyFormPage,
  TaxonomyListPage,
} from './plans-taxonomy.view';
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
import type { ContentServices } from '../services';
import { ListQuery, listPage } from '../../../staff/list';
import { PERIODS } from '../../../staff/validation';

const centsToInput = (c: number) => (c / 100).toFixed(2).replace('.', ',');

export function catalogContentRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };

  // ---------- plans ----------
  r.get('/admin/conteudo/planos', { ...admin, schema: { querystring: ListQuery } }, async (request, reply) => {
    const period = (v: string) => PERIODS.find((p) => p.value === v)?.label ?? v;
    const { items, list } = listPage(
      await s.plans.list(),
      request.query,
      '/admin/conteudo/planos',
      (p) => `${p.nome} ${period(p.periodicidade)}`,
    );
    return reply.page(
      <PlansListPage staff={staffProps(request, reply)} plans={items} list={list} notice={request.query.ok} />,
    );
  });
  r.get('/admin/conteudo/planos/novo', admin, async (request, reply) =>
    reply.page(
      <PlanFormPage
        staff={staffProps(request, reply)}
        plan={null}
        values={{ periodicidade: 'mensal' }}
        units={await s.units.list()}
      />,
    ),
  );
  r.post(
    '/admin/conteudo/planos/novo',
    { ...adminPost, schema: { body: FormBody }, config: { formPath: '/admin/conteudo/planos/novo' } },
    async (request, reply) => {
      const result = await s.plans.create({ id: request.staff!.id }, request.body);
      if (!result.ok) {
        const units = await s.units.list();
        return sendInvalid(request, reply, result.errors, () => (
          <PlanFormPage
            staff={staffProps(request, reply)}
            plan={null}
            values={formValues(request.body)}
            errors={result.errors}
            units={units}
          />
        ));
      }
      return done(request, reply, `/admin/conteudo/planos/${result.value.id}?ok=criado`, { id: result.value.id });
    },
  );
  r.get(
    '/admin/conteudo/planos/:id',
    { ...admin, schema: { params: IdParams, querystring: NoticeQuery } },
    async (request, reply) => {
      const plan = await s.plans.get(request.params.id);
      if (!plan) return notFound(request, reply, 'Plano não encontrado');
      const values = {
        nome: plan.nome,
        descricao: plan.descricao ?? '',
        preco: centsToInput(plan.preco_centavos),
        periodicidade: plan.periodicidade,
        ordem: String(plan.ordem),
        unidades: plan.unidadeIds.map(String),
      };
      return reply.page(
        <PlanFormPage
          staff={staffProps(request, reply)}
          plan={plan}
          values={values}
          units={await s.units.list()}
          notice={request.query.ok}
        />,
      );
    },
  );
  r.post(
    '/admin/conteudo/planos/:id',
    { ...adminPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const plan = await s.plans.get(request.params.id);
      if (!plan) return notFound(request, reply, 'Plano não encontrado');
      const result = await s.plans.update({ id: request.staff!.id }, plan.id, request.body);
      if (!result.ok) {
        const units = await s.units.list();
        return sendInvalid(request, reply, result.errors, () => (
          <PlanFormPage
            staff={staffProps(request, reply)}
            plan={plan}
            values={formValues(request.body)}
            errors={result.errors}
            units={units}
          />
        ));
      }
      return done(request, reply, `/admin/conteudo/planos/${plan.id}?ok=salvo`, { id: plan.id });
    },
  );
  r.post(
    '/admin/conteudo/planos/:id/ativo',
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: '/admin/conteudo/planos' } },
    async (request, reply) => {
      const plan = await s.plans.get(request.params.id);
      if (!plan) return notFound(request, reply, 'Plano não encontrado');
      const active = request.body.ativo === '1';
      await s.plans.setActive({ id: request.staff!.id }, plan.id, active);
      return done(request, reply, `/admin/conteudo/planos/${plan.id}?ok=${active ? 'ativado' : 'desativado'}`, {
        ativo: active,
      });
    },
  );

  // ---------- areas and modalities ----------
  for (const kind of ['area', 'modalidade'] as const) {
    const service = kind === 'area' ? s.areas : s.modalities;
    const base = `/admin/conteudo/${TAXONOMY_LABELS[kind].path}`;
    const missing = kind === 'area' ? 'Área não encontrada' : 'Modalidade não encontrada';

    r.get(base, { ...admin, schema: { querystring: ListQuery } }, async (request, reply) => {
      const { items, list } = listPage(await service.list(), request.query, base, (i) => i.nome);
      return reply.page(
        <TaxonomyListPage
          staff={staffProps(request, reply)}
          kind={kind}
          items={items}
          list={list}
          notice={request.query.ok}
        />,
      );
    });
    r.get(`${base}/nova`, admin, async (request, reply) =>
      reply.page(
        <TaxonomyFormPage
          staff={staffProps(request, reply)}
          kind={kind}
          item={null}
          values={{}}
          units={await s.units.list()}
        />,
      ),
    );
    r.post(
      `${base}/nova`,
      { ...adminPost, schema: { body: FormBody }, config: { formPath: `${base}/nova` } },
      async (request, reply) => {
        const result = await service.create({ id: request.staff!.id }, request.body);
        if (!result.ok) {
          const units = await s.units.list();
          return sendInvalid(request, reply, result.errors, () => (
            <TaxonomyFormPage
              staff={staffProps(request, reply)}
              kind={kind}
              item={null}
              values={formValues(request.body)}
              errors={result.errors}
              units={units}
            />
          ));
        }
        return done(request, reply, `${base}/${result.value.id}?ok=criado`, { id: result.value.id });
      },
    );
    r.get(
      `${base}/:id`,
      { ...admin, schema: { params: IdParams, querystring: NoticeQuery } },
      async (request, reply) => {
        const item = await service.get(request.params.id);
        if (!item) return notFound(request, reply, missing);
        const values = {
          nome: item.nome,
          descricao: ('descricao' in item ? item.descricao : null) ?? '',
          unidades: item.unidadeIds.map(String),
        };
        return reply.page(
          <TaxonomyFormPage
            staff={staffProps(request, reply)}
            kind={kind}
            item={item}
            values={values}
            units={await s.units.list()}
            notice={request.query.ok}
          />,
        );
      },
    );
    r.post(
      `${base}/:id`,
      { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: base } },
      async (request, reply) => {
        const item = await service.get(request.params.id);
        if (!item) return notFound(request, reply, missing);
        const result = await service.update({ id: request.staff!.id }, item.id, request.body);
        if (!result.ok) {
          const units = await s.units.list();
          return sendInvalid(request, reply, result.errors, () => (
            <TaxonomyFormPage
              staff={staffProps(request, reply)}
              kind={kind}
              item={item}
              values={formValues(request.body)}
              errors={result.errors}
              units={units}
            />
          ));
        }
        return done(request, reply, `${base}/${item.id}?ok=salvo`, { id: item.id });
      },
    );
    r.post(
      `${base}/:id/ativo`,
      { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: base } },
      async (request, reply) => {
        const item = await service.get(request.params.id);
        if (!item) return notFound(request, reply, missing);
        const active = request.body.ativo === '1';
        await service.setActive({ id: request.staff!.id }, item.id, active);
        return done(request, reply, `${base}/${item.id}?ok=${active ? 'ativado' : 'desativado'}`, { ativo: active });
      },
    );
  }
}

// Survey questions and options (admin only).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { invalidBody, wantsJson } from '../../../http/errors';
import {
  done,
  FormBody,
  formValues,
  IdParams,
  IdSubParams,
  NoticeQuery,
  notFound,
  staffProps,
} from '../../../staff/http';
import type { ContentServices } from '../services';
import { ListQuery, listPage } from '../../../staff/list';
import { QuestionEditPage, QuestionNewPage, QuestionsListPage, type QuestionEditProps } from './survey-questions.view';
import type { FieldErrors, FormValues } from '../../../staff/validation';

export function surveyQuestionsRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const admin = { preHandler: [app.requireAdmin] };
  const adminPost = { preHandler: [app.requireAdmin, app.csrfProtection] };
  const base = '/admin/conteudo/perguntas';

  async function editPage(
    request: FastifyRequest,
    reply: FastifyReply,
    id: number,
    extra: Partial<
      Pick<QuestionEditProps, 'values' | 'errors' | 'optionValues' | 'optionErrors' | 'optionEdit' | 'notice'>
    > = {},
    status = 200,
  ) {
    const q = await s.survey.get(id);
    if (!q) return notFound(request, reply, 'Pergunta não encontrada');
    const values: FormValues = extra.values ?? {
      texto: q.texto,
      ordem: String(q.ordem),
      obrigatoria: q.obrigatoria ? '1' : '',
    };
    return reply.page(
      <QuestionEditPage
        staff={staffProps(request, reply)}
        question={q}
        values={values}
        optionValues={extra.optionValues ?? {}}
        {...extra}
      />,
      status,
    );
  }
  function invalid(request: FastifyRequest, reply: FastifyReply, errors: FieldErrors, render: () => Promise<unknown>) {
    if (wantsJson(request)) return reply.code(422).send(invalidBody(errors));
    return render();
  }

  r.get(base, { ...admin, schema: { querystring: ListQuery } }, async (request, reply) => {
    const { items, list } = listPage(await s.survey.list(), request.query, base, (q) => q.texto);
    return reply.page(
      <QuestionsListPage staff={staffProps(request, reply)} questions={items} list={list} notice={request.query.ok} />,
    );
  });
  r.get(`${base}/nova`, admin, async (request, reply) =>
    reply.page(<QuestionNewPage staff={staffProps(request, reply)} values={{ obrigatoria: '1' }} />),
  );
  r.post(
    `${base}/nova`,
    { ...adminPost, schema: { body: FormBody }, config: { formPath: `${base}/nova` } },
    async (request, reply) => {
      const result = await s.survey.create({ id: request.staff!.id }, request.body);
      if (!result.ok) {
        return invalid(request, reply, result.errors, async () =>
          reply.page(
            <QuestionNewPage
              staff={staffProps(request, reply)}
              values={formValues(request.body)}
              errors={result.errors}
            />,
            422,
          ),
        );
      }
      return done(request, reply, `${base}/${result.value.id}?ok=criado`, { id: result.value.id });
    },
  );
  r.get(`${base}/:id`, { ...admin, schema: { params: IdParams, querystring: NoticeQuery } }, async (request, reply) =>
    editPage(request, reply, request.params.id, { notice: request.query.ok }),
  );
  r.post(`${base}/:id`, { ...adminPost, schema: { params: IdParams, body: FormBody } }, async (request, reply) => {
    const id = request.params.id;
    if (!(await s.survey.get(id))) return notFound(request, reply, 'Pergunta não encontrada');
    const result = await s.survey.update({ id: request.staff!.id }, id, request.body);
    if (!result.ok)
      return invalid(request, reply, result.errors, () =>
        editPage(request, reply, id, { values: formValues(request.body), errors: result.errors }, 422),
      );
    return done(request, reply, `${base}/${id}?ok=salvo`, { id });
  });
  r.post(
    `${base}/:id/ativo`,
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: base } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await s.survey.get(id))) return notFound(request, reply, 'Pergunta não encontrada');
      const active = request.body.ativo === '1';
      await s.survey.setActive({ id: request.staff!.id }, id, active);
      return done(request, reply, `${base}/${id}?ok=${active ? 'ativado' : 'desativado'}`, { ativo: active });
    },
  );
  r.post(
    `${base}/:id/excluir`,
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: base } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await s.survey.get(id))) return notFound(request, reply, 'Pergunta não encontrada');
      const outcome = await s.survey.remove({ id: request.staff!.id }, id);
      return done(request, reply, outcome === 'excluida' ? `${base}?ok=excluida` : `${base}/${id}?ok=desativada`, {
        resultado: outcome,
      });
    },
  );

  // ---------- options ----------
  r.post(
    `${base}/:id/opcoes`,
    { ...adminPost, schema: { params: IdParams, body: FormBody }, config: { formPath: base } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await s.survey.get(id))) return notFound(request, reply, 'Pergunta não encontrada');
      const result = await s.survey.addOption({ id: request.staff!.id }, id, request.body);
      if (!result.ok)
        return invalid(request, reply, result.errors, () =>
          editPage(request, reply, id, { optionValues: formValues(request.body), optionErrors: result.errors }, 422),
        );
      return done(request, reply, `${base}/${id}?ok=criado`, { id: result.value.id });
    },
  );
  r.post(
    `${base}/:id/opcoes/:sub`,
    { ...adminPost, schema: { params: IdSubParams, body: FormBody }, config: { formPath: base } },
    async (request, reply) => {
      const { id, sub } = request.params;
      const q = await s.survey.get(id);
      if (!q?.opcoes.some((o) => o.id === sub)) return notFound(request, reply, 'Opção não encontrada');
      const result = await s.survey.updateOption({ id: request.staff!.id }, id, sub, request.body);
      if (!result.ok)
        return invalid(request, reply, result.errors, () =>
          editPage(
            request,
            reply,
            id,
            { optionEdit: { id: sub, values: formValues(request.body), errors: result.errors } },
            422,
          ),
        );
      return done(request, reply, `${base}/${id}?ok=salvo`, { id: sub });
    },
  );
  r.post(
    `${base}/:id/opcoes/:sub/ativo`,
    { ...adminPost, schema: { params: IdSubParams, body: FormBody }, config: { formPath: base } },
    async (request, reply) => {
      const { id, sub } = request.params;
      const q = await s.survey.get(id);
      if (!q?.opcoes.some((o) => o.id === sub)) return notFound(request, reply, 'Opção não encontrada');
      const active = request.body.ativo === '1';
      await s.survey.setOptionActive({ id: request.staff!.id }, id, sub, active);
      return done(request, reply, `${base}/${id}?ok=${active ? 'ativado' : 'desativado'}`, { ativo: active });
    },
  );
  r.post(
    `${base}/:id/opcoes/:sub/excluir`,
    { ...adminPost, schema: { params: IdSubParams, body: FormBody }, config: { formPath: base } },
    async (request, reply) => {
      const { id, sub } = request.params;
      const q = await s.survey.get(id);
      if (!q?.opcoes.some((o) => o.id === sub)) return notFound(request, reply, 'Opção não encontrada');
      const outcome = await s.survey.removeOption({ id: request.staff!.id }, id, sub);
      return done(request, reply, `${base}/${id}?ok=${outcome}`, { resultado: outcome });
    },
  );
}

// Survey questions and options (admin only). Guards, CSRF and the list/edit/activate routes:
// src/staff/; the options' forms post to the question's page.
import type { FastifyInstance } from 'fastify';
import { formValues } from '../../../staff/http';
import { actionPost, activated, formPost, isActivation, recordScreens, type ScreenForm } from '../../../staff/screens';
import type { ContentServices } from '../services';
import { QuestionEditPage, QuestionNewPage, QuestionsListPage, type QuestionEditProps } from './survey-questions.view';

export const QUESTIONS_PATH = '/admin/conteudo/perguntas';
type Question = NonNullable<Awaited<ReturnType<ContentServices['survey']['get']>>>;
/** The edit page's option forms, shown again with their errors. */
type QuestionForm = ScreenForm<Question> &
  Partial<Pick<QuestionEditProps, 'optionValues' | 'optionErrors' | 'optionEdit'>>;

export function surveyQuestionsRoutes(app: FastifyInstance, s: ContentServices) {
  const base = QUESTIONS_PATH;
  const screens = recordScreens(app, {
    base,
    missing: 'Pergunta não encontrada',
    service: s.survey,
    list: {
      text: (q) => q.texto,
      page: ({ items, ...p }) => <QuestionsListPage {...p} questions={items} />,
    },
    values: (q) => ({ texto: q.texto, ordem: String(q.ordem), obrigatoria: q.obrigatoria ? '1' : '' }),
    blank: { obrigatoria: '1' },
    form: ({ item, ...form }: QuestionForm) =>
      item ? (
        <QuestionEditPage {...form} question={item} optionValues={form.optionValues ?? {}} />
      ) : (
        <QuestionNewPage {...form} />
      ),
  });
  const question = ({ id }: { id: number }) => s.survey.get(id);
  /** The question, when the option `sub` is one of its own. */
  const withOption = async ({ id, sub }: { id: number; sub: number }) => {
    const q = await s.survey.get(id);
    return q?.opcoes.some((o) => o.id === sub) ? q : null;
  };

  actionPost(app, `${base}/:id/excluir`, {
    formPath: base,
    load: question,
    missing: 'Pergunta não encontrada',
    act: ({ actor, params }) => s.survey.remove(actor, params.id),
    saved: (outcome, { params: { id } }) => ({
      to: outcome === 'excluida' ? `${base}?ok=excluida` : `${base}/${id}?ok=desativada`,
      data: { resultado: outcome },
    }),
  });

  // ---------- options ----------
  formPost(app, `${base}/:id/opcoes`, {
    formPath: base,
    load: question,
    missing: 'Pergunta não encontrada',
    save: ({ actor, params, body }) => s.survey.addOption(actor, params.id, body),
    refused: ({ request, record, body }, errors) =>
      screens.form(request, record, { optionValues: formValues(body), optionErrors: errors }),
    saved: (option, { params: { id } }) => ({ to: `${base}/${id}?ok=criado`, data: { id: option.id } }),
  });
  formPost(app, `${base}/:id/opcoes/:sub`, {
    params: 'sub',
    formPath: base,
    load: withOption,
    missing: 'Opção não encontrada',
    save: ({ actor, params, body }) => s.survey.updateOption(actor, params.id, params.sub, body),
    refused: ({ request, record, params, body }, errors) =>
      screens.form(request, record, { optionEdit: { id: params.sub, values: formValues(body), errors } }),
    saved: (_value, { params: { id, sub } }) => ({ to: `${base}/${id}?ok=salvo`, data: { id: sub } }),
  });
  actionPost(app, `${base}/:id/opcoes/:sub/ativo`, {
    params: 'sub',
    formPath: base,
    load: withOption,
    missing: 'Opção não encontrada',
    act: ({ actor, params, body }) => s.survey.setOptionActive(actor, params.id, params.sub, isActivation(body)),
    saved: (_value, { params: { id }, body }) => activated(`${base}/${id}`, body),
  });
  actionPost(app, `${base}/:id/opcoes/:sub/excluir`, {
    params: 'sub',
    formPath: base,
    load: withOption,
    missing: 'Opção não encontrada',
    act: ({ actor, params }) => s.survey.removeOption(actor, params.id, params.sub),
    saved: (outcome, { params: { id } }) => ({ to: `${base}/${id}?ok=${outcome}`, data: { resultado: outcome } }),
  });
}

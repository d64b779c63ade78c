// Rules for the survey's questions and options. A question or option that already has
// answers is deactivated, never deleted, so stored responses keep their meaning.
import { type ActiveRecord, change, type ContentDeps, switchActive } from '../shared/change';
import { NotFoundError } from '../../../staff/errors';
import { type Actor, auditRow } from '../../audit/audit.repository';
import * as v from '../../../staff/validation';
import type { FieldErrors, Result } from '../../../staff/validation';

const checked = (body: Record<string, unknown>, k: string) => (v.field(body, k) === '1' ? 1 : 0);

export function parseQuestionForm(body: Record<string, unknown>, creating: boolean) {
  const e: FieldErrors = {};
  const texto = v.requiredText(e, 'texto', v.field(body, 'texto'), 'o texto da pergunta', 500);
  const tipo = v.field(body, 'tipo');
  if (creating && !v.QUESTION_TYPES.some((t) => t.value === tipo)) e.tipo = 'Escolha o tipo da pergunta.';
  const ordem = v.integerIn(e, 'ordem', v.field(body, 'ordem'), 0, 999, 0);
  const obrigatoria = checked(body, 'obrigatoria');
  // New option lists come as one option per line.
  const opcoes = (v.optionalLongText(e, 'opcoes', v.field(body, 'opcoes'), 20_000) ?? '')
    .split('\n')
    .map((o) => o.trim())
    .filter(Boolean);
  if (creating && tipo === 'opcoes') {
    if (opcoes.length < 2) e.opcoes = 'Informe pelo menos duas opções, uma por linha.';
    else if (opcoes.some((o) => o.length > 200)) e.opcoes = 'Cada opção pode ter no máximo 200 caracteres.';
    else if (new Set(opcoes).size !== opcoes.length) e.opcoes = 'Há opções repetidas.';
  }
  return v.hasErrors(e)
    ? ({ ok: false, errors: e } as const)
    : ({ ok: true, value: { texto, tipo, ordem, obrigatoria, opcoes } } as const);
}

export function parseOptionForm(
  body: Record<string, unknown>,
): Result<{ texto: string; valor: number | null; ordem: number }> {
  const e: FieldErrors = {};
  const texto = v.requiredText(e, 'texto', v.field(body, 'texto'), 'o texto da opção', 200);
  const valorRaw = v.field(body, 'valor').trim();
  const valor = valorRaw ? v.integerIn(e, 'valor', valorRaw, -1000, 1000, 0) : null;
  const ordem = v.integerIn(e, 'ordem', v.field(body, 'ordem'), 0, 999, 0);
  return v.hasErrors(e) ? { ok: false, errors: e } : { ok: true, value: { texto, valor, ordem } };
}

const QUESTION: ActiveRecord = {
  entidade: 'pergunta',
  find: (repo, id) => repo.findQuestion(id),
  set: (repo, id, ativo) => repo.setQuestionActive(id, ativo),
};
/** An option of one question (another question's option is not found). */
const optionOf = (questionId: number): ActiveRecord => ({
  entidade: 'opcao',
  find: (repo, id) => repo.findOption(questionId, id),
  set: (repo, id, ativo) => repo.setOptionActive(id, ativo),
});

type Removal = 'excluida' | 'desativada';
type Work = Parameters<Parameters<typeof change<Removal>>[2]>;

/** Why a removal only deactivated: the audit row's `motivo`. */
const ANSWERED_REASON: Record<string, string> = {
  pergunta: 'a pergunta tem respostas',
  opcao: 'a opção tem respostas',
};

/**
 * Deletes a question or an option nobody answered; one with answers is deactivated instead
 * (see the top of this file), its audit row saying why.
 */
async function removeUnanswered(
  at: { repo: Work[0]; audit: Work[1]; now: string },
  record: ActiveRecord,
  id: number,
  before: { ativo: number },
  answered: boolean,
  remove: () => Promise<unknown>,
): Promise<Removal> {
  if (answered) {
    await record.set(at.repo, id, 0, at.now);
    const motivo = ANSWERED_REASON[record.entidade];
    await at.audit(auditRow('desativar', record.entidade, id, { ativo: before.ativo }, { ativo: 0, motivo }));
    return 'desativada';
  }
  await remove();
  await at.audit(auditRow('excluir', record.entidade, id, before, null));
  return 'excluida';
}

export function createSurveyQuestionsService(deps: ContentDeps) {
  const read = deps.repos.content;
  async function snapshot(repo: typeof read, id: number) {
    const q = await repo.findQuestion(id);
    return q ? { ...q, opcoes: await repo.listOptions(id) } : null;
  }
  // The survey is not part of the public catalog snapshot: no catalog invalidation needed.
  const survey = <T>(actor: Actor, work: Parameters<typeof change<T>>[2]) => change<T>(deps, actor, work, false);

  return {
    list: () => read.listQuestions(),
    async get(id: number) {
      const q = await snapshot(read, id);
      if (!q) return null;
      const answers = await read.questionAnswerCount(id);
      const options = await Promise.all(
        q.opcoes.map(async (o) => ({ ...o, respostas: await read.optionAnswerCount(o.id) })),
      );
      return { ...q, opcoes: options, respostas: answers };
    },

    async create(actor: Actor, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseQuestionForm(body, true);
      if (!parsed.ok) return parsed;
      const { texto, tipo, ordem, obrigatoria, opcoes } = parsed.value;
      return survey(actor, async (repo, audit, _trx, now) => {
        const id = await repo.insertQuestion({ texto, tipo, ordem, obrigatoria }, 1, now);
        const list =
          tipo === 'escala'
            ? Array.from({ length: 11 }, (_, i) => ({ texto: String(i), valor: i, ordem: i }))
            : tipo === 'opcoes'
              ? opcoes.map((t, i) => ({ texto: t, valor: opcoes.length - i, ordem: i }))
              : [];
        for (const o of list) await repo.insertOption(id, o);
        await audit(auditRow('criar', 'pergunta', id, null, await snapshot(repo, id)));
        return { ok: true, value: { id } };
      });
    },

    /** The type is fixed at creation: old answers were given to that type. */
    async update(actor: Actor, id: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseQuestionForm(body, false);
      if (!parsed.ok) return parsed;
      return survey(actor, async (repo, audit) => {
        const before = await repo.findQuestion(id);
        if (!before) throw new NotFoundError();
        const { texto, ordem, obrigatoria } = parsed.value;
        await repo.updateQuestion(id, { texto, tipo: before.tipo, ordem, obrigatoria });
        await audit(auditRow('editar', 'pergunta', id, before, await repo.findQuestion(id)));
        return { ok: true, value: { id } };
      });
    },

    setActive: (actor: Actor, id: number, active: boolean) => switchActive(deps, actor, QUESTION, id, active, false),

    /** Deletes an unanswered question; one with answers is deactivated instead. */
    async remove(actor: Actor, id: number): Promise<Removal> {
      return survey(actor, async (repo, audit, _trx, now) => {
        const before = await snapshot(repo, id);
        if (!before) throw new NotFoundError();
        const answered = (await repo.questionAnswerCount(id)) > 0;
        return removeUnanswered({ repo, audit, now }, QUESTION, id, before, answered, () => repo.deleteQuestion(id));
      });
    },

    async addOption(actor: Actor, questionId: number, body: Record<string, unknown>): Promise<Result<{ id: number }>> {
      const parsed = parseOptionForm(body);
      return survey(actor, async (repo, audit) => {
        const q = await repo.findQuestion(questionId);
        if (!q) throw new NotFoundError();
        if (q.tipo !== 'opcoes')
          return { ok: false, errors: { texto: 'Só perguntas do tipo lista de opções recebem novas opções.' } };
        if (!parsed.ok) return parsed;
        if (await repo.findOptionByText(questionId, parsed.value.texto))
          return { ok: false, errors: { texto: 'Esta pergunta já tem uma opção com este texto.' } };
        const id = await repo.insertOption(questionId, parsed.value);
        await audit(auditRow('criar', 'opcao', id, null, { ...parsed.value, pergunta_id: questionId }));
        return { ok: true, value: { id } };
      });
    },

    async updateOption(
      actor: Actor,
      questionId: number,
      optionId: number,
      body: Record<string, unknown>,
    ): Promise<Result<{ id: number }>> {
      const parsed = parseOptionForm(body);
      if (!parsed.ok) return parsed;
      return survey(actor, async (repo, audit) => {
        const before = await repo.findOption(questionId, optionId);
        if (!before) throw new NotFoundError();
        await repo.updateOption(optionId, parsed.value);
        await audit(auditRow('editar', 'opcao', optionId, before, await repo.findOption(questionId, optionId)));
        return { ok: true, value: { id: optionId } };
      });
    },

    setOptionActive: (actor: Actor, questionId: number, optionId: number, active: boolean) =>
      switchActive(deps, actor, optionOf(questionId), optionId, active, false),

    async removeOption(actor: Actor, questionId: number, optionId: number): Promise<Removal> {
      return survey(actor, async (repo, audit, _trx, now) => {
        const before = await repo.findOption(questionId, optionId);
        if (!before) throw new NotFoundError();
        const answered = (await repo.optionAnswerCount(optionId)) > 0;
        const remove = () => repo.deleteOption(optionId);
        return removeUnanswered({ repo, audit, now }, optionOf(questionId), optionId, before, answered, remove);
      });
    },
  };
}

// SQL for the survey question and option screens (answer counts guard deletes).
// Takes a Kysely instance or a transaction.
import type { Insertable, Kysely, Updateable } from 'kysely';
import type { Database } from '../../../db/types';

type Q = Kysely<Database>;

export interface QuestionFields {
  texto: string;
  tipo: string;
  obrigatoria: number;
  ordem: number;
}

export interface OptionFields {
  texto: string;
  valor: number | null;
  ordem: number;
}

/**
 * Writes to questions or options by id: the two tables are edited alike. Both have `id` and
 * `ativo`; Kysely is told one of them.
 */
function editable<T extends 'perguntas' | 'perguntas_opcoes'>(db: Q, name: T) {
  const table = name as 'perguntas';
  return {
    async insert(values: Insertable<Database[T]>) {
      const row = await db
        .insertInto(table)
        .values(values as Insertable<Database['perguntas']>)
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async update(id: number, fields: Updateable<Database[T]>) {
      await db
        .updateTable(table)
        .set(fields as Updateable<Database['perguntas']>)
        .where('id', '=', id)
        .execute();
    },
    async remove(id: number) {
      await db.deleteFrom(table).where('id', '=', id).execute();
    },
  };
}

export function createSurveyQuestionsRepository(db: Q) {
  const questions = editable(db, 'perguntas');
  const options = editable(db, 'perguntas_opcoes');
  /** How many answers name a question or an option (either is deleted only without any). */
  const answerCount = async (column: 'pergunta_id' | 'opcao_id', id: number) => {
    const r = await db
      .selectFrom('respostas_itens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(column, '=', id)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  };
  /** The options of one question: another question's option is never found. */
  const optionsOf = (questionId: number) => db.selectFrom('perguntas_opcoes').where('pergunta_id', '=', questionId);
  return {
    async listQuestions() {
      const questions = await db.selectFrom('perguntas').selectAll().orderBy('ordem').orderBy('id').execute();
      const counts = await db
        .selectFrom('respostas_itens')
        .select(['pergunta_id', (eb) => eb.fn.countAll<number>().as('n')])
        .groupBy('pergunta_id')
        .execute();
      const byId = new Map(counts.map((c) => [c.pergunta_id, Number(c.n)]));
      return questions.map((q) => ({ ...q, respostas: byId.get(q.id) ?? 0 }));
    },
    findQuestion(id: number) {
      return db.selectFrom('perguntas').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findQuestionByText(texto: string) {
      return db.selectFrom('perguntas').select('id').where('texto', '=', texto).orderBy('id').executeTakeFirst();
    },
    listOptions: (questionId: number) => optionsOf(questionId).selectAll().orderBy('ordem').orderBy('id').execute(),
    findOption: (questionId: number, id: number) =>
      optionsOf(questionId).selectAll().where('id', '=', id).executeTakeFirst(),
    findOptionByText: (questionId: number, texto: string) =>
      optionsOf(questionId).select('id').where('texto', '=', texto).orderBy('id').executeTakeFirst(),
    questionAnswerCount: (id: number) => answerCount('pergunta_id', id),
    optionAnswerCount: (id: number) => answerCount('opcao_id', id),
    insertQuestion: (fields: QuestionFields, ativo: number, now: string) =>
      questions.insert({ ...fields, ativo, criado_em: now }),
    updateQuestion: (id: number, fields: QuestionFields) => questions.update(id, fields),
    setQuestionActive: (id: number, ativo: number) => questions.update(id, { ativo }),
    async deleteQuestion(id: number) {
      await db.deleteFrom('perguntas_opcoes').where('pergunta_id', '=', id).execute();
      await questions.remove(id);
    },
    insertOption: (questionId: number, fields: OptionFields, ativo = 1) =>
      options.insert({ ...fields, ativo, pergunta_id: questionId }),
    updateOption: (id: number, fields: OptionFields) => options.update(id, fields),
    setOptionActive: (id: number, ativo: number) => options.update(id, { ativo }),
    deleteOption: (id: number) => options.remove(id),
  };
}

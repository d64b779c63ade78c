// SQL for the survey question and option screens (answer counts guard deletes).
// Takes a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
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

export function createSurveyQuestionsRepository(db: Q) {
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
    listOptions(questionId: number) {
      return db
        .selectFrom('perguntas_opcoes')
        .selectAll()
        .where('pergunta_id', '=', questionId)
        .orderBy('ordem')
        .orderBy('id')
        .execute();
    },
    findOption(questionId: number, id: number) {
      return db
        .selectFrom('perguntas_opcoes')
        .selectAll()
        .where('id', '=', id)
        .where('pergunta_id', '=', questionId)
        .executeTakeFirst();
    },
    findOptionByText(questionId: number, texto: string) {
      return db
        .selectFrom('perguntas_opcoes')
        .select('id')
        .where('pergunta_id', '=', questionId)
        .where('texto', '=', texto)
        .orderBy('id')
        .executeTakeFirst();
    },
    async questionAnswerCount(id: number) {
      const r = await db
        .selectFrom('respostas_itens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('pergunta_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async optionAnswerCount(id: number) {
      const r = await db
        .selectFrom('respostas_itens')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('opcao_id', '=', id)
        .executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insertQuestion(fields: QuestionFields, ativo: number, now: string) {
      return (
        await db
          .insertInto('perguntas')
          .values({ ...fields, ativo, criado_em: now })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    },
    async updateQuestion(id: number, fields: QuestionFields) {
      await db.updateTable('perguntas').set(fields).where('id', '=', id).execute();
    },
    async setQuestionActive(id: number, ativo: number) {
      await db.updateTable('perguntas').set({ ativo }).where('id', '=', id).execute();
    },
    async deleteQuestion(id: number) {
      await db.deleteFrom('perguntas_opcoes').where('pergunta_id', '=', id).execute();
      await db.deleteFrom('perguntas').where('id', '=', id).execute();
    },
    async insertOption(questionId: number, fields: OptionFields, ativo = 1) {
      return (
        await db
          .insertInto('perguntas_opcoes')
          .values({ ...fields, ativo, pergunta_id: questionId })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    },
    async updateOption(id: number, fields: OptionFields) {
      await db.updateTable('perguntas_opcoes').set(fields).where('id', '=', id).execute();
    },
    async setOptionActive(id: number, ativo: number) {
      await db.updateTable('perguntas_opcoes').set({ ativo }).where('id', '=', id).execute();
    },
    async deleteOption(id: number) {
      await db.deleteFrom('perguntas_opcoes').where('id', '=', id).execute();
    },
  };
}

// The only place the content screens' SQL lives. Takes a Kysely instance or a
// transaction, so a service can run a change and its audit row in one transaction.
import type { Kysely } from 'kysely';
import type { Database, Unidade } from '../../../db/types';

type Q = Kysely<Database>;

/** The unit's editable columns (the row less its id, flag and timestamps). */
export type UnitFields = Omit<Unidade, 'id' | 'ativo' | 'criado_em' | 'atualizado_em'>;

export interface HourRow {
  dia_semana: number;
  abre: string;
  fecha: string;
}

export interface ClassFields {
  modalidade_id: number;
  dia_semana: number;
  inicio: string;
  fim: string;
  professor: string | null;
  sala: string | null;
}

export interface PlanFields {
  nome: string;
  descricao: string | null;
  preco_centavos: number;
  periodicidade: string;
  ordem: number;
}

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

export function createContentRepository(db: Q) {
  return {
    // ---------- units ----------
    listUnits() {
      return db.selectFrom('unidades').select(['id', 'nome', 'slug', 'cidade', 'uf', 'bairro', 'ativo']).orderBy('nome').execute();
    },
    listUnitsByIds(ids: number[]) {
      if (!ids.length) return Promise.resolve([]);
      return db.selectFrom('unidades').select(['id', 'nome', 'slug', 'cidade', 'uf', 'bairro', 'ativo']).where('id', 'in', ids).orderBy('nome').execute();
    },
    findUnit(id: number) {
      return db.selectFrom('unidades').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findUnitBySlug(slug: string) {
      return db.selectFrom('unidades').select(['id', 'slug']).where('slug', '=', slug).executeTakeFirst();
    },
    async unitLinks(id: number) {
      const [hours, areas, modalities, plans] = await Promise.all([
        db.selectFrom('unidade_horarios').select(['dia_semana', 'abre', 'fecha']).where('unidade_id', '=', id).orderBy('dia_semana').orderBy('abre').execute(),
        db.selectFrom('unidades_areas').select('area_id').where('unidade_id', '=', id).orderBy('area_id').execute(),
        db.selectFrom('unidades_modalidades').select('modalidade_id').where('unidade_id', '=', id).orderBy('modalidade_id').execute(),
        db.selectFrom('planos_unidades').select('plano_id').where('unidade_id', '=', id).orderBy('plano_id').execute(),
      ]);
      return {
        hours,
        areaIds: areas.map((r) => r.area_id),
        modalityIds: modalities.map((r) => r.modalidade_id),
        planIds: plans.map((r) => r.plano_id),
      };
    },
    async insertUnit(fields: UnitFields, now: string) {
      const row = await db
        .insertInto('unidades')
        .values({ ...fields, ativo: 1, criado_em: now, atualizado_em: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    },
    async updateUnit(id: number, fields: UnitFields, now: string) {
      await db.updateTable('unidades').set({ ...fields, atualizado_em: now }).where('id', '=', id).execute();
    },
    async setUnitActive(id: number, ativo: number, now: string) {
      await db.updateTable('unidades').set({ ativo, atualizado_em: now }).where('id', '=', id).execute();
    },
    async replaceHours(unitId: number, hours: HourRow[]) {
      await db.deleteFrom('unidade_horarios').where('unidade_id', '=', unitId).execute();
      if (hours.length) await db.insertInto('unidade_horarios').values(hours.map((h) => ({ ...h, unidade_id: unitId }))).execute();
    },
    async replaceUnitAreas(unitId: number, ids: number[]) {
      await db.deleteFrom('unidades_areas').where('unidade_id', '=', unitId).execute();
      if (ids.length) await db.insertInto('unidades_areas').values(ids.map((area_id) => ({ unidade_id: unitId, area_id }))).execute();
    },
    async replaceUnitModalities(unitId: number, ids: number[]) {
      await db.deleteFrom('unidades_modalidades').where('unidade_id', '=', unitId).execute();
      if (ids.length) await db.insertInto('unidades_modalidades').values(ids.map((modalidade_id) => ({ unidade_id: unitId, modalidade_id }))).execute();
    },
    async replaceUnitPlans(unitId: number, ids: number[]) {
      await db.deleteFrom('planos_unidades').where('unidade_id', '=', unitId).execute();
      if (ids.length) await db.insertInto('planos_unidades').values(ids.map((plano_id) => ({ plano_id, unidade_id: unitId }))).execute();
    },
    async slugTaken(slug: string, exceptId?: number) {
      let q = db.selectFrom('unidades').select('id').where('slug', '=', slug);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return Boolean(await q.executeTakeFirst());
    },

    // ---------- plans ----------
    listPlans() {
      return db.selectFrom('planos').selectAll().orderBy('ordem').orderBy('nome').execute();
    },
    findPlan(id: number) {
      return db.selectFrom('planos').selectAll().where('id', '=', id).executeTakeFirst();
    },
    findPlanByName(nome: string) {
      return db.selectFrom('planos').select('id').where('nome', '=', nome).orderBy('id').executeTakeFirst();
    },
    async planUnitIds(id: number) {
      return (await db.selectFrom('planos_unidades').select('unidade_id').where('plano_id', '=', id).orderBy('unidade_id').execute()).map((r) => r.unidade_id);
    },
    async insertPlan(fields: PlanFields, now: string) {
      return (await db.insertInto('planos').values({ ...fields, ativo: 1, criado_em: now, atualizado_em: now }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updatePlan(id: number, fields: PlanFields, now: string) {
      await db.updateTable('planos').set({ ...fields, atualizado_em: now }).where('id', '=', id).execute();
    },
    async setPlanActive(id: number, ativo: number, now: string) {
      await db.updateTable('planos').set({ ativo, atualizado_em: now }).where('id', '=', id).execute();
    },
    async replacePlanUnits(planId: number, ids: number[]) {
      await db.deleteFrom('planos_unidades').where('plano_id', '=', planId).execute();
      if (ids.length) await db.insertInto('planos_unidades').values(ids.map((unidade_id) => ({ plano_id: planId, unidade_id }))).execute();
    },

    // ---------- areas and modalities ----------
    listAreas() {
      return db.selectFrom('areas').select(['id', 'nome', 'ativo']).orderBy('nome').execute();
    },
    findArea(id: number) {
      return db.selectFrom('areas').select(['id', 'nome', 'ativo']).where('id', '=', id).executeTakeFirst();
    },
    findAreaByName(nome: string) {
      return db.selectFrom('areas').select('id').where('nome', '=', nome).executeTakeFirst();
    },
    async areaUnitIds(id: number) {
      return (await db.selectFrom('unidades_areas').select('unidade_id').where('area_id', '=', id).orderBy('unidade_id').execute()).map((r) => r.unidade_id);
    },
    async insertArea(nome: string) {
      return (await db.insertInto('areas').values({ nome, ativo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateArea(id: number, nome: string) {
      await db.updateTable('areas').set({ nome }).where('id', '=', id).execute();
    },
    async setAreaActive(id: number, ativo: number) {
      await db.updateTable('areas').set({ ativo }).where('id', '=', id).execute();
    },
    async replaceAreaUnits(areaId: number, ids: number[]) {
      await db.deleteFrom('unidades_areas').where('area_id', '=', areaId).execute();
      if (ids.length) await db.insertInto('unidades_areas').values(ids.map((unidade_id) => ({ unidade_id, area_id: areaId }))).execute();
    },
    listModalities() {
      return db.selectFrom('modalidades').select(['id', 'nome', 'descricao', 'ativo']).orderBy('nome').execute();
    },
    findModality(id: number) {
      return db.selectFrom('modalidades').select(['id', 'nome', 'descricao', 'ativo']).where('id', '=', id).executeTakeFirst();
    },
    findModalityByName(nome: string) {
      return db.selectFrom('modalidades').select('id').where('nome', '=', nome).executeTakeFirst();
    },
    async modalityUnitIds(id: number) {
      return (await db.selectFrom('unidades_modalidades').select('unidade_id').where('modalidade_id', '=', id).orderBy('unidade_id').execute()).map((r) => r.unidade_id);
    },
    async insertModality(nome: string, descricao: string | null) {
      return (await db.insertInto('modalidades').values({ nome, descricao, ativo: 1 }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async updateModality(id: number, nome: string, descricao: string | null) {
      await db.updateTable('modalidades').set({ nome, descricao }).where('id', '=', id).execute();
    },
    async setModalityActive(id: number, ativo: number) {
      await db.updateTable('modalidades').set({ ativo }).where('id', '=', id).execute();
    },
    async replaceModalityUnits(modalityId: number, ids: number[]) {
      await db.deleteFrom('unidades_modalidades').where('modalidade_id', '=', modalityId).execute();
      if (ids.length) await db.insertInto('unidades_modalidades').values(ids.map((unidade_id) => ({ unidade_id, modalidade_id: modalityId }))).execute();
    },
    async nameTaken(table: 'areas' | 'modalidades', nome: string, exceptId?: number) {
      let q = db.selectFrom(table).select('id').where('nome', '=', nome);
      if (exceptId) q = q.where('id', '!=', exceptId);
      return Boolean(await q.executeTakeFirst());
    },

    // ---------- timetable ----------
    listClasses(unitId: number) {
      return db
        .selectFrom('aulas')
        .innerJoin('modalidades', 'modalidades.id', 'aulas.modalidade_id')
        .select(['aulas.id', 'aulas.unidade_id', 'aulas.modalidade_id', 'aulas.dia_semana', 'aulas.inicio', 'aulas.fim', 'aulas.professor', 'aulas.sala', 'modalidades.nome as modalidade'])
        .where('aulas.unidade_id', '=', unitId)
        .orderBy('aulas.dia_semana')
        .orderBy('aulas.inicio')
        .orderBy('aulas.id')
        .execute();
    },
    findClass(unitId: number, id: number) {
      return db.selectFrom('aulas').selectAll().where('id', '=', id).where('unidade_id', '=', unitId).executeTakeFirst();
    },
    async insertClass(unitId: number, fields: ClassFields) {
      return (await db.insertInto('aulas').values({ ...fields, unidade_id: unitId }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async insertClasses(unitId: number, rows: ClassFields[]) {
      // Chunks keep each statement under SQLite's bound-parameter limit.
      for (let i = 0; i < rows.length; i += 100) {
        await db.insertInto('aulas').values(rows.slice(i, i + 100).map((r) => ({ ...r, unidade_id: unitId }))).execute();
      }
    },
    async updateClass(id: number, fields: ClassFields) {
      await db.updateTable('aulas').set(fields).where('id', '=', id).execute();
    },
    async deleteClass(id: number) {
      await db.deleteFrom('aulas').where('id', '=', id).execute();
    },
    async deleteUnitClasses(unitId: number) {
      await db.deleteFrom('aulas').where('unidade_id', '=', unitId).execute();
    },
    /** A class's modality is offered by its unit: keeps the unit page's modality list true. */
    async ensureUnitModalities(unitId: number, modalityIds: number[]) {
      const have = new Set(
        (await db.selectFrom('unidades_modalidades').select('modalidade_id').where('unidade_id', '=', unitId).execute()).map((r) => r.modalidade_id),
      );
      const missing = [...new Set(modalityIds)].filter((id) => !have.has(id));
      if (missing.length) await db.insertInto('unidades_modalidades').values(missing.map((modalidade_id) => ({ unidade_id: unitId, modalidade_id }))).execute();
    },

    // ---------- survey ----------
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
      return db.selectFrom('perguntas_opcoes').selectAll().where('pergunta_id', '=', questionId).orderBy('ordem').orderBy('id').execute();
    },
    findOption(questionId: number, id: number) {
      return db.selectFrom('perguntas_opcoes').selectAll().where('id', '=', id).where('pergunta_id', '=', questionId).executeTakeFirst();
    },
    findOptionByText(questionId: number, texto: string) {
      return db.selectFrom('perguntas_opcoes').select('id').where('pergunta_id', '=', questionId).where('texto', '=', texto).orderBy('id').executeTakeFirst();
    },
    async questionAnswerCount(id: number) {
      const r = await db.selectFrom('respostas_itens').select((eb) => eb.fn.countAll<number>().as('n')).where('pergunta_id', '=', id).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async optionAnswerCount(id: number) {
      const r = await db.selectFrom('respostas_itens').select((eb) => eb.fn.countAll<number>().as('n')).where('opcao_id', '=', id).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    async insertQuestion(fields: QuestionFields, ativo: number, now: string) {
      return (await db.insertInto('perguntas').values({ ...fields, ativo, criado_em: now }).returning('id').executeTakeFirstOrThrow()).id;
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
      return (await db.insertInto('perguntas_opcoes').values({ ...fields, ativo, pergunta_id: questionId }).returning('id').executeTakeFirstOrThrow()).id;
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

export type ContentRepository = ReturnType<typeof createContentRepository>;

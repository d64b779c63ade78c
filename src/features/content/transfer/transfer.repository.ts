// SQL for the catalog export/import: whole-table reads for the export, and the upserts
// by natural key (unit slug, plan/area/modality name, question text) for the import.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { foldText } from '../../../lib/text';
import { type PlanFields, stampedRows } from '../plans-taxonomy/plans.repository';
import type { UnitFields } from '../units/units.repository';

/** Rows per statement when links are written in bulk (well under both engines' parameter limits). */
const CHUNK = 500;

/** Awaits every query of an object at once and keeps their names. */
async function allOf<T extends Record<string, Promise<unknown>>>(
  queries: T,
): Promise<{ [K in keyof T]: Awaited<T[K]> }> {
  const values = await Promise.all(Object.values(queries));
  return Object.fromEntries(Object.keys(queries).map((k, i) => [k, values[i]])) as { [K in keyof T]: Awaited<T[K]> };
}

export function createTransferRepository(db: Kysely<Database>) {
  const plans = stampedRows(db, 'planos');
  const units = stampedRows(db, 'unidades');
  /**
   * "yoga" finds "Yoga", "Musculacao" finds "Musculação": no second row that differs only in
   * case or accents. A row spelled exactly so comes first (an older database may hold two
   * that fold alike; renaming the other one to this spelling would break the unique name).
   */
  async function findByFoldedName(
    table: 'areas' | 'modalidades',
    nome: string,
  ): Promise<{ id: number; nome: string } | undefined> {
    const key = foldText(nome);
    const rows = await db.selectFrom(table).select(['id', 'nome']).orderBy('id').execute();
    return rows.find((r) => r.nome === nome) ?? rows.find((r) => foldText(r.nome) === key);
  }
  return {
    /** Every catalog table, in the order the catalog file writes them. */
    readAll() {
      return allOf({
        unidades: db.selectFrom('unidades').selectAll().orderBy('slug').execute(),
        horarios: db
          .selectFrom('unidade_horarios')
          .select(['unidade_id', 'dia_semana', 'abre', 'fecha'])
          .orderBy('unidade_id')
          .orderBy('dia_semana')
          .orderBy('abre')
          .execute(),
        areas: db.selectFrom('areas').select(['id', 'nome', 'ativo']).orderBy('nome').execute(),
        unidadesAreas: db.selectFrom('unidades_areas').select(['unidade_id', 'area_id']).execute(),
        modalidades: db
          .selectFrom('modalidades')
          .select(['id', 'nome', 'descricao', 'ativo'])
          .orderBy('nome')
          .execute(),
        unidadesModalidades: db.selectFrom('unidades_modalidades').select(['unidade_id', 'modalidade_id']).execute(),
        aulas: db
          .selectFrom('aulas')
          .select(['unidade_id', 'modalidade_id', 'dia_semana', 'inicio', 'fim', 'professor', 'sala'])
          .orderBy('unidade_id')
          .orderBy('dia_semana')
          .orderBy('inicio')
          .orderBy('id')
          .execute(),
        planos: db.selectFrom('planos').selectAll().orderBy('ordem').orderBy('nome').orderBy('id').execute(),
        planosUnidades: db.selectFrom('planos_unidades').select(['plano_id', 'unidade_id']).execute(),
        perguntas: db.selectFrom('perguntas').selectAll().orderBy('ordem').orderBy('id').execute(),
        opcoes: db
          .selectFrom('perguntas_opcoes')
          .selectAll()
          .orderBy('pergunta_id')
          .orderBy('ordem')
          .orderBy('id')
          .execute(),
      });
    },

    /** Natural keys already in the database, for the import's referential checks. */
    async keys() {
      const [units, areas, modalities, questions] = await Promise.all([
        db.selectFrom('unidades').select(['id', 'slug']).execute(),
        db.selectFrom('areas').select(['id', 'nome']).execute(),
        db.selectFrom('modalidades').select(['id', 'nome']).execute(),
        db.selectFrom('perguntas').select(['id', 'texto', 'tipo']).execute(),
      ]);
      const answered = await db.selectFrom('respostas_itens').select('pergunta_id').distinct().execute();
      return { units, areas, modalities, questions, answeredQuestionIds: new Set(answered.map((r) => r.pergunta_id)) };
    },

    /** The file's spelling of the name wins, as every other field does (docs/decisions/178). */
    async upsertArea(nome: string, ativo: number): Promise<{ id: number; created: boolean }> {
      const found = await findByFoldedName('areas', nome);
      if (found) {
        await db.updateTable('areas').set({ nome, ativo }).where('id', '=', found.id).execute();
        return { id: found.id, created: false };
      }
      return {
        id: (await db.insertInto('areas').values({ nome, ativo }).returning('id').executeTakeFirstOrThrow()).id,
        created: true,
      };
    },

    async upsertModality(
      nome: string,
      descricao: string | null,
      ativo: number,
    ): Promise<{ id: number; created: boolean }> {
      const found = await findByFoldedName('modalidades', nome);
      if (found) {
        await db.updateTable('modalidades').set({ nome, descricao, ativo }).where('id', '=', found.id).execute();
        return { id: found.id, created: false };
      }
      return {
        id: (
          await db
            .insertInto('modalidades')
            .values({ nome, descricao, ativo })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
        created: true,
      };
    },

    async upsertUnit(
      // The legal entity is not in the catalog file: an import keeps what the unit form saved.
      u: UnitFields & { ativo: number },
      now: string,
    ): Promise<{ id: number; created: boolean }> {
      const found = await db.selectFrom('unidades').select('id').where('slug', '=', u.slug).executeTakeFirst();
      if (!found) return { id: await units.insert(u, now), created: true };
      await units.update(found.id, u, now);
      return { id: found.id, created: false };
    },

    /** Plan name → id (the oldest row when an older database holds two of one name). */
    async planIdsByName(): Promise<Map<string, number>> {
      const rows = await db.selectFrom('planos').select(['id', 'nome']).orderBy('id', 'desc').execute();
      return new Map(rows.map((r) => [r.nome, r.id]));
    },

    async savePlan(id: number | undefined, p: PlanFields & { ativo: number }, now: string): Promise<number> {
      if (id === undefined) return plans.insert(p, now);
      await plans.update(id, p, now);
      return id;
    },

    /**
     * Makes `links` the units of these plans, in chunks (a chain's import rewrites thousands
     * of plans at once). Only what changed is written: a link that stays keeps the prices and
     * terms staff set for it, which the catalog file does not carry.
     */
    async replaceUnitsOfPlans(planIds: number[], links: { plano_id: number; unidade_id: number }[]) {
      const key = (l: { plano_id: number; unidade_id: number }) => `${l.plano_id}:${l.unidade_id}`;
      const wanted = new Set(links.map(key));
      const kept = new Set<string>();
      const goneByPlan = new Map<number, number[]>();
      for (let i = 0; i < planIds.length; i += CHUNK) {
        const rows = await db
          .selectFrom('planos_unidades')
          .select(['plano_id', 'unidade_id'])
          .where('plano_id', 'in', planIds.slice(i, i + CHUNK))
          .execute();
        for (const r of rows) {
          if (wanted.has(key(r))) kept.add(key(r));
          else {
            const gone = goneByPlan.get(r.plano_id);
            if (gone) gone.push(r.unidade_id);
            else goneByPlan.set(r.plano_id, [r.unidade_id]);
          }
        }
      }
      for (const [planId, unitIds] of goneByPlan)
        for (let i = 0; i < unitIds.length; i += CHUNK)
          await db
            .deleteFrom('planos_unidades')
            .where('plano_id', '=', planId)
            .where('unidade_id', 'in', unitIds.slice(i, i + CHUNK))
            .execute();
      const added = links.filter((l) => !kept.has(key(l)));
      for (let i = 0; i < added.length; i += CHUNK)
        await db
          .insertInto('planos_unidades')
          .values(added.slice(i, i + CHUNK))
          .execute();
    },

    async upsertQuestion(
      q: { texto: string; tipo: string; obrigatoria: number; ordem: number; ativo: number },
      now: string,
    ): Promise<{ id: number; created: boolean }> {
      const found = await db
        .selectFrom('perguntas')
        .select('id')
        .where('texto', '=', q.texto)
        .orderBy('id')
        .executeTakeFirst();
      if (found) {
        await db.updateTable('perguntas').set(q).where('id', '=', found.id).execute();
        return { id: found.id, created: false };
      }
      return {
        id: (
          await db
            .insertInto('perguntas')
            .values({ ...q, criado_em: now })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
        created: true,
      };
    },

    async upsertOption(perguntaId: number, o: { texto: string; valor: number | null; ordem: number; ativo: number }) {
      const found = await db
        .selectFrom('perguntas_opcoes')
        .select('id')
        .where('pergunta_id', '=', perguntaId)
        .where('texto', '=', o.texto)
        .orderBy('id')
        .executeTakeFirst();
      if (found) await db.updateTable('perguntas_opcoes').set(o).where('id', '=', found.id).execute();
      else
        await db
          .insertInto('perguntas_opcoes')
          .values({ ...o, pergunta_id: perguntaId })
          .execute();
    },
  };
}

export type TransferRepository = ReturnType<typeof createTransferRepository>;

// SQL for a unit's timetable (classes) screens. Takes a Kysely instance or a transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { classesOf } from '../../catalog/catalog.repository';

type Q = Kysely<Database>;

export interface ClassFields {
  modalidade_id: number;
  dia_semana: number;
  inicio: string;
  fim: string;
  professor: string | null;
  sala: string | null;
}

export function createTimetableRepository(db: Q) {
  return {
    listClasses(unitId: number) {
      return classesOf(db, unitId)
        .selectAll('a')
        .select('m.nome as modalidade')
        .orderBy('a.dia_semana')
        .orderBy('a.inicio')
        .orderBy('a.id')
        .execute();
    },
    findClass(unitId: number, id: number) {
      return db
        .selectFrom('aulas')
        .selectAll()
        .where('id', '=', id)
        .where('unidade_id', '=', unitId)
        .executeTakeFirst();
    },
    async insertClass(unitId: number, fields: ClassFields) {
      return (
        await db
          .insertInto('aulas')
          .values({ ...fields, unidade_id: unitId })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    },
    async insertClasses(unitId: number, rows: ClassFields[]) {
      // Chunks keep each statement under SQLite's bound-parameter limit.
      for (let i = 0; i < rows.length; i += 100) {
        await db
          .insertInto('aulas')
          .values(rows.slice(i, i + 100).map((r) => ({ ...r, unidade_id: unitId })))
          .execute();
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
        (
          await db.selectFrom('unidades_modalidades').select('modalidade_id').where('unidade_id', '=', unitId).execute()
        ).map((r) => r.modalidade_id),
      );
      const missing = [...new Set(modalityIds)].filter((id) => !have.has(id));
      if (missing.length)
        await db
          .insertInto('unidades_modalidades')
          .values(missing.map((modalidade_id) => ({ unidade_id: unitId, modalidade_id })))
          .execute();
    },
  };
}

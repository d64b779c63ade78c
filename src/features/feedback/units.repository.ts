// The units a customer picks on the feedback forms (the survey and "Fale aqui"): active ones
// only, read the same way by both so a unit closed for one is closed for the other.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export interface UnitRef {
  id: number;
  nome: string;
  cidade: string;
}

export function createFormUnitsRepository(db: Kysely<Database>) {
  return {
    async activeUnits(): Promise<UnitRef[]> {
      return db
        .selectFrom('unidades')
        .select(['id', 'nome', 'cidade'])
        .where('ativo', '=', 1)
        .orderBy('nome')
        .execute();
    },

    async activeUnit(id: number): Promise<UnitRef | undefined> {
      return db
        .selectFrom('unidades')
        .select(['id', 'nome', 'cidade'])
        .where('id', '=', id)
        .where('ativo', '=', 1)
        .executeTakeFirst();
    },
  };
}

// Frozen in time: the funnel counts bookings per week, unit and status; with the status in the
// index it reads the index alone instead of looking up each booking's row. It replaces
// (semana, unidade_id), of which it is an extension. Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('aulas_experimentais_funil_idx')
    .on('aulas_experimentais')
    .columns(['semana', 'unidade_id', 'status'])
    .execute();
  await db.schema.dropIndex('aulas_experimentais_semana_idx').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('aulas_experimentais_semana_idx')
    .on('aulas_experimentais')
    .columns(['semana', 'unidade_id'])
    .execute();
  await db.schema.dropIndex('aulas_experimentais_funil_idx').execute();
}

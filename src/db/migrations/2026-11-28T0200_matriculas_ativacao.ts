// Frozen in time: the trial-class funnel counts enrolments activated per unit and week
// (ativada_em in a period, the chain's or some units'); without this index each page read every
// enrolment. Imports nothing from the app.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('matriculas_ativada_idx')
    .on('matriculas')
    .columns(['ativada_em', 'unidade_id'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('matriculas_ativada_idx').execute();
}

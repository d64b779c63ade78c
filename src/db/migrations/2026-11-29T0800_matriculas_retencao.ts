// Frozen in time: a partial index of the online enrolments not yet anonymised, by the day an
// ended contract ended (its effective cancellation, the withdrawal, or the payment deadline that
// lapsed; null while in force), so the retention job reads only the ended ones past their
// period. The expression and the WHERE are written exactly as the job's query writes them, so
// both engines match the index to it; the status sits inside the expression so that SQLite does
// not prefer the status index. Imports nothing from the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('matriculas_retencao_idx')
    .on('matriculas')
    .expression(
      // in parentheses of its own: PostgreSQL's CREATE INDEX wants them around an expression
      sql`(case when status in ('expirada', 'desistencia', 'cancelada')
        then coalesce(cancelamento_efetivo_em, desistencia_em, expira_em, aceito_em) end)`,
    )
    .where(sql<boolean>`anonimizado_em is null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('matriculas_retencao_idx').execute();
}

// Frozen in time: trial-class bookings counted per week, unit and status (one column per status),
// kept in the same transaction as each booking and each change of its status, so the funnel
// reads a row per unit and week instead of every booking. Filled here from the bookings already
// stored (`npm run aggregates:rebuild` does the same later). Imports nothing from the app.
import { type Kysely, sql } from 'kysely';

/** The booking statuses of the time, each a count. */
const STATUSES = ['agendado', 'compareceu', 'nao_compareceu', 'matriculou'];

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('agregados_agendamentos')
    .addColumn('semana', 'varchar(10)', (c) => c.notNull())
    .addColumn('unidade_id', 'integer', (c) => c.notNull());
  for (const status of STATUSES) table = table.addColumn(status, 'integer', (c) => c.notNull().defaultTo(0));
  await table.addPrimaryKeyConstraint('agregados_agendamentos_pk', ['semana', 'unidade_id']).execute();
  const counts = STATUSES.map((s) => sql`sum(case when status = ${sql.lit(s)} then 1 else 0 end)`);
  await sql`insert into agregados_agendamentos (semana, unidade_id, ${sql.join(STATUSES.map((s) => sql.ref(s)))})
    select semana, unidade_id, ${sql.join(counts)} from aulas_experimentais
    group by semana, unidade_id order by 1, 2`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agregados_agendamentos').execute();
}

// Frozen in time: clicks counted per week, unit and action, kept in the same transaction as each
// click, so the clicks report and the funnel read a row per unit and week instead of every click.
// Filled here from the clicks already stored (`npm run aggregates:rebuild` does the same later).
// Imports nothing from the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agregados_cliques')
    .addColumn('semana', 'varchar(10)', (c) => c.notNull())
    .addColumn('unidade_id', 'integer', (c) => c.notNull())
    .addColumn('acao', 'varchar(30)', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('agregados_cliques_pk', ['semana', 'unidade_id', 'acao'])
    .execute();
  await sql`insert into agregados_cliques (semana, unidade_id, acao, n)
    select semana, unidade_id, acao, count(*) from cliques_cta where unidade_id is not null
    group by 1, 2, 3 order by 1, 2, 3`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('agregados_cliques').execute();
}

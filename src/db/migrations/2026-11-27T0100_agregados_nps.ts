// Frozen in time: the survey's derived figures, kept in the same transaction as each answer
// written or removed, so the staff report reads thousands of rows instead of millions.
// `periodo` is a São Paulo day (AAAA-MM-DD) or a whole month (AAAA-MM): a period is read as
// its whole months plus the days at its edges. Filled here from the answers already stored
// (`npm run aggregates:rebuild` does the same later). Also the indexes of the staff lists at
// chain scale. Imports nothing from the app.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agregados_nps')
    .addColumn('periodo', 'varchar(10)', (c) => c.notNull())
    .addColumn('unidade_id', 'integer', (c) => c.notNull())
    .addColumn('origem', 'varchar(20)', (c) => c.notNull())
    .addColumn('respostas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('notas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('promotores', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('detratores', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('agregados_nps_pk', ['periodo', 'unidade_id', 'origem'])
    .execute();
  await db.schema
    .createIndex('agregados_nps_unidade_idx')
    .on('agregados_nps')
    .columns(['unidade_id', 'periodo'])
    .execute();
  await db.schema
    .createTable('agregados_opcoes')
    .addColumn('periodo', 'varchar(10)', (c) => c.notNull())
    .addColumn('unidade_id', 'integer', (c) => c.notNull())
    .addColumn('pergunta_id', 'integer', (c) => c.notNull())
    .addColumn('opcao_id', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('agregados_opcoes_pk', ['periodo', 'unidade_id', 'pergunta_id', 'opcao_id'])
    .execute();
  await db.schema
    .createIndex('agregados_opcoes_unidade_idx')
    .on('agregados_opcoes')
    .columns(['unidade_id', 'periodo'])
    .execute();

  // The start page's queue: detractors with a comment nobody has handled, oldest first.
  await db.schema
    .createIndex('respostas_nps_pendentes_idx')
    .on('respostas_nps')
    .columns(['criado_em', 'id'])
    .where(sql<boolean>`nota_nps <= 6 and tratada_em is null and comentario is not null and comentario <> ''`)
    .execute();
  // The report's list newest first (ties by id), whole chain and per unit.
  await db.schema.createIndex('respostas_nps_lista_idx').on('respostas_nps').columns(['criado_em', 'id']).execute();

  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  // São Paulo has kept UTC-3 all year since 2019.
  const day = pg
    ? sql.raw(`to_char(cast(r.criado_em as timestamp) - interval '3 hours', 'YYYY-MM-DD')`)
    : sql.raw(`date(r.criado_em, '-3 hours')`);
  await sql`insert into agregados_nps (periodo, unidade_id, origem, respostas, notas, promotores, detratores)
    select ${day}, r.unidade_id, r.origem, count(*), count(r.nota_nps),
      sum(case when r.nota_nps >= 9 then 1 else 0 end), sum(case when r.nota_nps <= 6 then 1 else 0 end)
    from respostas_nps r group by 1, 2, 3`.execute(db);
  await sql`insert into agregados_opcoes (periodo, unidade_id, pergunta_id, opcao_id, n)
    select ${day}, r.unidade_id, i.pergunta_id, i.opcao_id, count(*)
    from respostas_itens i join respostas_nps r on r.id = i.resposta_id
    where i.opcao_id is not null group by 1, 2, 3, 4`.execute(db);
  await sql`insert into agregados_nps (periodo, unidade_id, origem, respostas, notas, promotores, detratores)
    select substr(periodo, 1, 7), unidade_id, origem, sum(respostas), sum(notas), sum(promotores), sum(detratores)
    from agregados_nps group by 1, 2, 3`.execute(db);
  await sql`insert into agregados_opcoes (periodo, unidade_id, pergunta_id, opcao_id, n)
    select substr(periodo, 1, 7), unidade_id, pergunta_id, opcao_id, sum(n)
    from agregados_opcoes group by 1, 2, 3, 4`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('respostas_nps_lista_idx').execute();
  await db.schema.dropIndex('respostas_nps_pendentes_idx').execute();
  await db.schema.dropTable('agregados_opcoes').execute();
  await db.schema.dropTable('agregados_nps').execute();
}

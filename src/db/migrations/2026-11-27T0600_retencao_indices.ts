// Frozen in time: partial indexes holding only the rows the retention job still has to
// anonymise, so its hourly pass reads those rows instead of every row past the period (three
// years of a chain: millions). Each WHERE is written exactly as the job's query writes it,
// literals included, so both engines match the index to the query. Imports nothing from the app.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('respostas_nps_retencao_idx')
    .on('respostas_nps')
    .column('criado_em')
    .where(sql<boolean>`nome_cliente is not null or contato_cliente is not null`)
    .execute();
  await db.schema
    .createIndex('fale_aqui_retencao_idx')
    .on('fale_aqui')
    .column('criado_em')
    .where(
      sql<boolean>`mensagem <> '[removido ao fim do prazo de guarda]' or anonimo = 0
        or contato_email is not null or contato_telefone is not null`,
    )
    .execute();
  await db.schema
    .createIndex('franquia_leads_retencao_idx')
    .on('franquia_leads')
    .column('atualizado_em')
    .where(sql<boolean>`nome_completo <> 'Pessoa anonimizada' or whatsapp <> '' or email <> ''`)
    .execute();
  await db.schema
    .createIndex('aulas_experimentais_retencao_idx')
    .on('aulas_experimentais')
    .column('inicio_em')
    .where(sql<boolean>`anonimizado_em is null`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of [
    'aulas_experimentais_retencao_idx',
    'franquia_leads_retencao_idx',
    'fale_aqui_retencao_idx',
    'respostas_nps_retencao_idx',
  ])
    await db.schema.dropIndex(name).execute();
}

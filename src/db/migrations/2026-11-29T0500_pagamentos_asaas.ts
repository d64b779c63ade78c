// Frozen in time: payments through a provider (Asaas). Imports nothing from the app.
// - pagamentos_eventos: every webhook event as received (the raw body), stored before it is
//   acted on and processed by a worker that claims rows; the provider's event id is the key,
//   so a repeat is stored once;
// - pagamentos_divergencias: the daily comparison of the payments the provider received with ours;
// - matriculas: the provider's customer and subscription, the day a member became
//   inadimplente (a monthly payment overdue), and what needs staff attention (a chargeback);
// - matriculas_pagamentos: a monthly payment's due day, and when the reconciliation last
//   asked the provider about a pending payment.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('pagamentos_eventos')
    .addColumn('id', 'varchar(200)', (c) => c.primaryKey())
    .addColumn('provedor', 'varchar(20)', (c) => c.notNull())
    .addColumn('tipo', 'varchar(80)', (c) => c.notNull())
    // The provider's payment the event is about, when it names one.
    .addColumn('pagamento_id', 'varchar(80)')
    .addColumn('payload', 'text', (c) => c.notNull())
    // pendente | processando | processado | falhou
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('recebido_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('processado_em', 'varchar(30)')
    .addColumn('tentativas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('proxima_tentativa_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('bloqueado_ate', 'varchar(30)')
    .addColumn('bloqueio', 'varchar(40)')
    .addColumn('erro', 'varchar(500)')
    .execute();
  await db.schema
    .createIndex('pagamentos_eventos_fila_idx')
    .on('pagamentos_eventos')
    .columns(['status', 'proxima_tentativa_em'])
    .execute();
  await db.schema
    .createIndex('pagamentos_eventos_recebido_idx')
    .on('pagamentos_eventos')
    .column('recebido_em')
    .execute();

  const table = db.schema.createTable('pagamentos_divergencias');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    // São Paulo day compared (aaaa-mm-dd)
    .addColumn('dia', 'varchar(10)', (c) => c.notNull())
    .addColumn('provedor_id', 'varchar(80)', (c) => c.notNull())
    .addColumn('referencia', 'varchar(80)')
    // so_no_provedor | so_no_site | valor
    .addColumn('tipo', 'varchar(30)', (c) => c.notNull())
    .addColumn('valor_provedor_centavos', 'integer')
    .addColumn('valor_site_centavos', 'integer')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addUniqueConstraint('pagamentos_divergencias_uq', ['dia', 'provedor_id', 'tipo'])
    .execute();

  for (const [name, type] of [
    ['cliente_provedor_id', 'varchar(80)'],
    ['assinatura_provedor_id', 'varchar(80)'],
    ['inadimplente_desde', 'varchar(30)'],
    ['atencao', 'varchar(300)'],
  ] as const)
    await db.schema.alterTable('matriculas').addColumn(name, type).execute();
  await db.schema
    .createIndex('matriculas_inadimplente_idx')
    .on('matriculas')
    .column('inadimplente_desde')
    .where(sql<boolean>`inadimplente_desde is not null`)
    .execute();
  for (const [name, type] of [
    ['vencimento', 'varchar(10)'],
    ['conferido_em', 'varchar(30)'],
  ] as const)
    await db.schema.alterTable('matriculas_pagamentos').addColumn(name, type).execute();
  await db.schema
    .createIndex('matriculas_pagamentos_provedor_idx')
    .on('matriculas_pagamentos')
    .column('provedor_id')
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('matriculas_pagamentos_provedor_idx').execute();
  await db.schema.dropIndex('matriculas_inadimplente_idx').execute();
  for (const c of ['vencimento', 'conferido_em'])
    await db.schema.alterTable('matriculas_pagamentos').dropColumn(c).execute();
  for (const c of ['cliente_provedor_id', 'assinatura_provedor_id', 'inadimplente_desde', 'atencao'])
    await db.schema.alterTable('matriculas').dropColumn(c).execute();
  await db.schema.dropTable('pagamentos_divergencias').ifExists().execute();
  await db.schema.dropTable('pagamentos_eventos').ifExists().execute();
}

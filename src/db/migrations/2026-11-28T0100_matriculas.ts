// Frozen in time: online enrolment (matrícula). Imports nothing from the app.
// - unidades: the unit's legal entity (a franchise unit is a company of its own), named on
//   the enrolment pages and in the contract;
// - planos_unidades: the prices and terms of a plan at a unit, in integer centavos;
// - contratos_versoes: every saved text of the contract template (a save is a new version);
// - matriculas: one enrolment, with what was accepted frozen on the row (prices, legal
//   entity, the exact contract text and its SHA-256) and the acceptance proof;
// - matriculas_pagamentos: charges and refunds (first payment, fine, refund), one row each;
// - matriculas_historico: every change of status, with who and when;
// - matriculas_acessos: the one-time links of "Minha matrícula" and the sessions they open.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const withId = (name: string) => {
    const table = db.schema.createTable(name);
    return pg
      ? table.addColumn('id', 'serial', (c) => c.primaryKey())
      : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };
  // SQLite adds one column per ALTER TABLE.
  const addColumns = async (
    table: string,
    columns: [string, 'integer' | 'varchar(20)' | 'varchar(160)' | 'varchar(300)', boolean][],
  ) => {
    for (const [name, type, zero] of columns)
      await db.schema
        .alterTable(table)
        .addColumn(name, type, (c) => (zero ? c.notNull().defaultTo(0) : c))
        .execute();
  };

  await addColumns('unidades', [
    ['razao_social', 'varchar(160)', false],
    ['cnpj', 'varchar(20)', false],
    // The registered address when it differs from the unit's own.
    ['endereco_juridico', 'varchar(300)', false],
  ]);
  await addColumns('planos_unidades', [
    // null = not sold online at this unit until staff set it
    ['mensalidade_centavos', 'integer', false],
    ['taxa_matricula_centavos', 'integer', true],
    ['taxa_anual_centavos', 'integer', true],
    // 1–12: the month the annual fee falls due (null = no annual fee)
    ['taxa_anual_mes', 'integer', false],
    ['fidelidade_meses', 'integer', true],
    // percentage of the monthly price × months left in the term
    ['multa_percentual', 'integer', true],
    ['venda_online', 'integer', true],
  ]);

  await withId('contratos_versoes')
    .addColumn('versao', 'integer', (c) => c.notNull().unique())
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();

  await withId('matriculas')
    // Unguessable key of the payment and status page.
    .addColumn('codigo', 'varchar(40)', (c) => c.notNull().unique())
    .addColumn('envio_id', 'varchar(64)', (c) => c.unique())
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id'))
    .addColumn('plano_id', 'integer', (c) => c.notNull().references('planos.id'))
    // aguardando_pagamento | ativa | expirada | desistencia | cancelamento_solicitado | cancelada
    .addColumn('status', 'varchar(30)', (c) => c.notNull())
    .addColumn('nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('cpf', 'varchar(11)', (c) => c.notNull())
    .addColumn('nascimento', 'varchar(10)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('whatsapp', 'varchar(20)')
    .addColumn('aceita_marketing', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('responsavel_nome', 'varchar(120)')
    .addColumn('responsavel_cpf', 'varchar(11)')
    // What was accepted, as it was then: later edits of the catalog never reach it.
    .addColumn('unidade_nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('plano_nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('razao_social', 'varchar(160)', (c) => c.notNull())
    .addColumn('cnpj', 'varchar(20)', (c) => c.notNull())
    .addColumn('endereco_juridico', 'varchar(300)', (c) => c.notNull())
    .addColumn('mensalidade_centavos', 'integer', (c) => c.notNull())
    .addColumn('taxa_matricula_centavos', 'integer', (c) => c.notNull())
    .addColumn('taxa_anual_centavos', 'integer', (c) => c.notNull())
    .addColumn('taxa_anual_mes', 'integer')
    .addColumn('taxa_anual_agora', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('primeiro_pagamento_centavos', 'integer', (c) => c.notNull())
    .addColumn('fidelidade_meses', 'integer', (c) => c.notNull())
    .addColumn('multa_percentual', 'integer', (c) => c.notNull())
    .addColumn('dia_vencimento', 'integer', (c) => c.notNull())
    .addColumn('contrato_versao', 'integer', (c) => c.notNull())
    .addColumn('contrato_texto', 'text', (c) => c.notNull())
    .addColumn('contrato_sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('aceito_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('aceite_ip', 'varchar(45)')
    .addColumn('aceite_user_agent', 'varchar(300)')
    // pix | asaas: the provider that takes the payments of this enrolment
    .addColumn('provedor', 'varchar(20)', (c) => c.notNull())
    .addColumn('expira_em', 'varchar(30)')
    .addColumn('ativada_em', 'varchar(30)')
    // São Paulo day the paid period ends (aaaa-mm-dd)
    .addColumn('pago_ate', 'varchar(10)')
    .addColumn('desistencia_em', 'varchar(30)')
    .addColumn('protocolo', 'varchar(30)', (c) => c.unique())
    .addColumn('cancelamento_solicitado_em', 'varchar(30)')
    .addColumn('cancelamento_efetivo_em', 'varchar(10)')
    .addColumn('multa_centavos', 'integer')
    .addColumn('recepcao_em', 'varchar(30)')
    .addColumn('recepcao_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('anonimizado_em', 'varchar(30)')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('matriculas_lista_idx').on('matriculas').columns(['criado_em', 'id']).execute();
  await db.schema.createIndex('matriculas_unidade_idx').on('matriculas').columns(['unidade_id', 'criado_em']).execute();
  await db.schema.createIndex('matriculas_email_idx').on('matriculas').column('email').execute();
  await db.schema.createIndex('matriculas_status_idx').on('matriculas').columns(['status', 'expira_em']).execute();
  // One enrolment in force per CPF and unit, whichever instance takes the second one.
  await db.schema
    .createIndex('matriculas_cpf_vigente_uq')
    .on('matriculas')
    .columns(['unidade_id', 'cpf'])
    .unique()
    .where(sql<boolean>`status in ('aguardando_pagamento', 'ativa', 'cancelamento_solicitado')`)
    .execute();

  await withId('matriculas_pagamentos')
    .addColumn('matricula_id', 'integer', (c) => c.notNull().references('matriculas.id'))
    // primeiro | mensalidade | multa | reembolso
    .addColumn('tipo', 'varchar(20)', (c) => c.notNull())
    .addColumn('valor_centavos', 'integer', (c) => c.notNull())
    // pendente | pago | cancelado | expirado | estornado | atrasado
    .addColumn('status', 'varchar(20)', (c) => c.notNull())
    .addColumn('provedor', 'varchar(20)', (c) => c.notNull())
    // The provider's id of the charge or refund, once known.
    .addColumn('provedor_id', 'varchar(80)')
    // Our reference sent with it (Pix txid, externalReference): a retry finds it again.
    .addColumn('referencia', 'varchar(80)', (c) => c.notNull().unique())
    // refunds: the day it must be made by
    .addColumn('prazo', 'varchar(30)')
    .addColumn('pago_em', 'varchar(30)')
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('matriculas_pagamentos_matricula_idx')
    .on('matriculas_pagamentos')
    .column('matricula_id')
    .execute();
  await db.schema
    .createIndex('matriculas_pagamentos_fila_idx')
    .on('matriculas_pagamentos')
    .columns(['status', 'tipo', 'prazo'])
    .execute();

  await withId('matriculas_historico')
    .addColumn('matricula_id', 'integer', (c) => c.notNull().references('matriculas.id'))
    .addColumn('de', 'varchar(30)')
    .addColumn('para', 'varchar(30)', (c) => c.notNull())
    // cliente | equipe | sistema | provedor
    .addColumn('origem', 'varchar(20)', (c) => c.notNull())
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('detalhe', 'varchar(300)')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('matriculas_historico_matricula_idx')
    .on('matriculas_historico')
    .column('matricula_id')
    .execute();

  await withId('matriculas_acessos')
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('expira_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('usado_em', 'varchar(30)')
    .addColumn('sessao_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('sessao_expira_em', 'varchar(30)')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'matriculas_acessos',
    'matriculas_historico',
    'matriculas_pagamentos',
    'matriculas',
    'contratos_versoes',
  ])
    await db.schema.dropTable(t).ifExists().execute();
  for (const c of [
    'mensalidade_centavos',
    'taxa_matricula_centavos',
    'taxa_anual_centavos',
    'taxa_anual_mes',
    'fidelidade_meses',
    'multa_percentual',
    'venda_online',
  ])
    await db.schema.alterTable('planos_unidades').dropColumn(c).execute();
  for (const c of ['razao_social', 'cnpj', 'endereco_juridico'])
    await db.schema.alterTable('unidades').dropColumn(c).execute();
}

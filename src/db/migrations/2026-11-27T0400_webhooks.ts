// Frozen in time: outgoing webhooks (Standard Webhooks). The endpoints the admins
// subscribe, and the delivery outbox: one row per (event, endpoint), written in the same
// transaction as the record that caused it. Imports nothing from the app; runs on SQLite
// and PostgreSQL.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (name: string) => {
    const t = db.schema.createTable(name);
    return pg
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };

  await id('webhook_endpoints')
    .addColumn('url', 'varchar(500)', (c) => c.notNull())
    // ",lead.criado,mensagem.recebida,": commas around every name, so one LIKE finds a type
    .addColumn('eventos', 'varchar(1000)', (c) => c.notNull())
    // whsec_ + base64 of the key; shown once to the admin, kept to sign
    .addColumn('segredo', 'varchar(100)', (c) => c.notNull())
    .addColumn('ativo', 'integer', (c) => c.notNull().defaultTo(1))
    // first failed attempt since the last success: after 3 days the endpoint is switched off
    .addColumn('falhando_desde', 'varchar(30)')
    .addColumn('desativado_em', 'varchar(30)')
    .addColumn('desativado_motivo', 'varchar(300)')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();

  await id('webhook_entregas')
    .addColumn('endpoint_id', 'integer', (c) => c.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    // the webhook-id header: the same on every attempt of this (event, endpoint)
    .addColumn('mensagem_id', 'varchar(100)', (c) => c.notNull().unique())
    .addColumn('evento', 'varchar(60)', (c) => c.notNull())
    // the record that caused it, e.g. "fale_aqui:12": what erasure of personal data looks for
    .addColumn('origem', 'varchar(60)')
    // the JSON body as sent; holds personal data (names, contacts, message text)
    .addColumn('payload_json', 'text', (c) => c.notNull())
    // pendente | enviando | entregue | falhou
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pendente'))
    .addColumn('tentativas', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('proxima_tentativa_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('bloqueado_ate', 'varchar(30)')
    // the claim that holds it: a worker whose lease ran out cannot record over a newer claim
    .addColumn('bloqueio', 'varchar(40)')
    // ok | http | redirecionamento | tempo_esgotado | conexao | endereco_recusado
    .addColumn('ultimo_resultado', 'varchar(30)')
    .addColumn('ultimo_codigo', 'integer')
    .addColumn('ultima_duracao_ms', 'integer')
    .addColumn('ultima_resposta', 'text')
    .addColumn('ultimo_erro', 'varchar(500)')
    .addColumn('ultima_tentativa_em', 'varchar(30)')
    .addColumn('entregue_em', 'varchar(30)')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('webhook_entregas_fila_idx')
    .on('webhook_entregas')
    .columns(['status', 'proxima_tentativa_em'])
    .execute();
  await db.schema
    .createIndex('webhook_entregas_endpoint_idx')
    .on('webhook_entregas')
    .columns(['endpoint_id', 'id'])
    .execute();
  await db.schema.createIndex('webhook_entregas_origem_idx').on('webhook_entregas').column('origem').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_entregas').ifExists().execute();
  await db.schema.dropTable('webhook_endpoints').ifExists().execute();
}

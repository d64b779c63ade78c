// Frozen in time: working a free message to the end. Statuses become nova → lida →
// respondida → resolvida (the message is "a mensagem"), every change is kept with who and
// when, replies are kept in the message's thread, and an outbox row may carry a Reply-To.
// Imports nothing from the app.
import { type Kysely, PostgresAdapter, sql } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (name: string) => {
    const t = db.schema.createTable(name);
    return pg
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };

  await db.schema.alterTable('fale_aqui').addColumn('lida_em', 'varchar(30)').execute();
  await db.schema
    .alterTable('fale_aqui')
    .addColumn('lida_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .execute();
  // First reply sent (e-mail or WhatsApp): time to first reply, unanswered messages.
  await db.schema.alterTable('fale_aqui').addColumn('primeira_resposta_em', 'varchar(30)').execute();
  for (const [from, to] of [
    ['novo', 'nova'],
    ['lido', 'lida'],
    ['resolvido', 'resolvida'],
  ]) {
    await sql`update fale_aqui set status = ${to} where status = ${from}`.execute(db);
  }
  // Messages read before this change have no reader: they count as read at their last update.
  await sql`update fale_aqui set lida_em = atualizado_em where status <> 'nova'`.execute(db);

  await id('fale_aqui_historico')
    .addColumn('fale_aqui_id', 'integer', (c) => c.notNull().references('fale_aqui.id').onDelete('cascade'))
    .addColumn('status_de', 'varchar(20)')
    .addColumn('status_para', 'varchar(20)', (c) => c.notNull())
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fale_aqui_historico_msg_idx').on('fale_aqui_historico').column('fale_aqui_id').execute();

  await id('fale_aqui_respostas')
    .addColumn('fale_aqui_id', 'integer', (c) => c.notNull().references('fale_aqui.id').onDelete('cascade'))
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    // email | whatsapp
    .addColumn('canal', 'varchar(20)', (c) => c.notNull())
    .addColumn('destinatario', 'varchar(254)')
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('fila_email_id', 'integer')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fale_aqui_respostas_msg_idx').on('fale_aqui_respostas').column('fale_aqui_id').execute();
  await db.schema.createIndex('fale_aqui_status_idx').on('fale_aqui').columns(['status', 'criado_em']).execute();

  await db.schema.alterTable('fila_emails').addColumn('responder_para', 'varchar(254)').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('fila_emails').dropColumn('responder_para').execute();
  await db.schema.dropIndex('fale_aqui_status_idx').ifExists().execute();
  await db.schema.dropTable('fale_aqui_respostas').ifExists().execute();
  await db.schema.dropTable('fale_aqui_historico').ifExists().execute();
  for (const [from, to] of [
    ['nova', 'novo'],
    ['lida', 'lido'],
    ['respondida', 'lido'],
    ['resolvida', 'resolvido'],
  ]) {
    await sql`update fale_aqui set status = ${to} where status = ${from}`.execute(db);
  }
  await db.schema.alterTable('fale_aqui').dropColumn('primeira_resposta_em').execute();
  await db.schema.alterTable('fale_aqui').dropColumn('lida_por').execute();
  await db.schema.alterTable('fale_aqui').dropColumn('lida_em').execute();
}

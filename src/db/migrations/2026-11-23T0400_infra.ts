// Frozen in time: production with several instances (issue 9). Rate-limit counters every
// instance shares, and mail priority + a stable Message-ID per outbox row. Imports nothing
// from the app; runs on SQLite and PostgreSQL.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  // One row per key and fixed window; the count is bumped by one atomic upsert.
  await db.schema
    .createTable('limites')
    .addColumn('chave', 'varchar(200)', (c) => c.notNull())
    // window start and end, epoch milliseconds
    .addColumn('janela', 'bigint', (c) => c.notNull())
    .addColumn('expira_em', 'bigint', (c) => c.notNull())
    .addColumn('contagem', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('limites_pk', ['chave', 'janela'])
    .execute();
  await db.schema.createIndex('limites_expira_idx').on('limites').column('expira_em').execute();

  // 0 = notifications to the chain (claimed first), 10 = bulk (lead notices, digests).
  await db.schema
    .alterTable('fila_emails')
    .addColumn('prioridade', 'integer', (c) => c.notNull().defaultTo(10))
    .execute();
  // Set once, before the first attempt; every resend carries the same Message-ID.
  await db.schema.alterTable('fila_emails').addColumn('message_id', 'varchar(200)').execute();
  await db.schema
    .createIndex('fila_emails_fila_idx')
    .on('fila_emails')
    .columns(['status', 'prioridade', 'proxima_tentativa_em'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('fila_emails_fila_idx').ifExists().execute();
  await db.schema.alterTable('fila_emails').dropColumn('message_id').execute();
  await db.schema.alterTable('fila_emails').dropColumn('prioridade').execute();
  await db.schema.dropTable('limites').ifExists().execute();
}

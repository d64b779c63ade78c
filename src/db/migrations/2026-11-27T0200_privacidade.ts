// Frozen in time: the data subjects' requests (LGPD art. 18) and the one-time links of
// "Meus dados". Imports nothing from the app; runs on SQLite and PostgreSQL.
// - privacidade_solicitacoes: one row per request (access, portability, correction,
//   erasure, ...), its legal deadline, its status with who and when; envio_id unique makes a
//   double submit one request;
// - privacidade_acessos: a link e-mailed to an address (only the sha256 of its token), and
//   once opened the browser's session on the person's page (only the sha256 of its cookie).
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = (name: string) => {
    const t = db.schema.createTable(name);
    return pg
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  };

  await id('privacidade_solicitacoes')
    // acesso | portabilidade | correcao | eliminacao | ... (checked by the app)
    .addColumn('tipo', 'varchar(20)', (c) => c.notNull())
    // aberta | concluida | recusada
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('aberta'))
    // site (the person, through the link) | equipe (staff, for someone who called or came in)
    .addColumn('canal', 'varchar(20)', (c) => c.notNull())
    // the person; both emptied when the person's data is erased
    .addColumn('email', 'varchar(254)')
    .addColumn('telefone', 'varchar(20)')
    // how the queue names the person once the address is gone, e.g. "m•••@exemplo.com.br"
    .addColumn('titular', 'varchar(300)', (c) => c.notNull())
    // what the person asked (a correction) or the staff's note on opening it
    .addColumn('texto', 'text')
    .addColumn('envio_id', 'varchar(64)', (c) => c.unique())
    // the legal deadline: 15 days after it came
    .addColumn('prazo_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('aberta_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('concluida_em', 'varchar(30)')
    .addColumn('concluida_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    // the reason of a refusal, or the staff's note on concluding
    .addColumn('motivo', 'varchar(1000)')
    // JSON: what an erasure did (tables and counts, never the values)
    .addColumn('resultado', 'text')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('privacidade_solicitacoes_fila_idx')
    .on('privacidade_solicitacoes')
    .columns(['status', 'prazo_em'])
    .execute();

  await id('privacidade_acessos')
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('expira_em', 'varchar(30)', (c) => c.notNull())
    // the link is used once: opening it starts a short session on the person's page
    .addColumn('usado_em', 'varchar(30)')
    .addColumn('sessao_hash', 'varchar(64)', (c) => c.unique())
    .addColumn('sessao_expira_em', 'varchar(30)')
    .execute();
  await db.schema.createIndex('privacidade_acessos_expira_idx').on('privacidade_acessos').column('expira_em').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('privacidade_acessos').ifExists().execute();
  await db.schema.dropTable('privacidade_solicitacoes').ifExists().execute();
}

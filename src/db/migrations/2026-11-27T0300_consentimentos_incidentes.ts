// Frozen in time: proof of consent and the register of security incidents (LGPD art. 8 §2,
// ANPD Resolution 15/2024). Imports nothing from the app.
// - consentimentos: one row per consent given on a form, written in the submission's own
//   transaction: the purpose, the version of the text shown, when, the channel, the
//   contact it covers and the record it came with; revogado_em once the person revokes it.
// - incidentes: one row per security incident, kept at least five years.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const id = <T extends { addColumn: any }>(t: T): T =>
    pg
      ? t.addColumn('id', 'serial', (c: any) => c.primaryKey())
      : t.addColumn('id', 'integer', (c: any) => c.primaryKey().autoIncrement());

  await id(db.schema.createTable('consentimentos'))
    // franquia | aula_experimental | fale_aqui
    .addColumn('finalidade', 'varchar(30)', (c) => c.notNull())
    .addColumn('versao', 'integer', (c) => c.notNull())
    .addColumn('aceito_em', 'varchar(30)', (c) => c.notNull())
    // site | cartaz | quiosque
    .addColumn('canal', 'varchar(20)', (c) => c.notNull())
    // lower-case e-mail and +55… phone the consent covers (either may be absent)
    .addColumn('email', 'varchar(254)')
    .addColumn('telefone', 'varchar(20)')
    // the record stored with it, e.g. franquia_leads / 12
    .addColumn('tabela', 'varchar(40)', (c) => c.notNull())
    .addColumn('registro_id', 'integer', (c) => c.notNull())
    .addColumn('revogado_em', 'varchar(30)')
    // the staff account that recorded a revocation; null when the person did it themselves
    .addColumn('revogado_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .execute();
  await db.schema.createIndex('consentimentos_email_idx').on('consentimentos').column('email').execute();
  await db.schema.createIndex('consentimentos_telefone_idx').on('consentimentos').column('telefone').execute();
  await db.schema
    .createIndex('consentimentos_registro_idx')
    .on('consentimentos')
    .columns(['tabela', 'registro_id'])
    .execute();

  await id(db.schema.createTable('incidentes'))
    // aaaa-mm-dd
    .addColumn('constatado_em', 'varchar(10)', (c) => c.notNull())
    .addColumn('descricao', 'text', (c) => c.notNull())
    .addColumn('dados_afetados', 'text', (c) => c.notNull())
    .addColumn('titulares_afetados', 'text', (c) => c.notNull())
    .addColumn('quantidade_titulares', 'integer')
    // baixo | medio | alto
    .addColumn('risco', 'varchar(10)', (c) => c.notNull())
    .addColumn('medidas', 'text', (c) => c.notNull())
    .addColumn('anpd_comunicada_em', 'varchar(10)')
    .addColumn('titulares_comunicados_em', 'varchar(10)')
    .addColumn('criado_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('incidentes_criado_idx').on('incidentes').column('criado_em').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('incidentes').ifExists().execute();
  await db.schema.dropTable('consentimentos').ifExists().execute();
}

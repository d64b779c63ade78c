// Frozen in time: trial-class bookings (issue 14). Imports nothing from the app.
// - unidades.vagas_experimentais: trial guests a class (or free-training slot) takes;
// - aulas_experimentais: one row per booking; envio_id unique makes a double submit one
//   booking; lembrete_em is set in the transaction that queues the reminder (exactly once);
// - aulas_experimentais_vagas: one counter row per slot, raised by a conditional UPDATE
//   (reservados < capacity), so concurrent bookings never exceed the capacity.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .alterTable('unidades')
    .addColumn('vagas_experimentais', 'integer', (c) => c.notNull().defaultTo(3))
    .execute();

  const table = db.schema.createTable('aulas_experimentais');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id'))
    // The class of the timetable (null for free training, or once the class was removed).
    .addColumn('aula_id', 'integer', (c) => c.references('aulas.id').onDelete('set null'))
    // aula:<aula_id>:<aaaa-mm-dd> | livre:<aaaa-mm-dd>:<HH:MM>
    .addColumn('vaga', 'varchar(60)', (c) => c.notNull())
    // What was booked, copied: the timetable may change later.
    .addColumn('atividade', 'varchar(120)', (c) => c.notNull())
    .addColumn('inicio_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('fim_em', 'varchar(30)', (c) => c.notNull())
    // São Paulo day of the class, aaaa-mm-dd (staff list by day).
    .addColumn('dia', 'varchar(10)', (c) => c.notNull())
    .addColumn('nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('whatsapp', 'varchar(20)')
    .addColumn('email', 'varchar(254)')
    .addColumn('aceita_contato', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('envio_id', 'varchar(64)', (c) => c.notNull().unique())
    // Unguessable key of the thanks page and the .ics file.
    .addColumn('codigo', 'varchar(40)', (c) => c.notNull().unique())
    // agendado | compareceu | nao_compareceu | matriculou
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('agendado'))
    .addColumn('status_por', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('lembrete_em', 'varchar(30)')
    .addColumn('anonimizado_em', 'varchar(30)')
    // Monday (São Paulo) of the week the booking was made, aaaa-mm-dd: the funnel groups by it.
    .addColumn('semana', 'varchar(10)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('aulas_experimentais_dia_idx')
    .on('aulas_experimentais')
    .columns(['unidade_id', 'dia'])
    .execute();
  await db.schema
    .createIndex('aulas_experimentais_semana_idx')
    .on('aulas_experimentais')
    .columns(['semana', 'unidade_id'])
    .execute();
  await db.schema
    .createIndex('aulas_experimentais_whatsapp_idx')
    .on('aulas_experimentais')
    .columns(['unidade_id', 'whatsapp'])
    .execute();
  await db.schema.createIndex('aulas_experimentais_inicio_idx').on('aulas_experimentais').column('inicio_em').execute();

  await db.schema
    .createTable('aulas_experimentais_vagas')
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id'))
    .addColumn('vaga', 'varchar(60)', (c) => c.notNull())
    .addColumn('reservados', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('aulas_experimentais_vagas_pk', ['unidade_id', 'vaga'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('aulas_experimentais_vagas').ifExists().execute();
  await db.schema.dropTable('aulas_experimentais').ifExists().execute();
  await db.schema.alterTable('unidades').dropColumn('vagas_experimentais').execute();
}

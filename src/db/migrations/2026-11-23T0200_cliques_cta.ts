// Frozen in time: calls to action clicked on the public site, counted on the server (no
// tracker, no cookie), the first step of the conversion funnel. Imports nothing from the app.
import { type Kysely, PostgresAdapter } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable('cliques_cta');
  await (pg
    ? table.addColumn('id', 'serial', (c) => c.primaryKey())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('unidade_id', 'integer', (c) => c.references('unidades.id').onDelete('cascade'))
    // matricula | aula_experimental | whatsapp | beneficio | plano | ... (checked by the app)
    .addColumn('acao', 'varchar(40)', (c) => c.notNull())
    .addColumn('plano_id', 'integer')
    // Monday of the click's week in São Paulo (aaaa-mm-dd): weekly reports group by it.
    .addColumn('semana', 'varchar(10)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('cliques_cta_semana_idx').on('cliques_cta').columns(['semana', 'unidade_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cliques_cta').ifExists().execute();
}

// Frozen in time: this file must keep producing the same schema forever, so it imports
// nothing from the app and takes Kysely<any>. It runs on SQLite and PostgreSQL.
import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely';

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  // An auto-increment primary key on either engine.
  const id = <T extends string>(t: CreateTableBuilder<T, never>) =>
    pg
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const flag = (def: number) => (c: ColumnDefinitionBuilder) => c.notNull().defaultTo(def);

  await id(db.schema.createTable('unidades'))
    .addColumn('nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('slug', 'varchar(140)', (c) => c.notNull().unique())
    .addColumn('cidade', 'varchar(120)', (c) => c.notNull())
    .addColumn('uf', 'varchar(2)', (c) => c.notNull())
    .addColumn('bairro', 'varchar(120)', (c) => c.notNull())
    .addColumn('endereco', 'varchar(255)', (c) => c.notNull())
    .addColumn('cep', 'varchar(9)')
    .addColumn('telefone', 'varchar(20)')
    .addColumn('whatsapp', 'varchar(20)')
    .addColumn('email', 'varchar(254)')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('descricao', 'text')
    .addColumn('beneficio_nome', 'varchar(80)')
    .addColumn('beneficio_url', 'varchar(500)')
    .addColumn('ativo', 'integer', flag(1))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('unidade_horarios'))
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addColumn('dia_semana', 'integer', (c) => c.notNull())
    .addColumn('abre', 'varchar(5)', (c) => c.notNull())
    .addColumn('fecha', 'varchar(5)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('unidade_horarios_unidade_idx')
    .on('unidade_horarios')
    .columns(['unidade_id', 'dia_semana'])
    .execute();

  await id(db.schema.createTable('planos'))
    .addColumn('nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('descricao', 'text')
    .addColumn('preco_centavos', 'integer', (c) => c.notNull())
    .addColumn('periodicidade', 'varchar(20)', (c) => c.notNull())
    .addColumn('ativo', 'integer', flag(1))
    .addColumn('ordem', 'integer', flag(0))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('planos_unidades')
    .addColumn('plano_id', 'integer', (c) => c.notNull().references('planos.id').onDelete('cascade'))
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('planos_unidades_pk', ['plano_id', 'unidade_id'])
    .execute();
  await db.schema.createIndex('planos_unidades_unidade_idx').on('planos_unidades').column('unidade_id').execute();

  await id(db.schema.createTable('areas'))
    .addColumn('nome', 'varchar(120)', (c) => c.notNull().unique())
    .addColumn('ativo', 'integer', flag(1))
    .execute();
  await db.schema
    .createTable('unidades_areas')
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addColumn('area_id', 'integer', (c) => c.notNull().references('areas.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('unidades_areas_pk', ['unidade_id', 'area_id'])
    .execute();

  await id(db.schema.createTable('modalidades'))
    .addColumn('nome', 'varchar(120)', (c) => c.notNull().unique())
    .addColumn('descricao', 'text')
    .addColumn('ativo', 'integer', flag(1))
    .execute();
  await db.schema
    .createTable('unidades_modalidades')
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addColumn('modalidade_id', 'integer', (c) => c.notNull().references('modalidades.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('unidades_modalidades_pk', ['unidade_id', 'modalidade_id'])
    .execute();

  await id(db.schema.createTable('aulas'))
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addColumn('modalidade_id', 'integer', (c) => c.notNull().references('modalidades.id'))
    .addColumn('dia_semana', 'integer', (c) => c.notNull())
    .addColumn('inicio', 'varchar(5)', (c) => c.notNull())
    .addColumn('fim', 'varchar(5)', (c) => c.notNull())
    .addColumn('professor', 'varchar(120)')
    .addColumn('sala', 'varchar(120)')
    .execute();
  await db.schema
    .createIndex('aulas_unidade_idx')
    .on('aulas')
    .columns(['unidade_id', 'dia_semana', 'inicio'])
    .execute();

  await id(db.schema.createTable('perguntas'))
    .addColumn('texto', 'varchar(500)', (c) => c.notNull())
    .addColumn('tipo', 'varchar(20)', (c) => c.notNull())
    .addColumn('obrigatoria', 'integer', flag(0))
    .addColumn('ordem', 'integer', flag(0))
    .addColumn('ativo', 'integer', flag(1))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();

  await id(db.schema.createTable('perguntas_opcoes'))
    .addColumn('pergunta_id', 'integer', (c) => c.notNull().references('perguntas.id'))
    .addColumn('texto', 'varchar(200)', (c) => c.notNull())
    .addColumn('valor', 'integer')
    .addColumn('ordem', 'integer', flag(0))
    .addColumn('ativo', 'integer', flag(1))
    .execute();
  await db.schema.createIndex('perguntas_opcoes_pergunta_idx').on('perguntas_opcoes').column('pergunta_id').execute();

  await id(db.schema.createTable('respostas_nps'))
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id'))
    .addColumn('nome_cliente', 'varchar(120)')
    .addColumn('contato_cliente', 'varchar(254)')
    .addColumn('comentario', 'text')
    .addColumn('nota_nps', 'integer')
    .addColumn('envio_id', 'varchar(64)', (c) => c.unique())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('respostas_nps_unidade_idx')
    .on('respostas_nps')
    .columns(['unidade_id', 'criado_em'])
    .execute();
  await db.schema.createIndex('respostas_nps_criado_idx').on('respostas_nps').column('criado_em').execute();

  await id(db.schema.createTable('respostas_itens'))
    .addColumn('resposta_id', 'integer', (c) => c.notNull().references('respostas_nps.id').onDelete('cascade'))
    .addColumn('pergunta_id', 'integer', (c) => c.notNull().references('perguntas.id'))
    .addColumn('opcao_id', 'integer', (c) => c.references('perguntas_opcoes.id'))
    .addColumn('texto', 'text')
    .addColumn('texto_ok', 'integer', flag(0))
    .execute();
  await db.schema.createIndex('respostas_itens_resposta_idx').on('respostas_itens').column('resposta_id').execute();
  await db.schema
    .createIndex('respostas_itens_pergunta_idx')
    .on('respostas_itens')
    .columns(['pergunta_id', 'opcao_id'])
    .execute();

  await id(db.schema.createTable('fale_aqui'))
    .addColumn('unidade_id', 'integer', (c) => c.references('unidades.id'))
    .addColumn('unidade', 'varchar(120)', (c) => c.notNull())
    .addColumn('nome_completo', 'varchar(120)', (c) => c.notNull())
    .addColumn('anonimo', 'integer', flag(0))
    .addColumn('mensagem', 'text', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('novo'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fale_aqui_unidade_idx').on('fale_aqui').columns(['unidade_id', 'criado_em']).execute();

  await id(db.schema.createTable('fale_aqui_arquivos'))
    .addColumn('fale_aqui_id', 'integer', (c) => c.notNull().references('fale_aqui.id').onDelete('cascade'))
    .addColumn('caminho', 'varchar(255)', (c) => c.notNull().unique())
    .addColumn('nome_original', 'varchar(255)')
    .addColumn('tipo', 'varchar(50)', (c) => c.notNull())
    .addColumn('tamanho', 'integer', (c) => c.notNull())
    .addColumn('largura', 'integer', (c) => c.notNull())
    .addColumn('altura', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'varchar(64)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('fale_aqui_arquivos_msg_idx').on('fale_aqui_arquivos').column('fale_aqui_id').execute();

  await id(db.schema.createTable('franquia_leads'))
    .addColumn('nome_completo', 'varchar(120)', (c) => c.notNull())
    .addColumn('whatsapp', 'varchar(20)', (c) => c.notNull())
    .addColumn('email', 'varchar(254)', (c) => c.notNull())
    .addColumn('cidade_regiao', 'varchar(120)', (c) => c.notNull())
    .addColumn('investimento_parceria', 'varchar(40)', (c) => c.notNull())
    .addColumn('faixa_investimento', 'varchar(40)', (c) => c.notNull())
    .addColumn('prazo_proximo_passo', 'varchar(40)', (c) => c.notNull())
    .addColumn('experiencia_negocio', 'varchar(40)', (c) => c.notNull())
    .addColumn('motivo_interesse', 'varchar(40)', (c) => c.notNull())
    .addColumn('aceita_contato', 'varchar(40)', (c) => c.notNull())
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('novo'))
    .addColumn('busca', 'varchar(700)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('franquia_leads_criado_idx').on('franquia_leads').columns(['criado_em', 'id']).execute();
  await db.schema
    .createIndex('franquia_leads_status_idx')
    .on('franquia_leads')
    .columns(['status', 'criado_em'])
    .execute();

  await id(db.schema.createTable('usuarios'))
    .addColumn('email', 'varchar(254)', (c) => c.notNull().unique())
    .addColumn('nome', 'varchar(120)', (c) => c.notNull())
    .addColumn('senha_hash', 'varchar(255)', (c) => c.notNull())
    .addColumn('papel', 'varchar(20)', (c) => c.notNull().defaultTo('admin'))
    .addColumn('ativo', 'integer', flag(1))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('atualizado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('usuarios_unidades')
    .addColumn('usuario_id', 'integer', (c) => c.notNull().references('usuarios.id').onDelete('cascade'))
    .addColumn('unidade_id', 'integer', (c) => c.notNull().references('unidades.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('usuarios_unidades_pk', ['usuario_id', 'unidade_id'])
    .execute();

  await id(db.schema.createTable('franquia_leads_historico'))
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('franquia_leads.id').onDelete('cascade'))
    .addColumn('status_de', 'varchar(20)')
    .addColumn('status_para', 'varchar(20)', (c) => c.notNull())
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('franquia_leads_historico_lead_idx')
    .on('franquia_leads_historico')
    .column('lead_id')
    .execute();

  await id(db.schema.createTable('franquia_leads_notas'))
    .addColumn('lead_id', 'integer', (c) => c.notNull().references('franquia_leads.id').onDelete('cascade'))
    .addColumn('usuario_id', 'integer', (c) => c.references('usuarios.id').onDelete('set null'))
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('franquia_leads_notas_lead_idx').on('franquia_leads_notas').column('lead_id').execute();

  await db.schema
    .createTable('sessoes')
    .addColumn('sid', 'varchar(128)', (c) => c.primaryKey())
    .addColumn('dados', 'text', (c) => c.notNull())
    .addColumn('expira_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessoes_expira_idx').on('sessoes').column('expira_em').execute();

  await id(db.schema.createTable('tentativas_login'))
    .addColumn('chave', 'varchar(300)', (c) => c.notNull())
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('tentativas_login_chave_idx')
    .on('tentativas_login')
    .columns(['chave', 'criado_em'])
    .execute();

  await id(db.schema.createTable('fila_emails'))
    .addColumn('destinatario', 'varchar(254)', (c) => c.notNull())
    .addColumn('assunto', 'varchar(300)', (c) => c.notNull())
    .addColumn('texto', 'text', (c) => c.notNull())
    .addColumn('html', 'text')
    .addColumn('anexos', 'text')
    .addColumn('status', 'varchar(20)', (c) => c.notNull().defaultTo('pendente'))
    .addColumn('tentativas', 'integer', flag(0))
    .addColumn('proxima_tentativa_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('bloqueado_ate', 'varchar(30)')
    .addColumn('ultimo_erro', 'text')
    .addColumn('origem', 'varchar(60)')
    .addColumn('criado_em', 'varchar(30)', (c) => c.notNull())
    .addColumn('enviado_em', 'varchar(30)')
    .execute();
  await db.schema
    .createIndex('fila_emails_status_idx')
    .on('fila_emails')
    .columns(['status', 'proxima_tentativa_em'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const t of [
    'fila_emails',
    'tentativas_login',
    'sessoes',
    'franquia_leads_notas',
    'franquia_leads_historico',
    'usuarios_unidades',
    'usuarios',
    'franquia_leads',
    'fale_aqui_arquivos',
    'fale_aqui',
    'respostas_itens',
    'respostas_nps',
    'perguntas_opcoes',
    'perguntas',
    'aulas',
    'unidades_modalidades',
    'modalidades',
    'unidades_areas',
    'areas',
    'planos_unidades',
    'planos',
    'unidade_horarios',
    'unidades',
  ]) {
    await db.schema.dropTable(t).ifExists().execute();
  }
}

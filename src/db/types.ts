// Row types of every table. Portable across SQLite and PostgreSQL:
// - booleans are integers 0/1 (SQLite has no boolean type);
// - timestamps are ISO-8601 UTC text ("2026-11-22T01:31:12.000Z"), which sorts and
//   compares correctly as text on both engines;
// - money is integer cents.
import type { ColumnType, Generated, Selectable } from 'kysely';

type Id = Generated<number>;
/** 0 or 1 */
export type Flag = number;

export interface UnidadesTable {
  id: Id;
  nome: string;
  slug: string;
  cidade: string;
  uf: string;
  bairro: string;
  endereco: string;
  cep: string | null;
  telefone: string | null;
  whatsapp: string | null;
  email: string | null;
  latitude: number | null;
  longitude: number | null;
  descricao: string | null;
  beneficio_nome: string | null;
  beneficio_url: string | null;
  /** the unit's legal entity, named on the enrolment pages and in the contract */
  razao_social: string | null;
  /** 14 digits */
  cnpj: string | null;
  /** the registered address, when it differs from the unit's */
  endereco_juridico: string | null;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
  criado_em: string;
  atualizado_em: string;
}

/** Opening hours: one row per weekday the unit opens (0 = domingo … 6 = sábado). */
export interface UnidadeHorariosTable {
  id: Id;
  unidade_id: number;
  dia_semana: number;
  abre: string; // "HH:MM"
  fecha: string; // "HH:MM"
}

export interface PlanosTable {
  id: Id;
  nome: string;
  descricao: string | null;
  preco_centavos: number;
  /** mensal | trimestral | semestral | anual */
  periodicidade: string;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
  ordem: ColumnType<number, number | undefined, number>;
  criado_em: string;
  atualizado_em: string;
}

type ZeroDefault = ColumnType<number, number | undefined, number>;

/** A plan offered at a unit, with its prices and terms there (integer centavos). */
export interface PlanosUnidadesTable {
  plano_id: number;
  unidade_id: number;
  /** null: not priced for online sale at this unit */
  mensalidade_centavos: number | null;
  taxa_matricula_centavos: ZeroDefault;
  taxa_anual_centavos: ZeroDefault;
  /** 1–12, the month the annual fee falls due; null without one */
  taxa_anual_mes: number | null;
  /** minimum term in months, 0 = none */
  fidelidade_meses: ZeroDefault;
  /** cancellation fine: this percentage of the monthly price for each month left in the term */
  multa_percentual: ZeroDefault;
  venda_online: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface AreasTable {
  id: Id;
  nome: string;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface UnidadesAreasTable {
  unidade_id: number;
  area_id: number;
}

export interface ModalidadesTable {
  id: Id;
  nome: string;
  descricao: string | null;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface UnidadesModalidadesTable {
  unidade_id: number;
  modalidade_id: number;
}

/** The weekly class timetable. */
export interface AulasTable {
  id: Id;
  unidade_id: number;
  modalidade_id: number;
  dia_semana: number; // 0 = domingo … 6 = sábado
  inicio: string; // "HH:MM"
  fim: string; // "HH:MM"
  professor: string | null;
  sala: string | null;
}

/** A class as the timetable screen and the booking slots read it: with its modality's name. */
export interface ClassRow {
  id: number;
  dia_semana: number;
  inicio: string;
  fim: string;
  modalidade: string;
  professor: string | null;
  sala: string | null;
}

export interface PerguntasTable {
  id: Id;
  texto: string;
  /** escala (0–10, NPS) | opcoes | texto */
  tipo: string;
  obrigatoria: ColumnType<Flag, Flag | undefined, Flag>;
  ordem: ColumnType<number, number | undefined, number>;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
  criado_em: string;
}

export interface PerguntasOpcoesTable {
  id: Id;
  pergunta_id: number;
  texto: string;
  /** numeric value of the option: 0–10 on the scale, a score on option lists */
  valor: number | null;
  ordem: ColumnType<number, number | undefined, number>;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
}

export interface RespostasNpsTable {
  id: Id;
  unidade_id: number;
  nome_cliente: string | null;
  contato_cliente: string | null;
  comentario: string | null;
  /** 0–10 answer to the scale question, copied here for the NPS arithmetic */
  nota_nps: number | null;
  /** one per rendered form: a double submit stores one response */
  envio_id: string | null;
  criado_em: string;
  /** a detractor's answer dealt with by staff (leaves the attention queue): when and who */
  tratada_em: ColumnType<string | null, string | null | undefined, string | null>;
  tratada_por: ColumnType<number | null, number | null | undefined, number | null>;
  /** site | cartaz | quiosque: the channel the answer came through */
  origem: ColumnType<string, string | undefined, string>;
}

export interface RespostasItensTable {
  id: Id;
  resposta_id: number;
  pergunta_id: number;
  opcao_id: number | null;
  texto: string | null;
  texto_ok: ColumnType<Flag, Flag | undefined, Flag>;
}

/** Derived survey figures per São Paulo day (AAAA-MM-DD) or month (AAAA-MM), unit and channel. */
export interface AgregadosNpsTable {
  periodo: string;
  unidade_id: number;
  origem: string;
  respostas: number;
  notas: number;
  promotores: number;
  detratores: number;
}

/** Clicks per week (the Monday, as cliques_cta.semana), unit and action. */
export interface AgregadosCliquesTable {
  semana: string;
  unidade_id: number;
  acao: string;
  n: number;
}

/**
 * Trial-class bookings per week (the Monday, as aulas_experimentais.semana) and unit, by status:
 * kept with each booking and each status change, so the funnel reads a row per unit and week.
 */
export interface AgregadosAgendamentosTable {
  semana: string;
  unidade_id: number;
  agendado: number;
  compareceu: number;
  nao_compareceu: number;
  matriculou: number;
}

/** How often each option was chosen, per São Paulo day or month and unit. */
export interface AgregadosOpcoesTable {
  periodo: string;
  unidade_id: number;
  pergunta_id: number;
  opcao_id: number;
  n: number;
}

export interface FaleAquiTable {
  id: Id;
  unidade_id: number | null;
  unidade: string;
  nome_completo: string;
  anonimo: ColumnType<Flag, Flag | undefined, Flag>;
  mensagem: string;
  /** optional contact the sender gave to be answered (e-mail, Brazilian phone as +55…) */
  contato_email: ColumnType<string | null, string | null | undefined, string | null>;
  contato_telefone: ColumnType<string | null, string | null | undefined, string | null>;
  /** 1 = the sender agreed to be contacted (required with a contact) */
  aceite_contato: ColumnType<Flag, Flag | undefined, Flag>;
  /** nova | lida | respondida | resolvida */
  status: ColumnType<string, string | undefined, string>;
  criado_em: string;
  atualizado_em: string;
  /** first opened by staff: when and who */
  lida_em: ColumnType<string | null, string | null | undefined, string | null>;
  lida_por: ColumnType<number | null, number | null | undefined, number | null>;
  /** when the first reply (e-mail or WhatsApp) was recorded */
  primeira_resposta_em: ColumnType<string | null, string | null | undefined, string | null>;
}

/** Every status change of a free message: who and when. */
export interface FaleAquiHistoricoTable {
  id: Id;
  fale_aqui_id: number;
  status_de: string | null;
  status_para: string;
  usuario_id: number | null;
  criado_em: string;
}

/** The staff side of a message's thread. */
export interface FaleAquiRespostasTable {
  id: Id;
  fale_aqui_id: number;
  usuario_id: number | null;
  /** email | whatsapp */
  canal: string;
  destinatario: string | null;
  texto: string;
  /** the outbox row of an e-mail reply */
  fila_email_id: number | null;
  criado_em: string;
}

export interface FaleAquiArquivosTable {
  id: Id;
  fale_aqui_id: number;
  /** the storage key (relative to UPLOADS_DIR, or arquivos.chave), e.g. fale_aqui/2026/11/3f…9a.jpg */
  caminho: string;
  nome_original: string | null;
  tipo: string;
  tamanho: number;
  largura: number;
  altura: number;
  sha256: string;
  criado_em: string;
}

/** Uploaded files with STORAGE_DRIVER=database (src/platform/storage/database-storage.ts). */
export interface ArquivosTable {
  chave: string;
  bytes: Buffer;
  tipo: string;
  tamanho: number;
  criado_em: string;
  /** null while temporary; set in the transaction that stores the row referencing the file */
  finalizado_em: string | null;
}

export interface FranquiaLeadsTable {
  id: Id;
  nome_completo: string;
  whatsapp: string;
  email: string;
  cidade_regiao: string;
  investimento_parceria: string;
  faixa_investimento: string;
  prazo_proximo_passo: string;
  experiencia_negocio: string;
  motivo_interesse: string;
  aceita_contato: string;
  /** novo | em_contato | qualificado | convertido | descartado */
  status: ColumnType<string, string | undefined, string>;
  /** lower-case, accent-free copy of name, e-mail, WhatsApp and city for the text filter */
  busca: string;
  criado_em: string;
  atualizado_em: string;
}

export interface FranquiaLeadsHistoricoTable {
  id: Id;
  lead_id: number;
  status_de: string | null;
  status_para: string;
  usuario_id: number | null;
  criado_em: string;
}

export interface FranquiaLeadsNotasTable {
  id: Id;
  lead_id: number;
  usuario_id: number | null;
  texto: string;
  criado_em: string;
}

export interface UsuariosTable {
  id: Id;
  email: string;
  nome: string;
  senha_hash: string;
  /** admin | gerente */
  papel: ColumnType<string, string | undefined, string>;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
  criado_em: string;
  atualizado_em: string;
  /** 1 = receives the weekly digest mail (default); the account can switch it off */
  resumo_semanal: ColumnType<Flag, Flag | undefined, Flag>;
}

/** One weekly digest per account and week (UNIQUE usuario_id + semana). */
/** Lease of a task that runs in one instance at a time (the scheduled backup). */
export interface TarefasAgendadasTable {
  nome: string;
  proxima_em: string;
  bloqueado_ate: string | null;
  dono: string | null;
  ultima_em: string | null;
  ultimo_erro: string | null;
}

export interface ResumosSemanaisTable {
  id: Id;
  usuario_id: number;
  /** Monday of the week in São Paulo, aaaa-mm-dd */
  semana: string;
  fila_email_id: number | null;
  criado_em: string;
}

export interface UsuariosUnidadesTable {
  usuario_id: number;
  unidade_id: number;
}

/** Staff sessions: one row per login, keyed by the sha256 of the cookie's value. */
export interface SessoesTable {
  id: string;
  usuario_id: number;
  dados: ColumnType<string, string | undefined, string>; // JSON
  /** login time: the absolute (12 h) expiry counts from here */
  criado_em: string;
  /** last request: the idle (30 min) expiry counts from here */
  visto_em: string;
  /** the earlier of the two expiries (purge and lookup) */
  expira_em: string;
}

/** Single-use password-reset links: only the sha256 of the token is stored. */
export interface SenhaRedefinicoesTable {
  id: Id;
  usuario_id: number;
  token_hash: string;
  criado_em: string;
  expira_em: string;
  usado_em: string | null;
}

export interface TentativasLoginTable {
  id: Id;
  /** "conta:<email>" or "ip:<address>" (login); "senha-conta:<email>" or "senha-ip:<address>" (reset requests) */
  chave: string;
  criado_em: string;
}

export interface FilaEmailsTable {
  id: Id;
  destinatario: string;
  assunto: string;
  texto: string;
  html: string | null;
  /** JSON array of { filename, path (relative to UPLOADS_DIR), contentType } */
  anexos: string | null;
  /** pendente | enviando | enviado | falhou */
  status: ColumnType<string, string | undefined, string>;
  tentativas: ColumnType<number, number | undefined, number>;
  proxima_tentativa_em: string;
  /** while status = enviando: the claim expires then, so a crashed worker's message is retried */
  bloqueado_ate: string | null;
  ultimo_erro: string | null;
  origem: string | null;
  criado_em: string;
  enviado_em: string | null;
  /** Reply-To header (e.g. the unit's e-mail on a reply to a customer) */
  responder_para: ColumnType<string | null, string | null | undefined, string | null>;
  /** 0 = notification to the chain (sent first), 10 = bulk; see mail/outbox.repository.ts */
  prioridade: ColumnType<number, number | undefined, number>;
  /** the Message-ID every attempt carries, set before the first one */
  message_id: string | null;
}

/** Rate-limit counters shared by every instance: one row per key and fixed window. */
export interface LimitesTable {
  chave: string;
  /** window start, epoch ms */
  janela: number;
  /** window end, epoch ms: the row can be pruned after it */
  expira_em: number;
  contagem: ColumnType<number, number | undefined, number>;
}

/** Audit log of staff changes to the content: who, when, what, before and after (JSON text). */
export interface AuditoriaTable {
  id: Id;
  usuario_id: number | null;
  /** criar | editar | ativar | desativar | excluir | importar | ... */
  acao: string;
  /** unidade | plano | area | modalidade | aula | grade | pergunta | opcao | usuario | catalogo */
  entidade: string;
  entidade_id: number | null;
  antes: string | null;
  depois: string | null;
  criado_em: string;
}

export interface UnidadeFotosTable {
  id: Id;
  unidade_id: number;
  /** position among the unit's photos: the lowest is the cover */
  ordem: number;
  alt: string;
  /** content hash (16 hex digits) in every file name and URL of the photo */
  hash: string;
  largura: number;
  altura: number;
  /** formats of its copies, e.g. "avif,webp,jpg"; photos from before AVIF: "webp,jpg" */
  formatos: Generated<string>;
  criado_em: string;
  atualizado_em: string;
}

/** One stored file (copy) of a unit photo: what the orphan sweep keeps (docs/decisions/150). */
export interface UnidadeFotosArquivosTable {
  /** the storage key, e.g. unidade_fotos/3/<16 hex>-960.webp */
  chave: string;
  foto_id: number;
}

export interface CliquesCtaTable {
  id: Id;
  unidade_id: number | null;
  /** matricula | aula_experimental | whatsapp | beneficio | plano | ... */
  acao: string;
  plano_id: number | null;
  /** Monday of the click's week in São Paulo, aaaa-mm-dd */
  semana: string;
  criado_em: string;
}

/** Public-form submissions already stored, by the form's envio_id (kept 24 h; docs/decisions/082). */
export interface EnviosTable {
  /** franquia | pesquisa | fale_aqui | aula_experimental */
  formulario: string;
  envio_id: string;
  registro_id: number | null;
  criado_em: string;
  /**
   * SHA-256 (hex) of the submission's normalised content; null on rows stored before it was
   * kept (docs/decisions/183)
   */
  impressao: string | null;
}

/**
 * unidades.vagas_experimentais (NOT NULL, default 3): trial guests a class or free-training
 * slot takes. Declared apart from UnidadesTable so the code that builds whole unit rows
 * (content, import) need not know it; the booking repository reads it through
 * `WithTrialCapacity`.
 */
export interface UnidadesTrialCapacityColumn {
  vagas_experimentais: ColumnType<number, number | undefined, number>;
}
export type WithTrialCapacity = Omit<Database, 'unidades'> & { unidades: UnidadesTable & UnidadesTrialCapacityColumn };

/** Trial-class bookings. */
export interface AulasExperimentaisTable {
  id: Id;
  unidade_id: number;
  aula_id: number | null;
  /** aula:<aula_id>:<aaaa-mm-dd> | livre:<aaaa-mm-dd>:<HH:MM> */
  vaga: string;
  /** modality name, or "Treino livre" */
  atividade: string;
  inicio_em: string;
  fim_em: string;
  /** São Paulo day of the class, aaaa-mm-dd */
  dia: string;
  nome: string;
  /** +55…; null once anonymised */
  whatsapp: string | null;
  email: string | null;
  aceita_contato: ColumnType<Flag, Flag | undefined, Flag>;
  envio_id: string;
  codigo: string;
  /** agendado | compareceu | nao_compareceu | matriculou */
  status: ColumnType<string, string | undefined, string>;
  status_por: number | null;
  lembrete_em: string | null;
  anonimizado_em: string | null;
  /** Monday (São Paulo) of the week the booking was made */
  semana: string;
  criado_em: string;
  atualizado_em: string;
}

/** Per-slot booking counters: raised only while reservados < the unit's capacity. */
export interface AulasExperimentaisVagasTable {
  unidade_id: number;
  vaga: string;
  reservados: ColumnType<number, number | undefined, number>;
}

/** A subscriber of outgoing webhooks (platform/webhooks). */
export interface WebhookEndpointsTable {
  id: Id;
  url: string;
  /** ",tipo,tipo,": commas around every event type */
  eventos: string;
  /** whsec_…: the signing secret */
  segredo: string;
  ativo: ColumnType<Flag, Flag | undefined, Flag>;
  falhando_desde: string | null;
  desativado_em: string | null;
  desativado_motivo: string | null;
  criado_em: string;
  atualizado_em: string;
}

/** Proof of consent given on a public form (LGPD art. 8 §2): which text, when, how, for whom. */
export interface ConsentimentosTable {
  id: Id;
  /** franquia | aula_experimental | fale_aqui (src/features/privacy/consent.ts) */
  finalidade: string;
  /** the version of the purpose's text shown next to the checkbox */
  versao: number;
  aceito_em: string;
  /** site | cartaz | quiosque */
  canal: string;
  /** lower-case e-mail the consent covers, or null */
  email: string | null;
  /** +55… phone the consent covers, or null */
  telefone: string | null;
  /** the record stored with the consent, e.g. franquia_leads / 12 */
  tabela: string;
  registro_id: number;
  revogado_em: ColumnType<string | null, string | null | undefined, string | null>;
  /** staff account that recorded the revocation; null when the person did it */
  revogado_por: ColumnType<number | null, number | null | undefined, number | null>;
}

/** Register of security incidents (ANPD Resolution 15/2024), kept at least five years. */
export interface IncidentesTable {
  id: Id;
  /** aaaa-mm-dd */
  constatado_em: string;
  descricao: string;
  dados_afetados: string;
  titulares_afetados: string;
  quantidade_titulares: number | null;
  /** baixo | medio | alto */
  risco: string;
  medidas: string;
  /** aaaa-mm-dd, or null when the ANPD was not told */
  anpd_comunicada_em: string | null;
  /** aaaa-mm-dd, or null when the people were not told */
  titulares_comunicados_em: string | null;
  criado_por: number | null;
  criado_em: string;
  atualizado_em: string;
}

/** Data subjects' requests (LGPD art. 18): kind, person, deadline, status with who and when. */
export interface PrivacidadeSolicitacoesTable {
  id: Id;
  /** acesso | portabilidade | correcao | eliminacao | ... */
  tipo: string;
  /** aberta | concluida | recusada */
  status: ColumnType<string, string | undefined, string>;
  /** site | equipe */
  canal: string;
  /** null once the person's data is erased */
  email: string | null;
  /** +55…; null once erased */
  telefone: string | null;
  /** masked name of the person for the queue, e.g. "m•••@exemplo.com.br" */
  titular: string;
  texto: string | null;
  envio_id: string | null;
  /** the legal deadline (15 days after criado_em) */
  prazo_em: string;
  aberta_por: number | null;
  concluida_em: string | null;
  concluida_por: number | null;
  motivo: string | null;
  /** JSON of what an erasure did: tables and counts */
  resultado: string | null;
  criado_em: string;
  atualizado_em: string;
}

/** The webhook outbox: one row per (event, endpoint). */
export interface WebhookEntregasTable {
  id: Id;
  endpoint_id: number;
  /** webhook-id header (msg_…), stable across retries */
  mensagem_id: string;
  evento: string;
  /** the record that caused it ("fale_aqui:12"), for erasure */
  origem: string | null;
  /** the JSON body sent; contains personal data */
  payload_json: string;
  /** pendente | enviando | entregue | falhou */
  status: ColumnType<string, string | undefined, string>;
  tentativas: ColumnType<number, number | undefined, number>;
  proxima_tentativa_em: string;
  bloqueado_ate: string | null;
  bloqueio: string | null;
  /** ok | http | redirecionamento | tempo_esgotado | conexao | endereco_recusado */
  ultimo_resultado: string | null;
  ultimo_codigo: number | null;
  ultima_duracao_ms: number | null;
  ultima_resposta: string | null;
  ultimo_erro: string | null;
  ultima_tentativa_em: string | null;
  entregue_em: string | null;
  criado_em: string;
}

/** "Meus dados" links (sha256 of the token) and, once opened, the page's session (sha256 of the cookie). */
export interface PrivacidadeAcessosTable {
  id: Id;
  email: string;
  token_hash: string;
  criado_em: string;
  expira_em: string;
  usado_em: string | null;
  sessao_hash: string | null;
  sessao_expira_em: string | null;
}

/** Every saved text of the contract template; the highest version is the one offered. */
export interface ContratosVersoesTable {
  id: Id;
  versao: number;
  texto: string;
  usuario_id: number | null;
  criado_em: string;
}

/** aguardando_pagamento | ativa | expirada | desistencia | cancelamento_solicitado | cancelada */
export type EnrolmentStatus =
  | 'aguardando_pagamento'
  | 'ativa'
  | 'expirada'
  | 'desistencia'
  | 'cancelamento_solicitado'
  | 'cancelada';

/** An online enrolment, with what was accepted frozen on it. */
export interface MatriculasTable {
  id: Id;
  codigo: string;
  envio_id: string | null;
  unidade_id: number;
  plano_id: number;
  status: EnrolmentStatus;
  nome: string;
  cpf: string;
  nascimento: string;
  email: string;
  whatsapp: string | null;
  aceita_marketing: ZeroDefault;
  responsavel_nome: string | null;
  responsavel_cpf: string | null;
  unidade_nome: string;
  plano_nome: string;
  razao_social: string;
  cnpj: string;
  endereco_juridico: string;
  mensalidade_centavos: number;
  taxa_matricula_centavos: number;
  taxa_anual_centavos: number;
  taxa_anual_mes: number | null;
  taxa_anual_agora: ZeroDefault;
  primeiro_pagamento_centavos: number;
  fidelidade_meses: number;
  multa_percentual: number;
  dia_vencimento: number;
  contrato_versao: number;
  contrato_texto: string;
  contrato_sha256: string;
  aceito_em: string;
  aceite_ip: string | null;
  aceite_user_agent: string | null;
  provedor: string;
  expira_em: string | null;
  ativada_em: string | null;
  pago_ate: string | null;
  desistencia_em: string | null;
  protocolo: string | null;
  cancelamento_solicitado_em: string | null;
  cancelamento_efetivo_em: string | null;
  multa_centavos: number | null;
  recepcao_em: string | null;
  recepcao_por: number | null;
  anonimizado_em: string | null;
  criado_em: string;
  atualizado_em: string;
  /** the payment provider's customer (Asaas), once created */
  cliente_provedor_id: string | null;
  /** the provider's monthly subscription, once created */
  assinatura_provedor_id: string | null;
  /** set while a monthly payment is overdue for PAYMENT_OVERDUE_DAYS or more */
  inadimplente_desde: string | null;
  /** what staff must look at (a chargeback), or null */
  atencao: string | null;
}

/** A charge or a refund of an enrolment. */
export interface MatriculasPagamentosTable {
  id: Id;
  matricula_id: number;
  /** primeiro | mensalidade | multa | reembolso */
  tipo: string;
  valor_centavos: number;
  /** pendente | pago | cancelado | expirado | estornado | atrasado */
  status: string;
  provedor: string;
  provedor_id: string | null;
  referencia: string;
  prazo: string | null;
  pago_em: string | null;
  usuario_id: number | null;
  criado_em: string;
  atualizado_em: string;
  /** monthly payments: the São Paulo day it falls due */
  vencimento: string | null;
  /** when the reconciliation last asked the provider about it */
  conferido_em: string | null;
}

/** A provider's webhook event as received, processed by the payment-event worker. */
export interface PagamentosEventosTable {
  id: string;
  provedor: string;
  tipo: string;
  pagamento_id: string | null;
  payload: string;
  /** pendente | processando | processado | falhou */
  status: string;
  recebido_em: string;
  processado_em: string | null;
  tentativas: ZeroDefault;
  proxima_tentativa_em: string;
  bloqueado_ate: string | null;
  bloqueio: string | null;
  erro: string | null;
}

/** A difference between the provider's received payments of a day and ours. */
export interface PagamentosDivergenciasTable {
  id: Id;
  dia: string;
  provedor_id: string;
  referencia: string | null;
  /** so_no_provedor | so_no_site | valor */
  tipo: string;
  valor_provedor_centavos: number | null;
  valor_site_centavos: number | null;
  criado_em: string;
}

export interface MatriculasHistoricoTable {
  id: Id;
  matricula_id: number;
  de: string | null;
  para: string;
  /** cliente | equipe | sistema | provedor */
  origem: string;
  usuario_id: number | null;
  detalhe: string | null;
  criado_em: string;
}

/** "Minha matrícula" links (sha256 of the token) and the sessions they open (sha256 of the cookie). */
export interface MatriculasAcessosTable {
  id: Id;
  email: string;
  token_hash: string;
  expira_em: string;
  usado_em: string | null;
  sessao_hash: string | null;
  sessao_expira_em: string | null;
  criado_em: string;
}

export interface Database {
  unidades: UnidadesTable;
  unidade_horarios: UnidadeHorariosTable;
  planos: PlanosTable;
  planos_unidades: PlanosUnidadesTable;
  areas: AreasTable;
  unidades_areas: UnidadesAreasTable;
  modalidades: ModalidadesTable;
  unidades_modalidades: UnidadesModalidadesTable;
  aulas: AulasTable;
  perguntas: PerguntasTable;
  perguntas_opcoes: PerguntasOpcoesTable;
  respostas_nps: RespostasNpsTable;
  respostas_itens: RespostasItensTable;
  agregados_nps: AgregadosNpsTable;
  agregados_opcoes: AgregadosOpcoesTable;
  agregados_cliques: AgregadosCliquesTable;
  agregados_agendamentos: AgregadosAgendamentosTable;
  fale_aqui: FaleAquiTable;
  fale_aqui_arquivos: FaleAquiArquivosTable;
  arquivos: ArquivosTable;
  fale_aqui_historico: FaleAquiHistoricoTable;
  fale_aqui_respostas: FaleAquiRespostasTable;
  resumos_semanais: ResumosSemanaisTable;
  franquia_leads: FranquiaLeadsTable;
  franquia_leads_historico: FranquiaLeadsHistoricoTable;
  franquia_leads_notas: FranquiaLeadsNotasTable;
  usuarios: UsuariosTable;
  usuarios_unidades: UsuariosUnidadesTable;
  sessoes: SessoesTable;
  senha_redefinicoes: SenhaRedefinicoesTable;
  tentativas_login: TentativasLoginTable;
  fila_emails: FilaEmailsTable;
  auditoria: AuditoriaTable;
  envios: EnviosTable;
  cliques_cta: CliquesCtaTable;
  unidade_fotos: UnidadeFotosTable;
  unidade_fotos_arquivos: UnidadeFotosArquivosTable;
  aulas_experimentais: AulasExperimentaisTable;
  aulas_experimentais_vagas: AulasExperimentaisVagasTable;
  limites: LimitesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_entregas: WebhookEntregasTable;
  tarefas_agendadas: TarefasAgendadasTable;
  consentimentos: ConsentimentosTable;
  incidentes: IncidentesTable;
  privacidade_solicitacoes: PrivacidadeSolicitacoesTable;
  privacidade_acessos: PrivacidadeAcessosTable;
  contratos_versoes: ContratosVersoesTable;
  matriculas: MatriculasTable;
  matriculas_pagamentos: MatriculasPagamentosTable;
  matriculas_historico: MatriculasHistoricoTable;
  matriculas_acessos: MatriculasAcessosTable;
  pagamentos_eventos: PagamentosEventosTable;
  pagamentos_divergencias: PagamentosDivergenciasTable;
}

export type Unidade = Selectable<UnidadesTable>;
export type FranquiaLead = Selectable<FranquiaLeadsTable>;

// The one map of personal data (LGPD): every table and column that holds something about a
// person, how a person's rows are found, and what erasure does to each column. "Meus dados",
// the staff search, the export and the erasure read this list and nothing else, so a table
// missing here is a table they forget; test/privacy/privacy-registry.test.ts fails when a migration
// adds a personal-looking column that is neither here nor in NOT_PERSONAL.
// Pure data and pure helpers: no SQL (person-data.repository.ts applies it).
import { formatPhone, phoneDigits } from '../../lib/form/index';
import { ENROLMENT_RETENTION_YEARS } from './retention';

/** What a column holds. */
export type DataKind =
  | 'email'
  | 'phone'
  | 'name'
  /** text a person (or staff about a person) wrote */
  | 'free_text'
  /** city, address */
  | 'location'
  /** a copy of other columns kept for a text filter */
  | 'search_copy'
  /** JSON or free text searched by substring: the person's e-mail or phone anywhere inside */
  | 'json_payload'
  /** a storage key of a file of the person's */
  | 'file_key'
  | 'ip'
  | 'user_agent'
  | 'cpf'
  /** a date of birth */
  | 'birth_date'
  /** a yes/no the person gave on a form (e.g. to receive offers) */
  | 'permission'
  /** a key or counter that embeds an address (e-mail or IP) */
  | 'identity_key';

/**
 * How a column finds the person's rows:
 * - `email`: equals the e-mail (case ignored);
 * - `phone`: equals the phone (any way of writing the same Brazilian number);
 * - `contains`: the text contains the e-mail or the phone in any usual writing. A row found
 *   only this way is somebody else's that mentions the person: only these columns are
 *   scrubbed (or the row deleted when the table's erasure is `delete`);
 * - `email_or_phone`: a "phone or e-mail" field: equals either; searched like `contains` too
 *   (older rows hold them as typed).
 */
export type MatchBy = 'email' | 'phone' | 'contains' | 'email_or_phone';

/**
 * What erasure does to a column of the person's rows:
 * - `null`: emptied;
 * - `marker`: replaced with ERASED_MARKER (NOT NULL columns, and free text whose presence
 *   counts: "answered the question");
 * - `scrub`: only the e-mail and phone inside are replaced with ERASED_MARKER (JSON, logs);
 * - `zero`: set to 0 (a yes/no permission: withdrawn);
 * - `keep`: stays, for the reason given (statistics, another procedure, a legal period).
 */
export type EraseAction =
  | { do: 'null' }
  | { do: 'marker' }
  | { do: 'scrub' }
  | { do: 'zero' }
  | { do: 'keep'; reason: string };

export interface ColumnEntry {
  kind: DataKind;
  match?: MatchBy;
  erase: EraseAction;
  /** left out of the person's export (e.g. a search copy of other columns) */
  noExport?: boolean;
}

/** The kinds "Meus dados" shows and exports (one JSON and one CSV each in the ZIP). */
export type ExportKind =
  | 'leads'
  | 'notas_leads'
  | 'mensagens'
  | 'fotos'
  | 'respostas'
  | 'pesquisas'
  | 'pesquisas_itens'
  | 'agendamentos'
  | 'matriculas'
  | 'matriculas_pagamentos'
  | 'conta'
  | 'consentimentos'
  | 'solicitacoes';

export const EXPORT_LABELS: Record<ExportKind, string> = {
  leads: 'Contatos para franquia',
  notas_leads: 'Anotações da equipe sobre o contato de franquia',
  mensagens: 'Mensagens do “Fale aqui”',
  fotos: 'Fotos enviadas com as mensagens',
  respostas: 'Respostas da equipe às suas mensagens',
  pesquisas: 'Pesquisas de satisfação com o seu contato',
  pesquisas_itens: 'Respostas escritas nas pesquisas',
  consentimentos: 'Consentimentos que você deu nos formulários (texto, versão, data e canal)',
  agendamentos: 'Aulas experimentais agendadas',
  matriculas: 'Matrículas online (seus dados, o contrato aceito e a prova do aceite)',
  matriculas_pagamentos: 'Pagamentos e reembolsos das matrículas online',
  conta: 'Conta na área da equipe',
  solicitacoes: 'Seus pedidos sobre os seus dados',
};

export interface TableEntry {
  table: string;
  /** what the rows are, in a sentence (docs and the staff screens) */
  about: string;
  /** primary key used to follow rows (default `id`) */
  id?: string;
  columns: Record<string, ColumnEntry>;
  /** rows that belong to a person because their parent row does (a reply of their message) */
  parent?: { table: string; column: string };
  /**
   * rows that name another table's row in a text column (the outbox's `origem`,
   * "fale_aqui:12"): they belong to the person when that row does. `patterns` are LIKE
   * patterns for one id.
   */
  references?: { column: string; table: string; patterns: (id: number) => string[] }[];
  /** `anonymise` (column rules, the row stays), `delete` (the row goes), `keep` (see reason) */
  erase: 'anonymise' | 'delete' | { keep: string };
  /** columns set on the rows erased, besides the column rules (e.g. booking's anonimizado_em) */
  stamp?: string;
  /** the rows are stored files of the person's: the key column (deleted from storage after the commit) */
  files?: { keyColumn: string };
  /** the kind the person sees and downloads; absent = listed for erasure only */
  exportAs?: ExportKind;
  /** other columns of the rows put in the export (dates, statuses, the unit) */
  exportAlso?: string[];
}

/**
 * A column entry: what it holds, what erasure does (`keep(reason)` to keep it) and, for a
 * column that finds the person's rows, how it matches.
 */
function column(kind: DataKind, erase: Exclude<EraseAction['do'], 'keep'> | EraseAction, match?: MatchBy): ColumnEntry {
  const action = typeof erase === 'string' ? { do: erase } : erase;
  return match ? { kind, match, erase: action } : { kind, erase: action };
}
const keep = (reason: string): EraseAction => ({ do: 'keep', reason });
/** Erasure deletes the whole row of these columns, so it does nothing to the column itself. */
const ROW_DELETED = keep('a linha é apagada');

/** A table of the links e-mailed to a person and the sessions opened with them: found by the e-mail, deleted. */
const accessLinks = (table: string, about: string): TableEntry => ({
  table,
  about,
  columns: { email: column('email', ROW_DELETED, 'email') },
  erase: 'delete',
});

/** What replaces an erased text. */
export const ERASED_MARKER = '[apagado]';

/** Why an enrolment's contract data survive an erasure request (retention.ts has the full sentence). */
const CONTRACT = `contrato de matrícula: guardado até ${ENROLMENT_RETENTION_YEARS} anos depois do fim (prazo legal)`;

export const PERSONAL_DATA: TableEntry[] = [
  {
    table: 'franquia_leads',
    about: 'contatos deixados no formulário “Seja um franqueado”',
    columns: {
      nome_completo: column('name', 'marker'),
      whatsapp: column('phone', 'marker', 'phone'),
      email: column('email', 'marker', 'email'),
      cidade_regiao: column('location', 'marker'),
      busca: { ...column('search_copy', 'marker'), noExport: true },
    },
    // the answers about investment and deadline are choices from a list; status and dates feed the funnel
    erase: 'anonymise',
    exportAs: 'leads',
    exportAlso: [
      'investimento_parceria',
      'faixa_investimento',
      'prazo_proximo_passo',
      'experiencia_negocio',
      'motivo_interesse',
      'aceita_contato',
      'status',
      'criado_em',
      'atualizado_em',
    ],
  },
  {
    table: 'franquia_leads_notas',
    about: 'anotações da equipe sobre um contato de franquia',
    parent: { table: 'franquia_leads', column: 'lead_id' },
    columns: { texto: column('free_text', 'marker', 'contains') },
    erase: 'anonymise',
    exportAs: 'notas_leads',
    exportAlso: ['lead_id', 'criado_em'],
  },
  {
    table: 'fale_aqui',
    about: 'mensagens do “Fale aqui”, com o contato deixado para resposta',
    columns: {
      nome_completo: column('name', 'marker'),
      mensagem: column('free_text', 'marker', 'contains'),
      contato_email: column('email', 'null', 'email'),
      contato_telefone: column('phone', 'null', 'phone'),
    },
    // unit, status and dates stay: messages per unit and time to first reply
    erase: 'anonymise',
    exportAs: 'mensagens',
    exportAlso: ['unidade', 'anonimo', 'aceite_contato', 'status', 'criado_em', 'primeira_resposta_em'],
  },
  {
    table: 'fale_aqui_arquivos',
    about: 'fotos enviadas com uma mensagem (o arquivo fica no armazenamento: disco ou tabela arquivos)',
    parent: { table: 'fale_aqui', column: 'fale_aqui_id' },
    columns: {
      caminho: { ...column('file_key', keep('a linha inteira é apagada')), noExport: true },
      nome_original: column('free_text', keep('a linha inteira é apagada')),
    },
    erase: 'delete',
    files: { keyColumn: 'caminho' },
    exportAs: 'fotos',
    exportAlso: ['fale_aqui_id', 'tipo', 'tamanho', 'largura', 'altura', 'criado_em'],
  },
  {
    table: 'fale_aqui_respostas',
    about: 'respostas da equipe a uma mensagem (por e-mail ou WhatsApp)',
    parent: { table: 'fale_aqui', column: 'fale_aqui_id' },
    columns: {
      // the e-mail, or the WhatsApp number of a reply by WhatsApp
      destinatario: column('email', 'null', 'email_or_phone'),
      texto: column('free_text', 'marker', 'contains'),
    },
    // the reply's channel and time stay: replies per message, time to reply
    erase: 'anonymise',
    exportAs: 'respostas',
    exportAlso: ['fale_aqui_id', 'canal', 'criado_em'],
  },
  {
    table: 'respostas_nps',
    about: 'respostas da pesquisa de satisfação (nome e contato só quando a pessoa preencheu)',
    columns: {
      nome_cliente: column('name', 'null'),
      // "Telefone ou e-mail": an address as typed, or +55…
      contato_cliente: column('email', 'null', 'email_or_phone'),
      comentario: column('free_text', 'marker', 'contains'),
    },
    // the score, unit, channel and date stay: the NPS and its aggregates do not change
    erase: 'anonymise',
    exportAs: 'pesquisas',
    exportAlso: ['unidade_id', 'nota_nps', 'origem', 'criado_em'],
  },
  {
    table: 'respostas_itens',
    about: 'respostas a cada pergunta de uma pesquisa (texto livre nas perguntas abertas)',
    parent: { table: 'respostas_nps', column: 'resposta_id' },
    columns: { texto: column('free_text', 'marker', 'contains') },
    // the chosen options stay: the report's counts per option do not change
    erase: 'anonymise',
    exportAs: 'pesquisas_itens',
    exportAlso: ['resposta_id', 'pergunta_id', 'opcao_id'],
  },
  {
    table: 'aulas_experimentais',
    about: 'aulas experimentais agendadas',
    columns: {
      nome: column('name', 'marker'),
      whatsapp: column('phone', 'null', 'phone'),
      email: column('email', 'null', 'email'),
    },
    // slot, status and dates stay: capacity and the funnel (as the 12-month anonymisation does)
    erase: 'anonymise',
    stamp: 'anonimizado_em',
    exportAs: 'agendamentos',
    exportAlso: ['unidade_id', 'atividade', 'inicio_em', 'status', 'aceita_contato', 'criado_em'],
  },
  {
    table: 'matriculas',
    about: 'matrículas online: dados de quem se matricula (e do responsável), o contrato aceito e a prova do aceite',
    columns: {
      nome: column('name', keep(CONTRACT)),
      cpf: column('cpf', keep(CONTRACT)),
      nascimento: column('birth_date', keep(CONTRACT)),
      // "Minha matrícula" (withdraw, cancel) and the contract's notices go to it while it runs
      email: column('email', keep(CONTRACT), 'email'),
      whatsapp: column('phone', 'null', 'phone'),
      aceita_marketing: column('permission', 'zero'),
      responsavel_nome: column('name', keep(CONTRACT)),
      responsavel_cpf: column('cpf', keep(CONTRACT)),
      // the text accepted, with the name and CPF filled in; its SHA-256 proves it unchanged
      contrato_texto: column('free_text', keep(CONTRACT)),
      aceite_ip: column('ip', keep(`prova do aceite; ${CONTRACT}`)),
      aceite_user_agent: column('user_agent', keep(`prova do aceite; ${CONTRACT}`)),
    },
    // the contract, its proof and the amounts outlive the request (retention.ts says for how
    // long and why); only the WhatsApp and the permission to send offers go
    erase: 'anonymise',
    exportAs: 'matriculas',
    exportAlso: [
      'unidade_nome',
      'razao_social',
      'cnpj',
      'plano_nome',
      'status',
      'mensalidade_centavos',
      'taxa_matricula_centavos',
      'taxa_anual_centavos',
      'primeiro_pagamento_centavos',
      'dia_vencimento',
      'fidelidade_meses',
      'multa_percentual',
      'contrato_versao',
      'contrato_sha256',
      'aceito_em',
      'ativada_em',
      'pago_ate',
      'desistencia_em',
      'protocolo',
      'cancelamento_solicitado_em',
      'cancelamento_efetivo_em',
      'multa_centavos',
      'criado_em',
      // the payment provider's customer and subscription (Asaas), and the payment standing
      'cliente_provedor_id',
      'assinatura_provedor_id',
      'inadimplente_desde',
    ],
  },
  {
    table: 'matriculas_pagamentos',
    about: 'cobranças e reembolsos de uma matrícula online (valores, situação, datas)',
    parent: { table: 'matriculas', column: 'matricula_id' },
    columns: {},
    erase: { keep: `registros de pagamento do contrato; ${CONTRACT}` },
    exportAs: 'matriculas_pagamentos',
    exportAlso: [
      'matricula_id',
      'tipo',
      'valor_centavos',
      'status',
      'prazo',
      'vencimento',
      'pago_em',
      'provedor_id',
      'criado_em',
    ],
  },
  {
    table: 'pagamentos_eventos',
    about: 'avisos do provedor de pagamentos (Asaas) como chegaram: a cobrança, o valor e a situação',
    columns: {
      // Asaas names the customer by its id only; a payment's description names the plan and unit
      payload: column('json_payload', keep('registro do pagamento; apagado 90 dias depois de processado')),
    },
    erase: { keep: 'avisos de pagamento, apagados 90 dias depois de processados' },
  },
  accessLinks('matriculas_acessos', 'links de “Minha matrícula” enviados e as sessões abertas com eles (uma hora)'),
  {
    table: 'usuarios',
    about: 'contas da equipe',
    columns: {
      email: column('email', keep('conta da equipe'), 'email'),
      nome: column('name', keep('conta da equipe')),
    },
    erase: {
      keep:
        'Conta da equipe: desative-a em /admin/contas. A trilha de auditoria e o histórico das mensagens ' +
        'precisam saber quem fez o quê enquanto a conta existir.',
    },
    exportAs: 'conta',
    exportAlso: ['papel', 'ativo', 'criado_em'],
  },
  {
    table: 'tentativas_login',
    about: 'tentativas de login e pedidos de nova senha ("conta:<e-mail>", "ip:<endereço>"), por 15 minutos',
    columns: { chave: column('identity_key', ROW_DELETED, 'contains') },
    erase: 'delete',
  },
  {
    table: 'fila_emails',
    about: 'e-mails na fila de envio e já enviados (destinatário, texto, anexos)',
    columns: {
      destinatario: column('email', ROW_DELETED, 'email'),
      responder_para: column('email', ROW_DELETED, 'email'),
      assunto: column('free_text', ROW_DELETED, 'contains'),
      texto: column('free_text', ROW_DELETED, 'contains'),
      html: column('free_text', ROW_DELETED, 'contains'),
      anexos: column('json_payload', ROW_DELETED),
      ultimo_erro: column('free_text', ROW_DELETED, 'contains'),
    },
    // a mail about the person's records (a notice of their message, a booking reminder) names them
    references: [
      { column: 'origem', table: 'fale_aqui', patterns: (id) => [`fale_aqui:${id}`, `fale_aqui_resposta:${id}`] },
      { column: 'origem', table: 'franquia_leads', patterns: (id) => [`franquia_leads:${id}`] },
      { column: 'origem', table: 'aulas_experimentais', patterns: (id) => [`aulas_experimentais:${id}:%`] },
      // the contract is kept on the enrolment itself: the mailed copy is not needed
      { column: 'origem', table: 'matriculas', patterns: (id) => [`matricula:${id}`] },
    ],
    erase: 'delete',
  },
  {
    table: 'consentimentos',
    about: 'provas de consentimento dadas nos formulários (texto aceito, quando, por qual canal)',
    columns: {
      email: column('email', 'null', 'email'),
      telefone: column('phone', 'null', 'phone'),
    },
    // purpose, version, date and channel stay (how many consents each text got), without the contact
    erase: 'anonymise',
    exportAs: 'consentimentos',
    exportAlso: ['finalidade', 'versao', 'aceito_em', 'canal', 'revogado_em'],
  },
  {
    table: 'webhook_entregas',
    about: 'eventos enviados a outras ferramentas da rede (o corpo JSON traz os dados do registro)',
    columns: {
      payload_json: column('json_payload', ROW_DELETED, 'contains'),
      ultima_resposta: column('free_text', ROW_DELETED, 'contains'),
    },
    // an event about the person's records (a lead, a message, a survey answer, a booking) names them
    references: [
      { column: 'origem', table: 'fale_aqui', patterns: (id) => [`fale_aqui:${id}`] },
      { column: 'origem', table: 'franquia_leads', patterns: (id) => [`franquia_leads:${id}`] },
      { column: 'origem', table: 'respostas_nps', patterns: (id) => [`respostas_nps:${id}`] },
      { column: 'origem', table: 'aulas_experimentais', patterns: (id) => [`aulas_experimentais:${id}`] },
    ],
    erase: 'delete',
  },
  {
    table: 'incidentes',
    about: 'registro de incidentes de segurança (texto escrito pela equipe, pode citar uma pessoa)',
    columns: {
      descricao: column('free_text', 'scrub', 'contains'),
      dados_afetados: column('free_text', 'scrub', 'contains'),
      titulares_afetados: column('free_text', 'scrub', 'contains'),
      medidas: column('free_text', 'scrub', 'contains'),
    },
    // the incident itself must be kept five years (ANPD): only a mention of the person goes
    erase: { keep: 'o registro de incidentes é guardado por 5 anos; só a menção à pessoa é apagada' },
  },
  {
    table: 'auditoria',
    about: 'trilha de auditoria das telas da equipe (antes e depois de cada mudança, em JSON)',
    columns: {
      antes: column('json_payload', 'scrub', 'contains'),
      depois: column('json_payload', 'scrub', 'contains'),
    },
    erase: 'anonymise',
  },
  {
    table: 'privacidade_solicitacoes',
    about: 'pedidos das pessoas sobre os seus dados (a prova de que foram atendidos fica, sem o endereço)',
    columns: {
      email: column('email', 'null', 'email'),
      telefone: column('phone', 'null', 'phone'),
      titular: column('identity_key', keep('mascarado: m•••@exemplo.com.br')),
      texto: column('free_text', 'marker', 'contains'),
      motivo: column('free_text', 'scrub', 'contains'),
    },
    erase: 'anonymise',
    exportAs: 'solicitacoes',
    exportAlso: ['tipo', 'status', 'canal', 'criado_em', 'prazo_em', 'concluida_em'],
  },
  accessLinks('privacidade_acessos', 'links de “Meus dados” enviados e as sessões abertas com eles (24 horas)'),
  {
    table: 'limites',
    about: 'contadores de limite de pedidos por endereço IP (uma janela, no máximo uma hora)',
    columns: {
      chave: column('ip', keep('não identifica a pessoa pelo e-mail; a linha some ao fim da janela')),
    },
    erase: { keep: 'contadores de curta duração, apagados ao fim da janela' },
  },
  {
    table: 'sessoes',
    about: 'sessões da equipe (12 horas no máximo)',
    columns: {
      dados: column('json_payload', keep('sessão da equipe; expira em 12 horas')),
    },
    erase: { keep: 'sessões da equipe, apagadas ao expirar' },
  },
];

/**
 * Columns whose name looks personal but hold nothing about a person, with the reason.
 * `*` covers a whole table.
 */
export const NOT_PERSONAL: Record<string, Record<string, string>> = {
  unidades: {
    '*':
      'dados públicos das unidades (nome, endereço, telefone e e-mail da academia; razão social, CNPJ e endereço ' +
      'da empresa que a opera), não de uma pessoa',
  },
  matriculas: {
    unidade_nome: 'nome da unidade no momento do aceite',
    plano_nome: 'nome do plano no momento do aceite',
    endereco_juridico: 'endereço da empresa da unidade no momento do aceite',
  },
  contratos_versoes: { texto: 'modelo do contrato escrito pela rede, sem dados de ninguém' },
  planos: { nome: 'nome do plano' },
  areas: { nome: 'nome da área da academia' },
  modalidades: { nome: 'nome da modalidade' },
  perguntas: { texto: 'texto da pergunta, escrito pela rede' },
  perguntas_opcoes: { texto: 'texto da opção, escrito pela rede' },
  respostas_itens: { texto_ok: 'marca 0/1 de texto já revisado' },
  fale_aqui_respostas: { fila_email_id: 'o número de uma linha da fila de e-mails' },
  resumos_semanais: { fila_email_id: 'o número de uma linha da fila de e-mails' },
  fale_aqui: { unidade: 'nome da unidade escolhida', aceite_contato: 'a autorização de contato (0/1)' },
  arquivos: {
    chave: 'nome aleatório do arquivo; o arquivo é apagado com a linha que o usa (fale_aqui_arquivos)',
  },
  unidade_fotos_arquivos: { chave: 'arquivo de foto de unidade (conteúdo da rede)' },
  aulas: { professor: 'nome do professor publicado na grade de aulas (conteúdo da rede, editado pela equipe)' },
  franquia_leads: {
    motivo_interesse: 'uma opção de uma lista',
    aceita_contato: 'a autorização de contato (sim/não)',
  },
  aulas_experimentais: { aceita_contato: 'a autorização de contato (0/1)' },
  tarefas_agendadas: { nome: 'nome de uma tarefa agendada do sistema (ex.: backup)' },
  webhook_endpoints: {
    '*': 'endereços das ferramentas da rede que recebem eventos, escritos pela equipe; nenhum dado de cliente',
  },
  webhook_entregas: { mensagem_id: 'o identificador aleatório (msg_…) de um evento' },
};

/**
 * A column name that looks personal (accents already absent from column names): the test
 * requires each such column to be in PERSONAL_DATA or NOT_PERSONAL.
 */
export const PERSONAL_NAME_RE = new RegExp(
  '(^|_)(nome|email|e_mail|telefone|fone|whatsapp|celular|contato|cpf|rg|mensagem|texto|comentario|observacao|' +
    'obs|ip|user_agent|agente|endereco|cep|nascimento|destinatario|remetente|responder_para|assunto|html|corpo|' +
    'conteudo|payload|dados|antes|depois|busca|chave|motivo|titular|professor)(_|$)',
);

/** The entry of a table, or undefined. */
export function entryOf(table: string): TableEntry | undefined {
  return PERSONAL_DATA.find((e) => e.table === table);
}

/** Whether a column is classified: personal (registry) or not personal with a reason. */
export function isClassified(table: string, column: string): boolean {
  if (entryOf(table)?.columns[column]) return true;
  const np = NOT_PERSONAL[table];
  return Boolean(np && (np['*'] || np[column]));
}

/**
 * The ways a Brazilian number (+5511987654321) is written in free text, longest first:
 * "+5511987654321", "5511987654321", "(11) 98765-4321", "11987654321", "98765-4321", …
 */
export function phoneVariants(e164: string): string[] {
  // always "+55" + DDD + number (the form kit's normalizePhone)
  const national = phoneDigits(e164).slice(2);
  const ddd = national.slice(0, 2);
  const local = national.slice(2);
  const split = local.length === 9 ? 5 : 4;
  const head = local.slice(0, split);
  const tail = local.slice(split);
  const out = new Set([
    e164,
    `55${national}`,
    national,
    formatPhone(e164),
    `+55 ${ddd} ${head}-${tail}`,
    `+55 (${ddd}) ${head}-${tail}`,
    `(${ddd})${head}-${tail}`,
    `(${ddd}) ${head}${tail}`,
    `${ddd} ${head}-${tail}`,
    `${ddd} ${head}${tail}`,
    `${ddd}-${head}-${tail}`,
    `${head}-${tail}`,
  ]);
  return [...out].sort((a, b) => b.length - a.length);
}

/** Who a lookup or an erasure is about: an e-mail (lower case) and Brazilian phones (+55…). */
export interface Subject {
  email: string | null;
  phones: string[];
}

/** Every text that identifies the subject in free text, longest first (for LIKE and scrubbing). */
export function subjectNeedles(subject: Subject): string[] {
  const out = new Set<string>();
  if (subject.email) out.add(subject.email.toLowerCase());
  for (const p of subject.phones) for (const v of phoneVariants(p)) out.add(v.toLowerCase());
  return [...out].sort((a, b) => b.length - a.length);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` with every needle (case ignored) replaced by ERASED_MARKER. */
export function scrubText(text: string, needles: string[]): string {
  if (!needles.length) return text;
  const re = new RegExp(needles.map(escapeRe).join('|'), 'gi');
  return text.replace(re, ERASED_MARKER);
}

/** "maria@exemplo.com.br" → "m•••@exemplo.com.br"; "+5511987654321" → "(11) •••••-4321". */
export function maskSubject(subject: Subject): string {
  const parts: string[] = [];
  if (subject.email) {
    const [user = '', domain = ''] = subject.email.split('@');
    parts.push(`${user.slice(0, 1)}•••@${domain}`);
  }
  for (const p of subject.phones) {
    const national = phoneDigits(p).slice(2);
    parts.push(`(${national.slice(0, 2)}) •••••-${national.slice(-4)}`);
  }
  return parts.join(' · ') || '—';
}

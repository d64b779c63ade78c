// The option fields of the franchise form (interface 2.1). Each list is defined here
// once, value → pt-BR label, and used by the form, the validation, the panel filters
// and the CSV export. Values are short ASCII codes: they are what gets stored.

export interface Option {
  value: string;
  label: string;
}

export const OPTION_FIELDS = {
  investimento_parceria: {
    label: 'Como pretende investir?',
    options: [
      { value: 'sozinho', label: 'Sozinho(a)' },
      { value: 'com_socios', label: 'Com sócio(s)' },
      { value: 'com_investidor', label: 'Com um investidor' },
      { value: 'ainda_nao_sei', label: 'Ainda não sei' },
    ],
  },
  faixa_investimento: {
    label: 'Quanto pretende investir?',
    options: [
      { value: 'ate_300mil', label: 'Até R$ 300 mil' },
      { value: '300mil_500mil', label: 'De R$ 300 mil a R$ 500 mil' },
      { value: '500mil_1milhao', label: 'De R$ 500 mil a R$ 1 milhão' },
      { value: 'acima_1milhao', label: 'Acima de R$ 1 milhão' },
    ],
  },
  prazo_proximo_passo: {
    label: 'Quando pretende dar o próximo passo?',
    options: [
      { value: 'imediato', label: 'Imediatamente' },
      { value: 'ate_3_meses', label: 'Em até 3 meses' },
      { value: '3_a_6_meses', label: 'De 3 a 6 meses' },
      { value: 'mais_de_6_meses', label: 'Em mais de 6 meses' },
    ],
  },
  experiencia_negocio: {
    label: 'Qual é a sua experiência com negócios?',
    options: [
      { value: 'nenhuma', label: 'Nunca tive um negócio' },
      { value: 'empresario', label: 'Tenho ou já tive um negócio' },
      { value: 'franqueado', label: 'Sou ou já fui franqueado(a)' },
      { value: 'setor_fitness', label: 'Já atuo no setor fitness' },
    ],
  },
  motivo_interesse: {
    label: 'O que mais motiva o seu interesse?',
    options: [
      { value: 'ter_meu_negocio', label: 'Ter o meu próprio negócio' },
      { value: 'diversificar_investimentos', label: 'Diversificar investimentos' },
      { value: 'paixao_fitness', label: 'Paixão por atividade física' },
      { value: 'oportunidade_regiao', label: 'Oportunidade na minha região' },
      { value: 'outro', label: 'Outro motivo' },
    ],
  },
  aceita_contato: {
    label: 'Autorização de contato',
    options: [
      { value: 'sim', label: 'Aceito ser contatado(a) pela equipe de expansão por WhatsApp, e-mail ou telefone' },
      { value: 'nao', label: 'Não aceito ser contatado(a)' },
    ],
  },
} as const satisfies Record<string, { label: string; options: readonly Option[] }>;

export type OptionField = keyof typeof OPTION_FIELDS;
export const OPTION_FIELD_NAMES = Object.keys(OPTION_FIELDS) as OptionField[];

/** No consent, no lead: only this value of aceita_contato is accepted. */
export const CONSENT_VALUE = 'sim';

export function optionLabel(field: OptionField, value: string): string {
  return (OPTION_FIELDS[field].options as readonly Option[]).find((o) => o.value === value)?.label ?? value;
}

export function isOption(field: OptionField, value: unknown): value is string {
  return (
    typeof value === 'string' && (OPTION_FIELDS[field].options as readonly Option[]).some((o) => o.value === value)
  );
}

/** Lead status pipeline, in order. */
export const LEAD_STATUSES = [
  { value: 'novo', label: 'Novo' },
  { value: 'em_contato', label: 'Em contato' },
  { value: 'qualificado', label: 'Qualificado' },
  { value: 'convertido', label: 'Convertido' },
  { value: 'descartado', label: 'Descartado' },
] as const;

export function statusLabel(value: string | null | undefined): string {
  return LEAD_STATUSES.find((s) => s.value === value)?.label ?? value ?? '';
}
export function isStatus(value: unknown): value is string {
  return typeof value === 'string' && LEAD_STATUSES.some((s) => s.value === value);
}

/** pt-BR labels of the text fields (form, detail page, export header). */
export const TEXT_FIELD_LABELS = {
  nome_completo: 'Nome completo',
  whatsapp: 'WhatsApp',
  email: 'E-mail',
  cidade_regiao: 'Cidade/região de interesse',
} as const;

export const LIMITS = { nome_completo: 120, email: 254, cidade_regiao: 120, whatsapp: 30, nota: 3000 } as const;

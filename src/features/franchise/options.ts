// The option fields of the franchise form (interface 2.1). Each list is defined here
// once, value → pt-BR label, and used by the form, the validation, the panel filters
// and the CSV export. Values are short ASCII codes: they are what gets stored.

export interface Option {
  value: string;
  label: string;
}

/** A list's options from value → label; the values are never plain numbers, so the order written is kept. */
function choices(labels: Record<string, string>): Option[] {
  return Object.entries(labels).map(([value, label]) => ({ value, label }));
}

export const OPTION_FIELDS = {
  investimento_parceria: {
    label: 'Como pretende investir?',
    options: choices({
      sozinho: 'Sozinho(a)',
      com_socios: 'Com sócio(s)',
      com_investidor: 'Com um investidor',
      ainda_nao_sei: 'Ainda não sei',
    }),
  },
  faixa_investimento: {
    label: 'Quanto pretende investir?',
    options: choices({
      ate_300mil: 'Até R$ 300 mil',
      '300mil_500mil': 'De R$ 300 mil a R$ 500 mil',
      '500mil_1milhao': 'De R$ 500 mil a R$ 1 milhão',
      acima_1milhao: 'Acima de R$ 1 milhão',
    }),
  },
  prazo_proximo_passo: {
    label: 'Quando pretende dar o próximo passo?',
    options: choices({
      imediato: 'Imediatamente',
      ate_3_meses: 'Em até 3 meses',
      '3_a_6_meses': 'De 3 a 6 meses',
      mais_de_6_meses: 'Em mais de 6 meses',
    }),
  },
  experiencia_negocio: {
    label: 'Qual é a sua experiência com negócios?',
    options: choices({
      nenhuma: 'Nunca tive um negócio',
      empresario: 'Tenho ou já tive um negócio',
      franqueado: 'Sou ou já fui franqueado(a)',
      setor_fitness: 'Já atuo no setor fitness',
    }),
  },
  motivo_interesse: {
    label: 'O que mais motiva o seu interesse?',
    options: choices({
      ter_meu_negocio: 'Ter o meu próprio negócio',
      diversificar_investimentos: 'Diversificar investimentos',
      paixao_fitness: 'Paixão por atividade física',
      oportunidade_regiao: 'Oportunidade na minha região',
      outro: 'Outro motivo',
    }),
  },
  aceita_contato: {
    label: 'Autorização de contato',
    options: choices({
      sim: 'Aceito ser contatado(a) pela equipe de expansão por WhatsApp, e-mail ou telefone',
      nao: 'Não aceito ser contatado(a)',
    }),
  },
} as const satisfies Record<string, { label: string; options: Option[] }>;

export type OptionField = keyof typeof OPTION_FIELDS;
export const OPTION_FIELD_NAMES = Object.keys(OPTION_FIELDS) as OptionField[];

/** No consent, no lead: only this value of aceita_contato is accepted. */
export const CONSENT_VALUE = 'sim';

export function optionLabel(field: OptionField, value: string): string {
  return OPTION_FIELDS[field].options.find((o) => o.value === value)?.label ?? value;
}

export function isOption(field: OptionField, value: unknown): value is string {
  return typeof value === 'string' && OPTION_FIELDS[field].options.some((o) => o.value === value);
}

/** Lead status pipeline, in order. */
export const LEAD_STATUSES = choices({
  novo: 'Novo',
  em_contato: 'Em contato',
  qualificado: 'Qualificado',
  convertido: 'Convertido',
  descartado: 'Descartado',
});

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

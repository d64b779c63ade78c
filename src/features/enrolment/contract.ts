// The contract template: its placeholders, how a version is filled in for one enrolment,
// and the SHA-256 of the exact text shown, which the acceptance keeps.
import { createHash } from 'node:crypto';
import { formatBRL } from '../../lib/text';
import { MONTH_NAMES } from './terms';

/** Every placeholder a template may use, with what staff read about it. */
export const PLACEHOLDERS = {
  unidade: 'nome da unidade',
  razao_social: 'razão social da empresa da unidade',
  cnpj: 'CNPJ da empresa da unidade',
  endereco_empresa: 'endereço da empresa da unidade',
  plano: 'nome do plano',
  mensalidade: 'valor da mensalidade (R$)',
  dia_vencimento: 'dia do mês em que vence a mensalidade',
  taxa_matricula: 'taxa de matrícula (R$)',
  taxa_anual: 'taxa anual de manutenção (R$)',
  mes_taxa_anual: 'mês em que vence a taxa anual',
  fidelidade: 'prazo mínimo (fidelidade), em meses',
  multa: 'multa de cancelamento (% da mensalidade por mês restante)',
  aluno: 'nome de quem se matricula',
  cpf: 'CPF de quem se matricula',
  responsavel: 'nome do responsável (menor de 18 anos), ou "—"',
  marca: 'nome da rede',
} as const;
export type Placeholder = keyof typeof PLACEHOLDERS;

const PLACEHOLDER_RE = /\{\{\s*([a-z_]+)\s*\}\}/g;

/** The placeholders a text names that do not exist (the editor refuses them). */
export function unknownPlaceholders(text: string): string[] {
  const unknown = new Set<string>();
  for (const m of text.matchAll(PLACEHOLDER_RE)) if (!(m[1]! in PLACEHOLDERS)) unknown.add(m[1]!);
  return [...unknown];
}

export function fillContract(template: string, values: Record<Placeholder, string>): string {
  return template.replace(PLACEHOLDER_RE, (whole, name: string) =>
    name in PLACEHOLDERS ? values[name as Placeholder] : whole,
  );
}

export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function formatCpfDigits(cpf: string): string {
  return cpf.length === 11 ? `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}` : cpf;
}

export function formatCnpjDigits(cnpj: string): string {
  return cnpj.length === 14
    ? `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`
    : cnpj;
}

export interface ContractSubject {
  unidade_nome: string;
  razao_social: string;
  cnpj: string;
  endereco_juridico: string;
  plano_nome: string;
  mensalidade_centavos: number;
  dia_vencimento: number;
  taxa_matricula_centavos: number;
  taxa_anual_centavos: number;
  taxa_anual_mes: number | null;
  fidelidade_meses: number;
  multa_percentual: number;
  nome: string;
  cpf: string;
  responsavel_nome: string | null;
}

export function contractValues(s: ContractSubject, brandName: string): Record<Placeholder, string> {
  return {
    unidade: s.unidade_nome,
    razao_social: s.razao_social,
    cnpj: formatCnpjDigits(s.cnpj),
    endereco_empresa: s.endereco_juridico,
    plano: s.plano_nome,
    mensalidade: formatBRL(s.mensalidade_centavos),
    dia_vencimento: String(s.dia_vencimento),
    taxa_matricula: formatBRL(s.taxa_matricula_centavos),
    taxa_anual: formatBRL(s.taxa_anual_centavos),
    mes_taxa_anual: s.taxa_anual_mes ? MONTH_NAMES[s.taxa_anual_mes - 1]! : '—',
    fidelidade: String(s.fidelidade_meses),
    multa: String(s.multa_percentual),
    aluno: s.nome,
    cpf: formatCpfDigits(s.cpf),
    responsavel: s.responsavel_nome ?? '—',
    marca: brandName,
  };
}

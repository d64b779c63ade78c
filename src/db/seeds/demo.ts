// Demo content: what a newcomer sees after `npm start` on an empty database.
import type { Kysely } from 'kysely';
import { DEMO_CONTRACT } from './demo-contract';
import type { Database } from '../types';
import { nowIso } from '../index';
import { slugify } from '../../lib/text';
import { cnpjCheckDigits } from '../../lib/form/index';

type BenefitPlatform = 'Wellhub' | 'TotalPass';

/** The unit's page on a benefit platform, by the unit's slug (the seeds' units are listed there). */
export function benefitUrl(platform: BenefitPlatform, slug: string): string {
  return platform === 'Wellhub'
    ? `https://wellhub.com/pt-br/search/?q=${slug}`
    : `https://totalpass.com/br/academias/${slug}`;
}

interface DemoUnit {
  nome: string;
  cidade: string;
  uf: string;
  bairro: string;
  endereco: string;
  cep: string;
  telefone: string;
  whatsapp: string;
  latitude: number;
  longitude: number;
  /** the benefit platform whose members may train at the unit */
  beneficio?: BenefitPlatform;
  /** the company's registered address when it is not the unit's */
  enderecoJuridico?: string;
  ativo?: boolean;
  /** opening hours: weekdays, saturday, sunday (null = closed) */
  horas: [[string, string], [string, string] | null, [string, string] | null];
  areas: string[];
  modalidades: string[];
  planos: string[];
}

export const DEMO_UNITS: DemoUnit[] = [
  {
    nome: 'Movimento Pinheiros',
    cidade: 'São Paulo',
    uf: 'SP',
    bairro: 'Pinheiros',
    endereco: 'Rua dos Pinheiros, 1200',
    cep: '05422-001',
    telefone: '+551130451200',
    whatsapp: '+5511987451200',
    latitude: -23.5665,
    longitude: -46.6917,
    beneficio: 'Wellhub',
    horas: [
      ['05:30', '23:00'],
      ['08:00', '18:00'],
      ['08:00', '14:00'],
    ],
    areas: ['Musculação', 'Área de cardio', 'Sala de spinning', 'Estúdio de lutas', 'Vestiário com sauna'],
    modalidades: ['Spinning', 'Funcional', 'Muay Thai', 'Yoga', 'Zumba'],
    planos: ['Plano Mensal', 'Plano Trimestral', 'Plano Anual', 'Plano Estudante'],
  },
  {
    nome: 'Movimento Moema',
    cidade: 'São Paulo',
    uf: 'SP',
    bairro: 'Moema',
    endereco: 'Avenida Ibirapuera, 2907',
    cep: '04029-200',
    telefone: '+551150512907',
    whatsapp: '+5511976512907',
    latitude: -23.6004,
    longitude: -46.6631,
    beneficio: 'TotalPass',
    enderecoJuridico: 'Avenida Paulista, 1009, conjunto 1203, Bela Vista, São Paulo/SP, CEP 01311-100',
    horas: [['06:00', '23:00'], ['08:00', '17:00'], null],
    areas: ['Musculação', 'Área de cardio', 'Piscina semiolímpica', 'Espaço kids'],
    modalidades: ['Natação', 'Hidroginástica', 'Pilates', 'Funcional', 'Alongamento'],
    planos: ['Plano Mensal', 'Plano Anual', 'Plano Família'],
  },
  {
    nome: 'Movimento Botafogo',
    cidade: 'Rio de Janeiro',
    uf: 'RJ',
    bairro: 'Botafogo',
    endereco: 'Rua Voluntários da Pátria, 445',
    cep: '22270-005',
    telefone: '+552125370445',
    whatsapp: '+5521996370445',
    latitude: -22.9533,
    longitude: -43.1892,
    beneficio: 'Wellhub',
    horas: [
      ['06:00', '22:00'],
      ['08:00', '16:00'],
      ['09:00', '13:00'],
    ],
    areas: ['Musculação', 'Área de cardio', 'Estúdio de lutas'],
    modalidades: ['Muay Thai', 'Cross training', 'Funcional', 'Zumba'],
    planos: ['Plano Mensal', 'Plano Trimestral', 'Plano Anual'],
  },
  {
    nome: 'Movimento Savassi',
    cidade: 'Belo Horizonte',
    uf: 'MG',
    bairro: 'Savassi',
    endereco: 'Rua Pernambuco, 1050',
    cep: '30130-151',
    telefone: '+553132611050',
    whatsapp: '+5531991611050',
    latitude: -19.9366,
    longitude: -43.9345,
    beneficio: 'Wellhub',
    horas: [['05:30', '22:30'], ['08:00', '14:00'], null],
    areas: ['Musculação', 'Área de cardio', 'Sala de spinning'],
    modalidades: ['Spinning', 'Pilates', 'Yoga', 'Alongamento'],
    planos: ['Plano Mensal', 'Plano Anual', 'Plano Estudante'],
  },
  {
    nome: 'Movimento Batel',
    cidade: 'Curitiba',
    uf: 'PR',
    bairro: 'Batel',
    endereco: 'Avenida do Batel, 1750',
    cep: '80420-090',
    telefone: '+554130231750',
    whatsapp: '+5541998231750',
    latitude: -25.4411,
    longitude: -49.2885,
    beneficio: 'TotalPass',
    horas: [['06:00', '22:00'], ['09:00', '15:00'], null],
    areas: ['Musculação', 'Área de cardio', 'Piscina semiolímpica', 'Vestiário com sauna'],
    modalidades: ['Natação', 'Hidroginástica', 'Spinning', 'Funcional'],
    planos: ['Plano Mensal', 'Plano Trimestral', 'Plano Família'],
  },
  {
    nome: 'Movimento Moinhos',
    cidade: 'Porto Alegre',
    uf: 'RS',
    bairro: 'Moinhos de Vento',
    endereco: 'Rua Padre Chagas, 300',
    cep: '90570-080',
    telefone: '+555133460300',
    whatsapp: '+5551984460300',
    latitude: -30.0254,
    longitude: -51.2026,
    beneficio: 'Wellhub',
    horas: [['06:00', '22:00'], ['08:00', '14:00'], null],
    areas: ['Musculação', 'Área de cardio', 'Estúdio de lutas'],
    modalidades: ['Muay Thai', 'Cross training', 'Yoga'],
    planos: ['Plano Mensal', 'Plano Anual'],
  },
  {
    nome: 'Movimento Boa Viagem',
    cidade: 'Recife',
    uf: 'PE',
    bairro: 'Boa Viagem',
    endereco: 'Avenida Conselheiro Aguiar, 2200',
    cep: '51020-020',
    telefone: '+558133262200',
    whatsapp: '+5581997262200',
    latitude: -8.1189,
    longitude: -34.9004,
    // No benefit platform yet: its landing page points to nearby units that have one.
    horas: [['05:30', '22:00'], ['07:00', '13:00'], null],
    areas: ['Musculação', 'Área de cardio', 'Piscina semiolímpica'],
    modalidades: ['Natação', 'Funcional', 'Zumba'],
    planos: ['Plano Mensal', 'Plano Trimestral', 'Plano Anual'],
  },
  {
    nome: 'Movimento Cambuí',
    cidade: 'Campinas',
    uf: 'SP',
    bairro: 'Cambuí',
    endereco: 'Rua Coronel Quirino, 800',
    cep: '13025-001',
    telefone: '+551932530800',
    whatsapp: '+5519993530800',
    latitude: -22.8947,
    longitude: -47.0516,
    beneficio: 'Wellhub',
    ativo: false, // closed for renovation: never shown publicly
    horas: [['06:00', '22:00'], null, null],
    areas: ['Musculação'],
    modalidades: ['Funcional'],
    planos: ['Plano Mensal'],
  },
];

interface PlanSeed {
  nome: string;
  preco_centavos: number;
  periodicidade: string;
  descricao: string;
  /** 0 for a plan kept for old contracts (default active) */
  ativo?: number;
}

/** A plan row of the seeds (demo and large catalog): name, billing period, price in cents, description. */
export function planRow(nome: string, periodicidade: string, preco_centavos: number, descricao: string): PlanSeed {
  return { nome, preco_centavos, periodicidade, descricao };
}

export const DEMO_PLANS: PlanSeed[] = [
  planRow('Plano Mensal', 'mensal', 12990, 'Acesso livre à unidade e às aulas coletivas, sem fidelidade.'),
  planRow('Plano Trimestral', 'trimestral', 34990, 'Três meses com desconto e avaliação física inclusa.'),
  planRow('Plano Anual', 'anual', 118800, 'O melhor preço: doze meses, avaliação física trimestral e uma camiseta.'),
  planRow('Plano Família', 'mensal', 35990, 'Até quatro pessoas da mesma família, com acesso à piscina.'),
  planRow('Plano Estudante', 'mensal', 8990, 'Para estudantes com carteirinha válida, de segunda a sexta até as 17h.'),
  // Inactive: kept for old contracts, never shown.
  { ...planRow('Plano Black Promocional 2019', 'mensal', 9990, 'Plano descontinuado.'), ativo: 0 },
];

const CLASS_SLOTS: { inicio: string; fim: string }[] = [
  { inicio: '06:30', fim: '07:20' },
  { inicio: '07:30', fim: '08:20' },
  { inicio: '12:00', fim: '12:50' },
  { inicio: '18:00', fim: '18:50' },
  { inicio: '19:00', fim: '19:50' },
  { inicio: '20:00', fim: '20:50' },
];
/** The demo's teachers; the large catalog adds more to them. */
export const TEACHERS = [
  'Ana Souza',
  'Bruno Lima',
  'Carla Mendes',
  'Diego Rocha',
  'Fernanda Alves',
  'Rafael Costa',
  'Juliana Prado',
];
const ROOMS: Record<string, string> = {
  Natação: 'Piscina',
  Hidroginástica: 'Piscina',
  Spinning: 'Sala de spinning',
  'Muay Thai': 'Estúdio de lutas',
};

/** Options from best to worst: the best is worth as many points as there are options, the worst 1. */
const rated = (...texts: string[]) => texts.map((texto, i) => ({ texto, valor: texts.length - i }));
/** A required question of the survey; `optional` lets the customer skip it. */
const question = (texto: string, tipo: string, opcoes: { texto: string; valor: number }[] = []) => ({
  texto,
  tipo,
  obrigatoria: 1,
  opcoes,
});
const optional = (q: ReturnType<typeof question>) => ({ ...q, obrigatoria: 0 });

const DEMO_SURVEY = [
  question(
    'De 0 a 10, quanto você recomendaria a Academia Movimento a um amigo ou familiar?',
    'escala',
    Array.from({ length: 11 }, (_, i) => ({ texto: String(i), valor: i })),
  ),
  question('Como você avalia a limpeza da unidade?', 'opcoes', rated('Ótima', 'Boa', 'Regular', 'Ruim')),
  question('Como foi o atendimento da recepção?', 'opcoes', rated('Ótimo', 'Bom', 'Regular', 'Ruim')),
  optional(
    question(
      'Os equipamentos que você usou estavam em bom estado?',
      'opcoes',
      rated('Sim, todos', 'A maioria', 'Muitos com problema'),
    ),
  ),
  optional(question('Algum equipamento ou espaço precisa de conserto ou atenção?', 'texto')),
];

const MONTHS_OF: Record<string, number> = { mensal: 1, trimestral: 3, semestral: 6, anual: 12 };

/**
 * Each demo unit is a franchise company of its own: a plausible name and a CNPJ with valid
 * check digits (a made-up root per unit, head office 0001), so online enrolment works.
 */
function demoLegalEntity(unit: DemoUnit, index: number) {
  const root = String(31_415_926 + index * 1_048_573).slice(0, 8);
  const base = `${root}0001`;
  return {
    razao_social: `${unit.nome} Academia de Ginástica Ltda.`,
    cnpj: `${base}${cnpjCheckDigits(base)}`,
    endereco_juridico: unit.enderecoJuridico ?? null,
  };
}

/**
 * Prices and terms of a demo plan at a unit, sold online: the monthly price is the plan's
 * price per month; the fees and terms vary by unit so every case of the enrolment shows.
 */
function demoPlanPrice(plan: PlanSeed, unitIndex: number) {
  const months = MONTHS_OF[plan.periodicidade] ?? 1;
  const term = plan.periodicidade === 'anual' ? 12 : 0;
  const annualFee = unitIndex % 3 === 0 && plan.periodicidade === 'mensal';
  return {
    mensalidade_centavos: Math.round(plan.preco_centavos / months),
    taxa_matricula_centavos: unitIndex % 2 === 0 ? 9900 : 0,
    taxa_anual_centavos: annualFee ? 14900 : 0,
    taxa_anual_mes: annualFee ? ((unitIndex * 5) % 12) + 1 : null,
    fidelidade_meses: term,
    multa_percentual: term ? 20 : 0,
    venda_online: 1,
  };
}

/** True when the catalog has no unit yet (a new installation). */
export async function isCatalogEmpty(db: Kysely<Database>): Promise<boolean> {
  const row = await db.selectFrom('unidades').select('id').limit(1).executeTakeFirst();
  return !row;
}

/**
 * Loads the demo content in one transaction. `onlyIfEmpty`: checks the catalog inside that
 * transaction (on SQLite BEGIN IMMEDIATE makes check-and-load atomic across processes);
 * returns whether it loaded anything.
 */
export async function seedDemo(db: Kysely<Database>, options: { onlyIfEmpty?: boolean } = {}): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (options.onlyIfEmpty && !(await isCatalogEmpty(trx))) return false;
    const now = nowIso();
    const id = async (table: 'areas' | 'modalidades', nome: string) => {
      const found = await trx.selectFrom(table).select('id').where('nome', '=', nome).executeTakeFirst();
      if (found) return found.id;
      return (await trx.insertInto(table).values({ nome }).returning('id').executeTakeFirstOrThrow()).id;
    };

    await trx.insertInto('contratos_versoes').values({ versao: 1, texto: DEMO_CONTRACT, criado_em: now }).execute();
    const planIds = new Map<string, number>();
    for (const [i, p] of DEMO_PLANS.entries()) {
      const row = await trx
        .insertInto('planos')
        .values({ ...p, ativo: p.ativo ?? 1, ordem: i, criado_em: now, atualizado_em: now })
        .returning('id')
        .executeTakeFirstOrThrow();
      planIds.set(p.nome, row.id);
    }

    for (const [u, unit] of DEMO_UNITS.entries()) {
      const { id: unitId } = await trx
        .insertInto('unidades')
        .values({
          nome: unit.nome,
          slug: slugify(unit.nome),
          cidade: unit.cidade,
          uf: unit.uf,
          bairro: unit.bairro,
          endereco: unit.endereco,
          cep: unit.cep,
          telefone: unit.telefone,
          whatsapp: unit.whatsapp,
          email: `${slugify(unit.bairro)}@academiamovimento.com.br`,
          latitude: unit.latitude,
          longitude: unit.longitude,
          descricao: `Unidade ${unit.bairro} da Academia Movimento, em ${unit.cidade}.`,
          beneficio_nome: unit.beneficio ?? null,
          beneficio_url: unit.beneficio ? benefitUrl(unit.beneficio, slugify(unit.nome)) : null,
          ...demoLegalEntity(unit, u),
          ativo: unit.ativo === false ? 0 : 1,
          criado_em: now,
          atualizado_em: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();

      const [weekdays, saturday, sunday] = unit.horas;
      const hours = [
        ...(sunday ? [{ dia_semana: 0, abre: sunday[0], fecha: sunday[1] }] : []),
        ...[1, 2, 3, 4, 5].map((d) => ({ dia_semana: d, abre: weekdays[0], fecha: weekdays[1] })),
        ...(saturday ? [{ dia_semana: 6, abre: saturday[0], fecha: saturday[1] }] : []),
      ];
      await trx
        .insertInto('unidade_horarios')
        .values(hours.map((h) => ({ ...h, unidade_id: unitId })))
        .execute();

      for (const nome of unit.areas) {
        await trx
          .insertInto('unidades_areas')
          .values({ unidade_id: unitId, area_id: await id('areas', nome) })
          .execute();
      }
      const modalityIds: [string, number][] = [];
      for (const nome of unit.modalidades) {
        const modalidadeId = await id('modalidades', nome);
        modalityIds.push([nome, modalidadeId]);
        await trx
          .insertInto('unidades_modalidades')
          .values({ unidade_id: unitId, modalidade_id: modalidadeId })
          .execute();
      }
      for (const nome of unit.planos) {
        const plan = DEMO_PLANS.find((p) => p.nome === nome)!;
        await trx
          .insertInto('planos_unidades')
          .values({ plano_id: planIds.get(nome)!, unidade_id: unitId, ...demoPlanPrice(plan, u) })
          .execute();
      }

      // A deterministic weekly timetable: each modality twice or three times a week.
      const classes = [];
      for (const [m, [nome, modalidadeId]] of modalityIds.entries()) {
        for (let k = 0; k < 3; k++) {
          const dia = ((m + k * 2 + u) % 6) + 1; // monday–saturday
          const slot = CLASS_SLOTS[(m + k + u) % CLASS_SLOTS.length]!;
          if (dia === 6 && slot.inicio >= '12:00') continue; // saturdays end early
          classes.push({
            unidade_id: unitId,
            modalidade_id: modalidadeId,
            dia_semana: dia,
            inicio: slot.inicio,
            fim: slot.fim,
            professor: TEACHERS[(m + k + u) % TEACHERS.length]!,
            sala: ROOMS[nome] ?? 'Sala multiuso',
          });
        }
      }
      if (classes.length) await trx.insertInto('aulas').values(classes).execute();
    }

    await insertDemoSurvey(trx, 0, now);
    return true;
  });
}

/**
 * Writes the demo survey: its questions numbered from `firstOrder` (the volume adds them after
 * any the database has), each with its options in the order written.
 */
export async function insertDemoSurvey(trx: Kysely<Database>, firstOrder: number, createdAt: string): Promise<void> {
  for (const [i, { opcoes, ...q }] of DEMO_SURVEY.entries()) {
    const { id } = await trx
      .insertInto('perguntas')
      .values({ ...q, ordem: firstOrder + i, ativo: 1, criado_em: createdAt })
      .returning('id')
      .executeTakeFirstOrThrow();
    if (opcoes.length) {
      await trx
        .insertInto('perguntas_opcoes')
        .values(opcoes.map((o, j) => ({ ...o, pergunta_id: id, ordem: j })))
        .execute();
    }
  }
}

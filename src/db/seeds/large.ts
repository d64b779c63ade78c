// A large generated catalog (hundreds of units in real Brazilian cities) for the benchmark
// and load tests. Deterministic (seeded PRNG) and fast: batch inserts in one transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../types';
import { nowIso } from '../index';
import { slugify } from '../../lib/text';
import { TEACHERS as DEMO_TEACHERS } from './demo';

interface City {
  cidade: string;
  uf: string;
  ddd: string;
  lat: number;
  lon: number;
  bairros: string[];
}

export const LARGE_CITIES: City[] = [
  {
    cidade: 'São Paulo',
    uf: 'SP',
    ddd: '11',
    lat: -23.5505,
    lon: -46.6333,
    bairros: [
      'Pinheiros',
      'Moema',
      'Vila Mariana',
      'Tatuapé',
      'Santana',
      'Lapa',
      'Itaim Bibi',
      'Perdizes',
      'Mooca',
      'Butantã',
      'Ipiranga',
      'Vila Madalena',
    ],
  },
  {
    cidade: 'Rio de Janeiro',
    uf: 'RJ',
    ddd: '21',
    lat: -22.9068,
    lon: -43.1729,
    bairros: ['Botafogo', 'Copacabana', 'Tijuca', 'Barra da Tijuca', 'Méier', 'Leblon', 'Flamengo', 'Recreio'],
  },
  {
    cidade: 'Belo Horizonte',
    uf: 'MG',
    ddd: '31',
    lat: -19.9167,
    lon: -43.9345,
    bairros: ['Savassi', 'Pampulha', 'Buritis', 'Funcionários', 'Lourdes', 'Sion'],
  },
  {
    cidade: 'Curitiba',
    uf: 'PR',
    ddd: '41',
    lat: -25.4284,
    lon: -49.2733,
    bairros: ['Batel', 'Água Verde', 'Bigorrilho', 'Portão', 'Cabral', 'Boqueirão'],
  },
  {
    cidade: 'Porto Alegre',
    uf: 'RS',
    ddd: '51',
    lat: -30.0346,
    lon: -51.2177,
    bairros: ['Moinhos de Vento', 'Menino Deus', 'Petrópolis', 'Cidade Baixa', 'Tristeza'],
  },
  {
    cidade: 'Recife',
    uf: 'PE',
    ddd: '81',
    lat: -8.0476,
    lon: -34.877,
    bairros: ['Boa Viagem', 'Casa Forte', 'Graças', 'Espinheiro', 'Pina'],
  },
  {
    cidade: 'Salvador',
    uf: 'BA',
    ddd: '71',
    lat: -12.9777,
    lon: -38.5016,
    bairros: ['Pituba', 'Barra', 'Itaigara', 'Rio Vermelho', 'Imbuí'],
  },
  {
    cidade: 'Fortaleza',
    uf: 'CE',
    ddd: '85',
    lat: -3.7319,
    lon: -38.5267,
    bairros: ['Aldeota', 'Meireles', 'Cocó', 'Fátima', 'Messejana'],
  },
  {
    cidade: 'Brasília',
    uf: 'DF',
    ddd: '61',
    lat: -15.7939,
    lon: -47.8828,
    bairros: ['Asa Sul', 'Asa Norte', 'Lago Sul', 'Águas Claras', 'Sudoeste'],
  },
  {
    cidade: 'Goiânia',
    uf: 'GO',
    ddd: '62',
    lat: -16.6869,
    lon: -49.2648,
    bairros: ['Setor Bueno', 'Setor Marista', 'Setor Oeste', 'Jardim Goiás'],
  },
  {
    cidade: 'Manaus',
    uf: 'AM',
    ddd: '92',
    lat: -3.119,
    lon: -60.0217,
    bairros: ['Adrianópolis', 'Ponta Negra', 'Parque 10', 'Vieiralves'],
  },
  {
    cidade: 'Belém',
    uf: 'PA',
    ddd: '91',
    lat: -1.4558,
    lon: -48.4902,
    bairros: ['Nazaré', 'Umarizal', 'Batista Campos', 'Marco'],
  },
  {
    cidade: 'Florianópolis',
    uf: 'SC',
    ddd: '48',
    lat: -27.5954,
    lon: -48.548,
    bairros: ['Centro', 'Trindade', 'Lagoa da Conceição', 'Itacorubi', 'Canasvieiras'],
  },
  {
    cidade: 'Vitória',
    uf: 'ES',
    ddd: '27',
    lat: -20.3155,
    lon: -40.3128,
    bairros: ['Praia do Canto', 'Jardim Camburi', 'Jardim da Penha'],
  },
  {
    cidade: 'Campinas',
    uf: 'SP',
    ddd: '19',
    lat: -22.9099,
    lon: -47.0626,
    bairros: ['Cambuí', 'Taquaral', 'Barão Geraldo', 'Guanabara'],
  },
  {
    cidade: 'Santos',
    uf: 'SP',
    ddd: '13',
    lat: -23.9608,
    lon: -46.3336,
    bairros: ['Gonzaga', 'Boqueirão', 'Ponta da Praia', 'Embaré'],
  },
  {
    cidade: 'Ribeirão Preto',
    uf: 'SP',
    ddd: '16',
    lat: -21.1704,
    lon: -47.8103,
    bairros: ['Jardim Botânico', 'Alto da Boa Vista', 'Centro'],
  },
  { cidade: 'Niterói', uf: 'RJ', ddd: '21', lat: -22.8832, lon: -43.1034, bairros: ['Icaraí', 'Santa Rosa', 'Ingá'] },
  { cidade: 'Natal', uf: 'RN', ddd: '84', lat: -5.7945, lon: -35.211, bairros: ['Ponta Negra', 'Tirol', 'Lagoa Nova'] },
  { cidade: 'João Pessoa', uf: 'PB', ddd: '83', lat: -7.1195, lon: -34.845, bairros: ['Manaíra', 'Tambaú', 'Bessa'] },
  {
    cidade: 'Maceió',
    uf: 'AL',
    ddd: '82',
    lat: -9.6498,
    lon: -35.7089,
    bairros: ['Ponta Verde', 'Pajuçara', 'Jatiúca'],
  },
  { cidade: 'São Luís', uf: 'MA', ddd: '98', lat: -2.5307, lon: -44.3068, bairros: ['Renascença', 'Calhau', 'Cohama'] },
  {
    cidade: 'Teresina',
    uf: 'PI',
    ddd: '86',
    lat: -5.0892,
    lon: -42.8016,
    bairros: ['Jóquei', 'Fátima', 'São Cristóvão'],
  },
  {
    cidade: 'Campo Grande',
    uf: 'MS',
    ddd: '67',
    lat: -20.4697,
    lon: -54.6201,
    bairros: ['Jardim dos Estados', 'Chácara Cachoeira', 'Centro'],
  },
  {
    cidade: 'Cuiabá',
    uf: 'MT',
    ddd: '65',
    lat: -15.601,
    lon: -56.0974,
    bairros: ['Goiabeiras', 'Jardim das Américas', 'Centro Sul'],
  },
  {
    cidade: 'Londrina',
    uf: 'PR',
    ddd: '43',
    lat: -23.3045,
    lon: -51.1696,
    bairros: ['Gleba Palhano', 'Centro', 'Jardim Higienópolis'],
  },
  {
    cidade: 'Joinville',
    uf: 'SC',
    ddd: '47',
    lat: -26.3045,
    lon: -48.8487,
    bairros: ['América', 'Atiradores', 'Glória'],
  },
  {
    cidade: 'Uberlândia',
    uf: 'MG',
    ddd: '34',
    lat: -18.9186,
    lon: -48.2772,
    bairros: ['Santa Mônica', 'Fundinho', 'Jardim Karaíba'],
  },
  { cidade: 'Aracaju', uf: 'SE', ddd: '79', lat: -10.9472, lon: -37.0731, bairros: ['Jardins', 'Atalaia', 'Grageru'] },
  {
    cidade: 'Sorocaba',
    uf: 'SP',
    ddd: '15',
    lat: -23.5015,
    lon: -47.4526,
    bairros: ['Campolim', 'Centro', 'Jardim Vergueiro'],
  },
];

const PLANS = [
  {
    nome: 'Plano Mensal',
    preco_centavos: 12990,
    periodicidade: 'mensal',
    descricao: 'Acesso livre à unidade e às aulas coletivas, sem fidelidade.',
  },
  {
    nome: 'Plano Trimestral',
    preco_centavos: 34990,
    periodicidade: 'trimestral',
    descricao: 'Três meses com desconto e avaliação física inclusa.',
  },
  {
    nome: 'Plano Semestral',
    preco_centavos: 65990,
    periodicidade: 'semestral',
    descricao: 'Seis meses com avaliação física bimestral.',
  },
  {
    nome: 'Plano Anual',
    preco_centavos: 118800,
    periodicidade: 'anual',
    descricao: 'Doze meses pelo melhor preço, com avaliação física trimestral.',
  },
  {
    nome: 'Plano Família',
    preco_centavos: 35990,
    periodicidade: 'mensal',
    descricao: 'Até quatro pessoas da mesma família.',
  },
  {
    nome: 'Plano Estudante',
    preco_centavos: 8990,
    periodicidade: 'mensal',
    descricao: 'Para estudantes, de segunda a sexta até as 17h.',
  },
  {
    nome: 'Plano Sênior',
    preco_centavos: 9990,
    periodicidade: 'mensal',
    descricao: 'A partir de 60 anos, com acompanhamento de professor.',
  },
  {
    nome: 'Plano Corporativo',
    preco_centavos: 10990,
    periodicidade: 'mensal',
    descricao: 'Para funcionários de empresas parceiras.',
  },
];
const AREAS = [
  'Musculação',
  'Área de cardio',
  'Sala de spinning',
  'Estúdio de lutas',
  'Piscina semiolímpica',
  'Espaço kids',
  'Vestiário com sauna',
  'Área funcional',
  'Estúdio de pilates',
  'Estacionamento',
];
const MODALITIES = [
  'Spinning',
  'Funcional',
  'Muay Thai',
  'Yoga',
  'Zumba',
  'Natação',
  'Hidroginástica',
  'Pilates',
  'Alongamento',
  'Cross training',
  'Jiu-jitsu',
  'Boxe',
  'Step',
  'Body pump',
];
const TEACHERS = [...DEMO_TEACHERS, 'Marcos Pereira', 'Patrícia Gomes', 'Thiago Ribeiro'];
const STREETS = [
  'Rua das Flores',
  'Avenida Brasil',
  'Rua XV de Novembro',
  'Avenida Getúlio Vargas',
  'Rua Sete de Setembro',
  'Avenida Santos Dumont',
  'Rua Tiradentes',
  'Avenida Paulista',
];
const ROMAN = ['', ' II', ' III', ' IV', ' V', ' VI', ' VII', ' VIII', ' IX', ' X'];
/** weekday class times: a full day of classes */
const WEEKDAY_SLOTS = ['06:00', '07:00', '08:00', '12:00', '17:00', '18:00', '19:00', '20:00'];
const SATURDAY_SLOTS = ['08:00', '09:00', '10:00', '11:00'];
const SUNDAY_SLOTS = ['09:00', '10:00'];

function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function plusMinutes(time: string, minutes: number): string {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const total = h * 60 + m + minutes;
  return `${String(Math.floor(total / 60)).padStart(2, '0')}:${String(total % 60).padStart(2, '0')}`;
}

async function insertChunked<T extends keyof Database & string>(
  trx: Kysely<Database>,
  table: T,
  rows: any[],
  chunk = 400,
): Promise<void> {
  for (let i = 0; i < rows.length; i += chunk) {
    await trx
      .insertInto(table)
      .values(rows.slice(i, i + chunk) as never)
      .execute();
  }
}

export interface LargeSeedResult {
  unitIds: number[];
  /** a unit whose timetable is full every day (for the benchmark) */
  fullTimetableUnitId: number;
  /** a unit without a benefit link (its Pass page lists nearby units) */
  noBenefitUnitId: number | null;
}

/**
 * Adds `units` active units with plans, areas, modalities, hours and a full timetable.
 * `plans` (default 8, the chain-wide ones) is the total number of plans: beyond the eight,
 * regional plans named after a city ("Plano Anual Recife 12") are linked to one to three
 * units of that city, as a chain with local offers has.
 */
export async function seedLargeCatalog(
  db: Kysely<Database>,
  options: { units?: number; plans?: number; seed?: number } = {},
): Promise<LargeSeedResult> {
  const count = options.units ?? 500;
  const regionalPlans = Math.max(0, (options.plans ?? PLANS.length) - PLANS.length);
  const random = mulberry32(options.seed ?? 20261122);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const sample = <T>(list: readonly T[], n: number): T[] => {
    const copy = [...list];
    for (let i = copy.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
    }
    return copy.slice(0, n);
  };

  return db.transaction().execute(async (trx) => {
    const now = nowIso();
    const idsByName = async (table: 'areas' | 'modalidades', names: string[]) => {
      const existing = await trx.selectFrom(table).select(['id', 'nome']).where('nome', 'in', names).execute();
      const missing = names.filter((n) => !existing.some((e) => e.nome === n));
      if (missing.length)
        await trx
          .insertInto(table)
          .values(missing.map((nome) => ({ nome })))
          .execute();
      const all = await trx.selectFrom(table).select(['id', 'nome']).where('nome', 'in', names).execute();
      return new Map(all.map((r) => [r.nome, r.id]));
    };
    const areaIds = await idsByName('areas', AREAS);
    const modalityIds = await idsByName('modalidades', MODALITIES);

    const planIds: number[] = [];
    for (const [i, p] of PLANS.entries()) {
      const found = await trx
        .selectFrom('planos')
        .select('id')
        .where('nome', '=', p.nome)
        .where('ativo', '=', 1)
        .executeTakeFirst();
      planIds.push(
        found?.id ??
          (
            await trx
              .insertInto('planos')
              .values({ ...p, ativo: 1, ordem: i, criado_em: now, atualizado_em: now })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id,
      );
    }

    const base =
      (
        await trx
          .selectFrom('unidades')
          .select((eb) => eb.fn.max('id').as('max'))
          .executeTakeFirst()
      )?.max ?? 0;
    const nameUses = new Map<string, number>();
    const units = Array.from({ length: count }, (_, i) => {
      const city = LARGE_CITIES[i % LARGE_CITIES.length]!;
      const bairro = city.bairros[Math.floor(i / LARGE_CITIES.length) % city.bairros.length]!;
      const plain = `Movimento ${bairro}`;
      const key = `${plain}|${city.cidade}`;
      const use = nameUses.get(key) ?? 0;
      nameUses.set(key, use + 1);
      const nome = `${plain}${ROMAN[use] ?? ` ${use + 1}`}`;
      const number = 100 + Math.floor(random() * 3900);
      const phoneTail = String(10_000_000 + ((i * 7919 + Number(base)) % 89_999_999)).slice(0, 8);
      const hasBenefit = i % 7 !== 3; // most units accept a benefit platform
      const platform = i % 2 === 0 ? 'Wellhub' : 'TotalPass';
      const slug = `${slugify(`${nome} ${city.cidade}`)}-${Number(base) + i + 1}`;
      return {
        nome,
        slug,
        cidade: city.cidade,
        uf: city.uf,
        bairro,
        endereco: `${pick(STREETS)}, ${number}`,
        cep: `${String(10000 + Math.floor(random() * 89999))}-${String(Math.floor(random() * 999)).padStart(3, '0')}`,
        telefone: `+55${city.ddd}3${phoneTail.slice(1)}`,
        whatsapp: `+55${city.ddd}9${phoneTail}`,
        email: `${slug}@academiamovimento.com.br`,
        latitude: Math.round((city.lat + (random() - 0.5) * 0.16) * 1e5) / 1e5,
        longitude: Math.round((city.lon + (random() - 0.5) * 0.16) * 1e5) / 1e5,
        descricao: `Unidade ${bairro} da Academia Movimento, em ${city.cidade}.`,
        beneficio_nome: hasBenefit ? platform : null,
        beneficio_url: hasBenefit
          ? platform === 'Wellhub'
            ? `https://wellhub.com/pt-br/search/?q=${slug}`
            : `https://totalpass.com/br/academias/${slug}`
          : null,
        ativo: 1,
        criado_em: now,
        atualizado_em: now,
      };
    });
    const unitIds: number[] = [];
    for (let i = 0; i < units.length; i += 200) {
      const rows = await trx
        .insertInto('unidades')
        .values(units.slice(i, i + 200))
        .returning(['id', 'slug'])
        .execute();
      const bySlug = new Map(rows.map((r) => [r.slug, r.id]));
      for (const u of units.slice(i, i + 200)) unitIds.push(bySlug.get(u.slug)!);
    }

    const planLinks: { plano_id: number; unidade_id: number }[] = [];
    const areaLinks: { unidade_id: number; area_id: number }[] = [];
    const modalityLinks: { unidade_id: number; modalidade_id: number }[] = [];
    const classes: any[] = [];
    const hourRows: any[] = [];
    for (const unitId of unitIds) {
      hourRows.push({ unidade_id: unitId, dia_semana: 0, abre: '08:00', fecha: '14:00' });
      for (let d = 1; d <= 5; d++) hourRows.push({ unidade_id: unitId, dia_semana: d, abre: '05:30', fecha: '23:00' });
      hourRows.push({ unidade_id: unitId, dia_semana: 6, abre: '08:00', fecha: '18:00' });

      // Plano Mensal everywhere, plus three to five others.
      for (const planId of new Set([planIds[0]!, ...sample(planIds.slice(1), 3 + Math.floor(random() * 3))])) {
        planLinks.push({ plano_id: planId, unidade_id: unitId });
      }
      for (const area of sample(AREAS, 4 + Math.floor(random() * 4)))
        areaLinks.push({ unidade_id: unitId, area_id: areaIds.get(area)! });
      const mods = sample(MODALITIES, 6 + Math.floor(random() * 5));
      for (const m of mods) modalityLinks.push({ unidade_id: unitId, modalidade_id: modalityIds.get(m)! });
      const add = (dia: number, inicio: string) => {
        const modalidade = pick(mods);
        classes.push({
          unidade_id: unitId,
          modalidade_id: modalityIds.get(modalidade)!,
          dia_semana: dia,
          inicio,
          fim: plusMinutes(inicio, 50),
          professor: pick(TEACHERS),
          sala:
            modalidade === 'Natação' || modalidade === 'Hidroginástica'
              ? 'Piscina'
              : `Sala ${1 + Math.floor(random() * 3)}`,
        });
      };
      for (let d = 1; d <= 5; d++) for (const s of WEEKDAY_SLOTS) add(d, s);
      for (const s of SATURDAY_SLOTS) add(6, s);
      for (const s of SUNDAY_SLOTS) add(0, s);
    }
    if (regionalPlans > 0) {
      const unitsByCity = new Map<string, number[]>();
      units.forEach((u, i) => unitsByCity.set(u.cidade, [...(unitsByCity.get(u.cidade) ?? []), unitIds[i]!]));
      const cities = [...unitsByCity.keys()];
      const wanted = Array.from({ length: regionalPlans }, (_, i) => {
        const template = PLANS[i % PLANS.length]!;
        const cidade = cities[i % cities.length]!;
        return { ...template, nome: `${template.nome} ${cidade} ${Math.floor(i / cities.length) + 1}`, cidade };
      });
      // Deterministic names: a second run reuses the plans it made before.
      const existing = new Map<string, number>();
      for (let i = 0; i < wanted.length; i += 400) {
        const names = wanted.slice(i, i + 400).map((w) => w.nome);
        for (const r of await trx.selectFrom('planos').select(['id', 'nome']).where('nome', 'in', names).execute())
          existing.set(r.nome, r.id);
      }
      const missing = wanted.filter((w) => !existing.has(w.nome));
      for (let i = 0; i < missing.length; i += 200) {
        const rows = missing.slice(i, i + 200).map(({ cidade: _c, ...p }, j) => ({
          ...p,
          ativo: 1 as const,
          ordem: 100 + i + j,
          criado_em: now,
          atualizado_em: now,
        }));
        for (const r of await trx.insertInto('planos').values(rows).returning(['id', 'nome']).execute())
          existing.set(r.nome, r.id);
      }
      for (const w of wanted) {
        for (const unitId of sample(unitsByCity.get(w.cidade)!, 1 + Math.floor(random() * 3))) {
          planLinks.push({ plano_id: existing.get(w.nome)!, unidade_id: unitId });
        }
      }
    }
    await insertChunked(trx, 'unidade_horarios', hourRows);
    await insertChunked(trx, 'planos_unidades', planLinks);
    await insertChunked(trx, 'unidades_areas', areaLinks);
    await insertChunked(trx, 'unidades_modalidades', modalityLinks);
    await insertChunked(trx, 'aulas', classes, 500);

    const noBenefit = units.findIndex((u) => !u.beneficio_url);
    return {
      unitIds,
      fullTimetableUnitId: unitIds[0]!,
      noBenefitUnitId: noBenefit >= 0 ? unitIds[noBenefit]! : null,
    };
  });
}

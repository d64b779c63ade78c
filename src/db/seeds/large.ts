// A large generated catalog (hundreds of units in real Brazilian cities) for the benchmark
// and load tests. Deterministic (seeded PRNG) and fast: batch inserts in one transaction.
import type { Kysely } from 'kysely';
import type { Database } from '../types';
import { nowIso } from '../index';
import { slugify } from '../../lib/text';
import { benefitUrl, planRow, TEACHERS as DEMO_TEACHERS } from './demo';

interface City {
  cidade: string;
  uf: string;
  ddd: string;
  lat: number;
  lon: number;
  bairros: string[];
}

/** A city of the large catalog: its state, area code (DDD), centre and the neighbourhoods units are named after. */
function city(cidade: string, uf: string, ddd: string, lat: number, lon: number, bairros: string[]): City {
  return { cidade, uf, ddd, lat, lon, bairros };
}

export const LARGE_CITIES: City[] = [
  city('São Paulo', 'SP', '11', -23.5505, -46.6333, [
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
  ]),
  city('Rio de Janeiro', 'RJ', '21', -22.9068, -43.1729, [
    'Botafogo',
    'Copacabana',
    'Tijuca',
    'Barra da Tijuca',
    'Méier',
    'Leblon',
    'Flamengo',
    'Recreio',
  ]),
  city('Belo Horizonte', 'MG', '31', -19.9167, -43.9345, [
    'Savassi',
    'Pampulha',
    'Buritis',
    'Funcionários',
    'Lourdes',
    'Sion',
  ]),
  city('Curitiba', 'PR', '41', -25.4284, -49.2733, [
    'Batel',
    'Água Verde',
    'Bigorrilho',
    'Portão',
    'Cabral',
    'Boqueirão',
  ]),
  city('Porto Alegre', 'RS', '51', -30.0346, -51.2177, [
    'Moinhos de Vento',
    'Menino Deus',
    'Petrópolis',
    'Cidade Baixa',
    'Tristeza',
  ]),
  city('Recife', 'PE', '81', -8.0476, -34.877, ['Boa Viagem', 'Casa Forte', 'Graças', 'Espinheiro', 'Pina']),
  city('Salvador', 'BA', '71', -12.9777, -38.5016, ['Pituba', 'Barra', 'Itaigara', 'Rio Vermelho', 'Imbuí']),
  city('Fortaleza', 'CE', '85', -3.7319, -38.5267, ['Aldeota', 'Meireles', 'Cocó', 'Fátima', 'Messejana']),
  city('Brasília', 'DF', '61', -15.7939, -47.8828, ['Asa Sul', 'Asa Norte', 'Lago Sul', 'Águas Claras', 'Sudoeste']),
  city('Goiânia', 'GO', '62', -16.6869, -49.2648, ['Setor Bueno', 'Setor Marista', 'Setor Oeste', 'Jardim Goiás']),
  city('Manaus', 'AM', '92', -3.119, -60.0217, ['Adrianópolis', 'Ponta Negra', 'Parque 10', 'Vieiralves']),
  city('Belém', 'PA', '91', -1.4558, -48.4902, ['Nazaré', 'Umarizal', 'Batista Campos', 'Marco']),
  city('Florianópolis', 'SC', '48', -27.5954, -48.548, [
    'Centro',
    'Trindade',
    'Lagoa da Conceição',
    'Itacorubi',
    'Canasvieiras',
  ]),
  city('Vitória', 'ES', '27', -20.3155, -40.3128, ['Praia do Canto', 'Jardim Camburi', 'Jardim da Penha']),
  city('Campinas', 'SP', '19', -22.9099, -47.0626, ['Cambuí', 'Taquaral', 'Barão Geraldo', 'Guanabara']),
  city('Santos', 'SP', '13', -23.9608, -46.3336, ['Gonzaga', 'Boqueirão', 'Ponta da Praia', 'Embaré']),
  city('Ribeirão Preto', 'SP', '16', -21.1704, -47.8103, ['Jardim Botânico', 'Alto da Boa Vista', 'Centro']),
  city('Niterói', 'RJ', '21', -22.8832, -43.1034, ['Icaraí', 'Santa Rosa', 'Ingá']),
  city('Natal', 'RN', '84', -5.7945, -35.211, ['Ponta Negra', 'Tirol', 'Lagoa Nova']),
  city('João Pessoa', 'PB', '83', -7.1195, -34.845, ['Manaíra', 'Tambaú', 'Bessa']),
  city('Maceió', 'AL', '82', -9.6498, -35.7089, ['Ponta Verde', 'Pajuçara', 'Jatiúca']),
  city('São Luís', 'MA', '98', -2.5307, -44.3068, ['Renascença', 'Calhau', 'Cohama']),
  city('Teresina', 'PI', '86', -5.0892, -42.8016, ['Jóquei', 'Fátima', 'São Cristóvão']),
  city('Campo Grande', 'MS', '67', -20.4697, -54.6201, ['Jardim dos Estados', 'Chácara Cachoeira', 'Centro']),
  city('Cuiabá', 'MT', '65', -15.601, -56.0974, ['Goiabeiras', 'Jardim das Américas', 'Centro Sul']),
  city('Londrina', 'PR', '43', -23.3045, -51.1696, ['Gleba Palhano', 'Centro', 'Jardim Higienópolis']),
  city('Joinville', 'SC', '47', -26.3045, -48.8487, ['América', 'Atiradores', 'Glória']),
  city('Uberlândia', 'MG', '34', -18.9186, -48.2772, ['Santa Mônica', 'Fundinho', 'Jardim Karaíba']),
  city('Aracaju', 'SE', '79', -10.9472, -37.0731, ['Jardins', 'Atalaia', 'Grageru']),
  city('Sorocaba', 'SP', '15', -23.5015, -47.4526, ['Campolim', 'Centro', 'Jardim Vergueiro']),
];

const PLANS = [
  planRow('Plano Mensal', 'mensal', 12990, 'Acesso livre à unidade e às aulas coletivas, sem fidelidade.'),
  planRow('Plano Trimestral', 'trimestral', 34990, 'Três meses com desconto e avaliação física inclusa.'),
  planRow('Plano Semestral', 'semestral', 65990, 'Seis meses com avaliação física bimestral.'),
  planRow('Plano Anual', 'anual', 118800, 'Doze meses pelo melhor preço, com avaliação física trimestral.'),
  planRow('Plano Família', 'mensal', 35990, 'Até quatro pessoas da mesma família.'),
  planRow('Plano Estudante', 'mensal', 8990, 'Para estudantes, de segunda a sexta até as 17h.'),
  planRow('Plano Sênior', 'mensal', 9990, 'A partir de 60 anos, com acompanhamento de professor.'),
  planRow('Plano Corporativo', 'mensal', 10990, 'Para funcionários de empresas parceiras.'),
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
        beneficio_url: hasBenefit ? benefitUrl(platform, slug) : null,
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

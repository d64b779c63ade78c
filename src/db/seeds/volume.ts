// Realistic volumes for benchmarks: years of survey answers, free messages, franchise leads,
// trial-class bookings and CTA clicks of a chain of hundreds of units, written straight into
// the project's tables (never through the forms). Deterministic: the same options and seed
// give the same rows on either engine. See docs/volume.md.
import { createRequire } from 'node:module';
import type SQLiteDatabase from 'better-sqlite3';
import type PgModule from 'pg';
import { sql, type Kysely } from 'kysely';
import { type DatabaseConfig, loadConfig, type RetentionConfig } from '../../config';
import { ANONYMOUS_PERSON, REMOVED_TEXT } from '../anonymised';
import { foldText } from '../../lib/text';
import { formatPhone } from '../../lib/form/parsers';
import { addDays, cutoffMonths, saoPauloDayStartIso, saoPauloWeekStart, weekdayOf } from '../../lib/time';
import { createDb, type Db } from '../index';
import type { WithTrialCapacity } from '../types';
import { insertDemoSurvey } from './demo';
import { LARGE_CITIES, seedLargeCatalog } from './large';

// ---------------------------------------------------------------------------------------------
// Options and planned counts

/** Totals at escala 1 for DEFAULT_VOLUME's chain and years (docs/volume.md explains each). */
export const BASE_TOTALS = {
  respostas: 3_000_000,
  mensagens: 300_000,
  leads: 60_000,
  agendamentos: 1_500_000,
  cliques: 3_000_000,
} as const;
export type VolumeKind = keyof typeof BASE_TOTALS;

export interface VolumeOptions {
  /** units the volume is spread over (created when the catalog has fewer active ones) */
  unidades: number;
  anos: number;
  /** multiplies every total (0.01 = a small version) */
  escala: number;
  /** PRNG seed */
  semente: number;
  /** last São Paulo day of the window (aaaa-mm-dd); default yesterday */
  fim?: string;
  /** totals at escala 1 for the chosen units and years (default: BASE_TOTALS scaled by units and years) */
  totais?: Partial<Record<VolumeKind, number>>;
  /** the retention periods the site runs with (default: the settings' defaults) */
  retencao?: RetentionConfig;
  /**
   * `desigual`: a few huge units and many small ones for the answers, messages and clicks, and
   * long comments and messages; the trial bookings keep the usual sizes (each unit's places bound them).
   */
  forma?: VolumeShape;
}

export const VOLUME_SHAPES = ['padrao', 'desigual'] as const;
export type VolumeShape = (typeof VOLUME_SHAPES)[number];

export const DEFAULT_VOLUME: VolumeOptions = { unidades: 300, anos: 3, escala: 1, semente: 20261127 };

/** How many rows of each kind the options ask for. */
export function plannedCounts(o: VolumeOptions): Record<VolumeKind, number> {
  const out = {} as Record<VolumeKind, number>;
  for (const k of Object.keys(BASE_TOTALS) as VolumeKind[]) {
    const atScale1 =
      o.totais?.[k] ?? BASE_TOTALS[k] * (o.unidades / DEFAULT_VOLUME.unidades) * (o.anos / DEFAULT_VOLUME.anos);
    out[k] = Math.round(atScale1 * o.escala);
  }
  return out;
}

/** The window: from the first day of the month `anos * 12 - 1` months before `fim`'s, to `fim` (São Paulo days). */
export function volumeWindow(o: Pick<VolumeOptions, 'anos' | 'fim'>, now: Date = new Date()) {
  const last = o.fim ?? addDays(spDayOf(now.getTime()), -1);
  const [y, m] = last.split('-').map(Number) as [number, number];
  const months = Math.round(o.anos * 12);
  const startMonth = y * 12 + (m - 1) - (months - 1);
  const first = `${Math.floor(startMonth / 12)}-${String((startMonth % 12) + 1).padStart(2, '0')}-01`;
  return { first, last, months };
}

export interface VolumeResult {
  counts: Record<string, number>;
  seconds: Record<string, number>;
  window: { first: string; last: string };
}

// ---------------------------------------------------------------------------------------------
// Small deterministic helpers

/** mulberry32: tiny, fast, good enough for synthetic data. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const u32 = () => (next() * 4294967296) >>> 0;
  return {
    next,
    u32,
    int: (n: number) => Math.floor(next() * n),
    chance: (p: number) => next() < p,
    pick: <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!,
    /** standard normal (Box–Muller) */
    normal: () => Math.sqrt(-2 * Math.log(1 - next())) * Math.cos(2 * Math.PI * next()),
  };
}
type Rng = ReturnType<typeof prng>;

/** Picks an index by weight in O(log n). */
function weighted(weights: readonly number[]) {
  const cum = new Float64Array(weights.length);
  let s = 0;
  weights.forEach((w, i) => (cum[i] = s += w));
  return (r: number) => {
    const x = r * s;
    let lo = 0;
    let hi = cum.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cum[mid]! > x) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  };
}

/** Splits `total` over `weights` exactly (largest remainder). */
function apportion(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => [e - Math.floor(e), i] as const).sort((a, b) => b[0] - a[0] || a[1] - b[1]);
  for (let k = 0; left > 0; k++, left--) out[order[k % order.length]![1]]!++;
  return out;
}

const DAY_MS = 86_400_000;
// São Paulo's offset taken once from the project's clock (src/lib/time.ts: no DST since 2019),
// so the millions of rows skip a time-zone lookup each.
const SP_OFFSET_MS = Date.parse(saoPauloDayStartIso('2020-01-01')) - Date.parse('2020-01-01T00:00:00Z');
const spDayOf = (ms: number) => new Date(ms - SP_OFFSET_MS).toISOString().slice(0, 10);
const spMidnight = (day: string) => Date.parse(`${day}T00:00:00Z`) + SP_OFFSET_MS;
const iso = (ms: number) => new Date(ms).toISOString();
const hhmmToMin = (s: string) => Number(s.slice(0, 2)) * 60 + Number(s.slice(3, 5));
const minToHhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/** A 22-character base64url key like the forms' envio_id, unique by construction (the id is in it). */
function randomKey(rng: Rng, id: number, bytes = 16): string {
  const b = Buffer.alloc(bytes);
  for (let i = 0; i < bytes - 4; i++) b[i] = rng.int(256);
  b.writeUInt32BE(id >>> 0, bytes - 4);
  return b.toString('base64url');
}

// Gyms fill up after New Year and Carnival, empty in the July holidays and December.
const MONTH_FACTOR = [1.25, 1.2, 1.15, 1.05, 1.0, 0.9, 0.82, 0.95, 1.0, 1.0, 0.95, 0.75];
// Monday is the busiest day of a gym, Sunday the quietest (0 = domingo).
const GYM_WEEKDAY = [0.4, 1.2, 1.15, 1.1, 1.05, 0.9, 0.6];
const WEB_WEEKDAY = [0.8, 1.15, 1.1, 1.05, 1.0, 0.9, 0.75];
const GYM_HOURS = [
  0.2, 0.1, 0.05, 0.05, 0.1, 0.8, 3, 4, 3.5, 2.5, 2, 2, 2.5, 2, 1.5, 1.5, 2.5, 4, 4.5, 4.2, 3.2, 2, 1, 0.5,
];
const WEB_HOURS = [
  0.8, 0.4, 0.2, 0.1, 0.1, 0.3, 1, 2, 2.5, 2.8, 3, 3, 3.2, 3, 2.8, 2.7, 2.7, 2.8, 3, 3.4, 3.8, 3.6, 2.6, 1.6,
];

interface Day {
  day: string;
  /** UTC ms of the São Paulo midnight */
  start: number;
  weekday: number;
  /** Monday of its week */
  week: string;
}

function daysOf(first: string, last: string): Day[] {
  const out: Day[] = [];
  for (let d = first; d <= last; d = addDays(d, 1))
    out.push({ day: d, start: spMidnight(d), weekday: weekdayOf(d), week: saoPauloWeekStart(d) });
  return out;
}

/** Events per day: seasonality, weekday, and a chain growing ~12% a year. */
function perDay(total: number, days: Day[], weekdayFactor: readonly number[]): number[] {
  return apportion(
    total,
    days.map((d, i) => MONTH_FACTOR[Number(d.day.slice(5, 7)) - 1]! * weekdayFactor[d.weekday]! * 1.12 ** (i / 365)),
  );
}

/** `n` sorted instants within a São Paulo day, by an hourly profile. */
function timesOfDay(rng: Rng, d: Day, n: number, hour: (r: number) => number): number[] {
  const out = new Array<number>(n);
  for (let i = 0; i < n; i++) out[i] = d.start + hour(rng.next()) * 3_600_000 + Math.floor(rng.next() * 3_600_000);
  return out.sort((a, b) => a - b);
}

// ---------------------------------------------------------------------------------------------
// People and texts (pt-BR)

const FIRST = [
  'Ana',
  'Bruno',
  'Carla',
  'Daniel',
  'Eduarda',
  'Felipe',
  'Gabriela',
  'Gustavo',
  'Helena',
  'Igor',
  'Isabela',
  'João',
  'Juliana',
  'Lucas',
  'Larissa',
  'Marcos',
  'Mariana',
  'Matheus',
  'Natália',
  'Otávio',
  'Patrícia',
  'Pedro',
  'Rafael',
  'Renata',
  'Rodrigo',
  'Sabrina',
  'Samuel',
  'Tatiane',
  'Thiago',
  'Vanessa',
  'Vinícius',
  'Yasmin',
  'André',
  'Beatriz',
  'Caio',
  'Débora',
  'Fernanda',
  'Leonardo',
  'Luana',
  'Ricardo',
];
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
  'Costa',
  'Ribeiro',
  'Martins',
  'Carvalho',
  'Almeida',
  'Lopes',
  'Soares',
  'Fernandes',
  'Vieira',
  'Barbosa',
  'Rocha',
  'Dias',
  'Nascimento',
  'Andrade',
  'Moreira',
  'Nunes',
  'Marques',
  'Machado',
  'Mendes',
  'Freitas',
  'Cardoso',
  'Ramos',
  'Gonçalves',
  'Santana',
  'Teixeira',
  'Araújo',
  'Pinto',
  'Correia',
  'Moura',
  'Batista',
];
const MAIL_DOMAINS = [
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'gmail.com',
  'hotmail.com',
  'hotmail.com',
  'outlook.com',
  'yahoo.com.br',
  'uol.com.br',
  'icloud.com',
];

function person(rng: Rng) {
  const first = rng.pick(FIRST);
  const last = rng.pick(LAST);
  return { first, last, nome: rng.chance(0.3) ? `${first} ${rng.pick(LAST)} ${last}` : `${first} ${last}` };
}
function emailOf(rng: Rng, first: string, last: string): string {
  const base = foldText(`${first}.${last}`).replace(/[^a-z.]/g, '');
  return `${base}${rng.chance(0.6) ? rng.int(999) : ''}@${rng.pick(MAIL_DOMAINS)}`;
}
/** A Brazilian mobile as stored (+55 DDD 9xxxx-xxxx). */
function mobile(rng: Rng, ddd: string): string {
  return `+55${ddd}9${String(60_000_000 + rng.int(39_999_999))}`;
}

const COMMENTS = {
  promotores: [
    'Adoro a academia, os professores são muito atenciosos.',
    'Ambiente ótimo e equipamentos sempre limpos.',
    'Melhor academia que já frequentei!',
    'As aulas de spinning são excelentes.',
    'Recepção sempre simpática. Parabéns à equipe.',
    'Horário amplo ajuda muito na minha rotina.',
    'Gosto muito do acompanhamento na musculação.',
    'Tudo certo, continuem assim.',
  ],
  neutros: [
    'Boa academia, mas fica cheia no horário de pico.',
    'Poderia ter mais aulas à noite.',
    'O vestiário precisa de mais atenção no fim do dia.',
    'Alguns aparelhos ficam muito tempo em manutenção.',
    'O ar-condicionado às vezes não dá conta.',
    'Gostaria de mais horários de pilates.',
  ],
  detratores: [
    'Esteira quebrada há semanas e ninguém resolve.',
    'Muito cheio à noite, não consigo treinar.',
    'Vestiário sujo e sem papel.',
    'Fui mal atendido na recepção.',
    'O professor não dá atenção aos alunos novos.',
    'Cancelaram a aula sem avisar.',
    'Ar-condicionado desligado e sala abafada.',
    'Cobraram a mensalidade em dobro e até agora não devolveram.',
  ],
} as const;
const REPAIRS = [
  'A esteira 3 está fazendo barulho.',
  'Bebedouro do segundo andar sem água gelada.',
  'Cabo do crossover desfiando.',
  'Chuveiro do vestiário masculino frio.',
  'Espelho da sala 2 trincado.',
];

const MESSAGES = [
  'Gostaria de sugerir mais aulas de funcional no sábado de manhã.',
  'O estacionamento está sempre lotado no horário da noite.',
  'Quero parabenizar a professora da aula de yoga, excelente trabalho.',
  'A música na área de musculação está alta demais.',
  'O bebedouro perto da recepção está quebrado há dias.',
  'Minha catraca não libera com a biometria, já avisei duas vezes.',
  'Seria ótimo ter toalhas disponíveis para venda na recepção.',
  'O vestiário feminino precisa de mais secadores.',
  'Adoro a unidade, mas a limpeza dos aparelhos poderia ser mais frequente.',
  'Fui cobrado duas vezes neste mês, preciso de ajuda com o estorno.',
  'Poderiam abrir mais cedo aos domingos?',
  'O professor da noite é muito atencioso, merece reconhecimento.',
  'Tem um aparelho de leg press com o banco rasgado.',
  'O ar-condicionado da sala de spinning não está funcionando.',
  'Gostaria de trancar minha matrícula por dois meses, como faço?',
  'Sugiro colocar álcool em gel perto dos halteres.',
];
const REPLIES = [
  'Olá! Obrigado pelo contato. Já encaminhamos para a equipe da unidade e retornaremos em breve.',
  'Olá! Agradecemos o aviso. O problema foi resolvido hoje pela manutenção.',
  'Olá! Ficamos felizes com o seu elogio, vamos repassar à equipe.',
  'Olá! Sua sugestão foi registrada e será avaliada pela coordenação da unidade.',
  'Olá! Pedimos desculpas pelo transtorno. Nossa equipe financeira entrará em contato.',
];
const LEAD_NOTES = [
  'Primeiro contato por WhatsApp, pediu a apresentação da franquia.',
  'Enviada a circular de oferta de franquia.',
  'Reunião por vídeo marcada para a próxima semana.',
  'Sem retorno após três tentativas.',
  'Tem ponto comercial em vista, pedir fotos do imóvel.',
  'Perfil financeiro abaixo do necessário para a região.',
];
const EXTRA_CITIES = [
  ['Maringá', 'PR', '44'],
  ['Chapecó', 'SC', '49'],
  ['Juiz de Fora', 'MG', '32'],
  ['Caxias do Sul', 'RS', '54'],
  ['Feira de Santana', 'BA', '75'],
  ['Bauru', 'SP', '14'],
  ['Anápolis', 'GO', '62'],
  ['Montes Claros', 'MG', '38'],
  ['Palmas', 'TO', '63'],
  ['Porto Velho', 'RO', '69'],
  ['Petrolina', 'PE', '87'],
  ['Cascavel', 'PR', '45'],
  ['Blumenau', 'SC', '47'],
  ['Piracicaba', 'SP', '19'],
  ['São José dos Campos', 'SP', '12'],
] as const;
const LEAD_CITIES: (readonly [string, string, string])[] = [
  ...LARGE_CITIES.map((c) => [c.cidade, c.uf, c.ddd] as const),
  ...EXTRA_CITIES,
];

// The franchise form's stored option values (src/features/franchise/options.ts), most common first.
const LEAD_OPTIONS = {
  investimento_parceria: ['sozinho', 'com_socios', 'com_socios', 'com_investidor', 'ainda_nao_sei'],
  faixa_investimento: ['ate_300mil', '300mil_500mil', '300mil_500mil', '500mil_1milhao', 'acima_1milhao'],
  prazo_proximo_passo: ['imediato', 'ate_3_meses', 'ate_3_meses', '3_a_6_meses', 'mais_de_6_meses'],
  experiencia_negocio: ['nenhuma', 'empresario', 'empresario', 'franqueado', 'setor_fitness'],
  motivo_interesse: [
    'ter_meu_negocio',
    'ter_meu_negocio',
    'diversificar_investimentos',
    'paixao_fitness',
    'oportunidade_regiao',
    'outro',
  ],
} as const;

// ---------------------------------------------------------------------------------------------
// Writers: one per engine, same calls. Rows go column by column.

type ColType = 'int' | 'text' | 'float';
interface Table {
  name: string;
  cols: readonly (readonly [string, ColType])[];
}
type Columns = unknown[][];

interface Sink {
  insert(table: Table, data: Columns, n: number): Promise<void>;
  /** waits for everything sent and commits */
  finish(): Promise<void>;
  close(): Promise<void>;
}

const require = createRequire(import.meta.url);

/** Rows per committed SQLite transaction / PostgreSQL transaction. */
const TX_ROWS = 400_000;

function sqliteSink(filename: string): Sink {
  const SQLite = require('better-sqlite3') as typeof SQLiteDatabase;
  const db = new SQLite(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  // Only this process writes while seeding: a crash loses a disposable database anyway.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  db.pragma('temp_store = MEMORY');
  db.pragma('foreign_keys = ON');
  const statements = new Map<string, SQLiteDatabase.Statement>();
  const stmt = (t: Table, rows: number) => {
    const key = `${t.name}:${rows}`;
    let s = statements.get(key);
    if (!s) {
      const one = `(${t.cols.map(() => '?').join(',')})`;
      s = db.prepare(
        `insert into ${t.name} (${t.cols.map((c) => c[0]).join(',')}) values ${Array(rows).fill(one).join(',')}`,
      );
      statements.set(key, s);
    }
    return s;
  };
  let inTx = 0;
  db.exec('begin');
  return {
    async insert(t, data, n) {
      const c = t.cols.length;
      const per = Math.max(1, Math.floor(2000 / c));
      const params: unknown[] = [];
      for (let start = 0; start < n; start += per) {
        const rows = Math.min(per, n - start);
        params.length = rows * c;
        let k = 0;
        for (let r = start; r < start + rows; r++) for (let j = 0; j < c; j++) params[k++] = data[j]![r];
        stmt(t, rows).run(params);
      }
      inTx += n;
      if (inTx >= TX_ROWS) {
        db.exec('commit');
        db.exec('begin');
        inTx = 0;
      }
    },
    async finish() {
      db.exec('commit');
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.exec('begin');
    },
    async close() {
      if (db.inTransaction) db.exec('commit');
      db.close();
    },
  };
}

/** A PostgreSQL array literal of ints or texts (NULL for null). */
function pgArray(values: unknown[], n: number, type: ColType): string {
  const parts = new Array<string>(n);
  if (type === 'text') {
    for (let i = 0; i < n; i++) {
      const v = values[i];
      parts[i] = v === null || v === undefined ? 'NULL' : `"${String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
    }
  } else {
    for (let i = 0; i < n; i++) {
      const v = values[i];
      parts[i] = v === null || v === undefined ? 'NULL' : String(v);
    }
  }
  return `{${parts.join(',')}}`;
}

async function pgSink(config: Extract<DatabaseConfig, { engine: 'postgres' }>): Promise<Sink> {
  const pg = require('pg') as typeof PgModule;
  const client = new pg.Client({
    connectionString: config.connectionString,
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  await client.connect();
  // Only this process writes while seeding; a lost last commit after a crash is harmless.
  await client.query('set synchronous_commit = off');
  await client.query('begin');
  // Statements are chained on the one connection (so they run in order, parents before
  // children, each sent when the previous has answered, as pg requires) while the next batch
  // is generated; at most a few wait at a time.
  const pending: Promise<unknown>[] = [];
  let failure: unknown = null;
  let tail: Promise<unknown> = Promise.resolve();
  const send = async (text: string, values?: unknown[]) => {
    const p = tail.then(() => client.query(text, values));
    tail = p.catch(() => {});
    p.catch((err) => (failure ??= err));
    pending.push(p);
    while (pending.length > 2) await pending.shift();
    if (failure) throw failure;
  };
  const PG_TYPE = { int: 'int4', text: 'text', float: 'float8' } as const;
  let inTx = 0;
  return {
    async insert(t, data, n) {
      if (!n) return;
      const cols = t.cols.map((c) => c[0]).join(',');
      const unnest = t.cols.map((c, i) => `$${i + 1}::${PG_TYPE[c[1]]}[]`).join(',');
      await send(
        `insert into ${t.name} (${cols}) select * from unnest(${unnest})`,
        t.cols.map((c, i) => pgArray(data[i]!, n, c[1])),
      );
      inTx += n;
      if (inTx >= TX_ROWS * 5) {
        await send('commit');
        await send('begin');
        inTx = 0;
      }
    },
    async finish() {
      await send('commit');
      while (pending.length) await pending.shift();
      if (failure) throw failure;
      await client.query('begin');
    },
    async close() {
      await client.query('rollback').catch(() => {});
      await client.end();
    },
  };
}

/** Collects rows of one table and hands them to the sink in batches. */
class Batch {
  data: Columns;
  n = 0;
  rows = 0;
  /** `parent`: flushed first, so a row never reaches the database before the row it points to */
  constructor(
    private sink: Sink,
    readonly table: Table,
    private size = 20_000,
    private parent: Batch | null = null,
  ) {
    this.data = table.cols.map(() => new Array(size));
  }
  async add(...values: unknown[]): Promise<void> {
    const i = this.n++;
    for (let j = 0; j < values.length; j++) this.data[j]![i] = values[j];
    if (this.n === this.size) await this.flush();
  }
  async flush(): Promise<void> {
    if (!this.n) return;
    await this.parent?.flush();
    await this.sink.insert(this.table, this.data, this.n);
    this.rows += this.n;
    this.n = 0;
    this.data = this.table.cols.map(() => new Array(this.size));
  }
}

/** Writes what the batches still hold, in the order given, and counts each table's rows. */
async function flushAll(...batches: Batch[]): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const batch of batches) {
    await batch.flush();
    counts[batch.table.name] = batch.rows;
  }
  return counts;
}

const T = {
  respostas: {
    name: 'respostas_nps',
    cols: [
      ['id', 'int'],
      ['unidade_id', 'int'],
      ['nome_cliente', 'text'],
      ['contato_cliente', 'text'],
      ['comentario', 'text'],
      ['nota_nps', 'int'],
      ['envio_id', 'text'],
      ['criado_em', 'text'],
      ['tratada_em', 'text'],
      ['tratada_por', 'int'],
      ['origem', 'text'],
    ],
  },
  itens: {
    name: 'respostas_itens',
    cols: [
      ['id', 'int'],
      ['resposta_id', 'int'],
      ['pergunta_id', 'int'],
      ['opcao_id', 'int'],
      ['texto', 'text'],
      ['texto_ok', 'int'],
    ],
  },
  mensagens: {
    name: 'fale_aqui',
    cols: [
      ['id', 'int'],
      ['unidade_id', 'int'],
      ['unidade', 'text'],
      ['nome_completo', 'text'],
      ['anonimo', 'int'],
      ['mensagem', 'text'],
      ['contato_email', 'text'],
      ['contato_telefone', 'text'],
      ['aceite_contato', 'int'],
      ['status', 'text'],
      ['criado_em', 'text'],
      ['atualizado_em', 'text'],
      ['lida_em', 'text'],
      ['lida_por', 'int'],
      ['primeira_resposta_em', 'text'],
    ],
  },
  mensagensHist: {
    name: 'fale_aqui_historico',
    cols: [
      ['id', 'int'],
      ['fale_aqui_id', 'int'],
      ['status_de', 'text'],
      ['status_para', 'text'],
      ['usuario_id', 'int'],
      ['criado_em', 'text'],
    ],
  },
  mensagensResp: {
    name: 'fale_aqui_respostas',
    cols: [
      ['id', 'int'],
      ['fale_aqui_id', 'int'],
      ['usuario_id', 'int'],
      ['canal', 'text'],
      ['destinatario', 'text'],
      ['texto', 'text'],
      ['fila_email_id', 'int'],
      ['criado_em', 'text'],
    ],
  },
  leads: {
    name: 'franquia_leads',
    cols: [
      ['id', 'int'],
      ['nome_completo', 'text'],
      ['whatsapp', 'text'],
      ['email', 'text'],
      ['cidade_regiao', 'text'],
      ['investimento_parceria', 'text'],
      ['faixa_investimento', 'text'],
      ['prazo_proximo_passo', 'text'],
      ['experiencia_negocio', 'text'],
      ['motivo_interesse', 'text'],
      ['aceita_contato', 'text'],
      ['status', 'text'],
      ['busca', 'text'],
      ['criado_em', 'text'],
      ['atualizado_em', 'text'],
    ],
  },
  leadsHist: {
    name: 'franquia_leads_historico',
    cols: [
      ['id', 'int'],
      ['lead_id', 'int'],
      ['status_de', 'text'],
      ['status_para', 'text'],
      ['usuario_id', 'int'],
      ['criado_em', 'text'],
    ],
  },
  leadsNotas: {
    name: 'franquia_leads_notas',
    cols: [
      ['id', 'int'],
      ['lead_id', 'int'],
      ['usuario_id', 'int'],
      ['texto', 'text'],
      ['criado_em', 'text'],
    ],
  },
  agendamentos: {
    name: 'aulas_experimentais',
    cols: [
      ['id', 'int'],
      ['unidade_id', 'int'],
      ['aula_id', 'int'],
      ['vaga', 'text'],
      ['atividade', 'text'],
      ['inicio_em', 'text'],
      ['fim_em', 'text'],
      ['dia', 'text'],
      ['nome', 'text'],
      ['whatsapp', 'text'],
      ['email', 'text'],
      ['aceita_contato', 'int'],
      ['envio_id', 'text'],
      ['codigo', 'text'],
      ['status', 'text'],
      ['status_por', 'int'],
      ['lembrete_em', 'text'],
      ['anonimizado_em', 'text'],
      ['semana', 'text'],
      ['criado_em', 'text'],
      ['atualizado_em', 'text'],
    ],
  },
  vagas: {
    name: 'aulas_experimentais_vagas',
    cols: [
      ['unidade_id', 'int'],
      ['vaga', 'text'],
      ['reservados', 'int'],
    ],
  },
  cliques: {
    name: 'cliques_cta',
    cols: [
      ['id', 'int'],
      ['unidade_id', 'int'],
      ['acao', 'text'],
      ['plano_id', 'int'],
      ['semana', 'text'],
      ['criado_em', 'text'],
    ],
  },
} as const satisfies Record<string, Table>;

/** Tables whose ids the generator assigns (next id = max + 1; sequences moved past them afterwards). */
const ID_TABLES = [
  'respostas_nps',
  'respostas_itens',
  'fale_aqui',
  'fale_aqui_historico',
  'fale_aqui_respostas',
  'franquia_leads',
  'franquia_leads_historico',
  'franquia_leads_notas',
  'aulas_experimentais',
  'cliques_cta',
] as const;
/** Tables that must be empty: the generator fills a database once (docs/volume.md). */
export const VOLUME_TABLES = [
  'respostas_nps',
  'fale_aqui',
  'franquia_leads',
  'aulas_experimentais',
  'cliques_cta',
] as const;

export class VolumeError extends Error {}

// ---------------------------------------------------------------------------------------------
// The catalog the volume needs

interface Unit {
  id: number;
  nome: string;
  ddd: string;
  hasBenefit: boolean;
  capacity: number;
  plans: number[];
  managerId: number;
  /** per weekday (0–6): bookable slots */
  slots: SlotDef[][];
  /** relative size of the unit (members) */
  size: number;
  /** detractor share multiplier: some units do worse */
  quality: number;
}
interface SlotDef {
  start: number; // minutes after midnight
  end: number; // may pass 24*60
  aulaId: number | null;
  atividade: string;
}

interface Question {
  id: number;
  tipo: string;
  /** option ids, best value first */
  options: { id: number; valor: number | null }[];
}

async function prepareCatalog(db: Db, o: VolumeOptions, firstDay: string, log: (m: string) => void) {
  const startIso = iso(spMidnight(firstDay));
  const active = await db.selectFrom('unidades').select('id').where('ativo', '=', 1).execute();
  if (active.length < o.unidades) {
    const missing = o.unidades - active.length;
    log(`criando ${missing} unidades (o catálogo tem ${active.length} ativas)…`);
    const { unitIds } = await seedLargeCatalog(db, { units: missing, seed: o.semente });
    // The units exist since the window starts: no answer predates its unit.
    for (const chunk of chunkList(unitIds, 500)) {
      await db
        .updateTable('unidades')
        .set({ criado_em: startIso, atualizado_em: startIso })
        .where('id', 'in', chunk)
        .execute();
    }
  }

  let questions = await loadQuestions(db);
  if (!questions.some((q) => q.tipo === 'escala' && q.options.length === 11)) {
    log('criando as perguntas da pesquisa…');
    await db.transaction().execute(async (trx) => {
      const base =
        Number(
          (
            await trx
              .selectFrom('perguntas')
              .select((eb) => eb.fn.max('ordem').as('m'))
              .executeTakeFirst()
          )?.m ?? -1,
        ) + 1;
      await insertDemoSurvey(trx, base, startIso);
    });
    questions = await loadQuestions(db);
  }
  const scale = questions.find((q) => q.tipo === 'escala' && q.options.length === 11)!;
  // Four items per answer: the score, then the next questions in the survey's order.
  const others = questions.filter((q) => q !== scale && (q.tipo === 'texto' || q.options.length > 0)).slice(0, 3);

  // The capacity column is declared apart from UnidadesTable (see db/types.ts).
  const unitRows = await (db as unknown as Kysely<WithTrialCapacity>)
    .selectFrom('unidades')
    .select(['id', 'nome', 'whatsapp', 'beneficio_url', 'vagas_experimentais as vagas'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(o.unidades)
    .execute();
  const ids = unitRows.map((u) => u.id);
  const inIds = <R>(load: (chunk: number[]) => Promise<R[]>) => chunked(ids, 500, load);
  const plans = await inIds((c) =>
    db
      .selectFrom('planos_unidades as pu')
      .innerJoin('planos as p', 'p.id', 'pu.plano_id')
      .select(['pu.unidade_id', 'pu.plano_id'])
      .where('p.ativo', '=', 1)
      .where('pu.unidade_id', 'in', c)
      .orderBy('pu.plano_id')
      .execute(),
  );
  const hours = await inIds((c) =>
    db
      .selectFrom('unidade_horarios')
      .select(['unidade_id', 'dia_semana', 'abre', 'fecha'])
      .where('unidade_id', 'in', c)
      .orderBy('id')
      .execute(),
  );
  const classes = await inIds((c) =>
    db
      .selectFrom('aulas as a')
      .innerJoin('modalidades as m', 'm.id', 'a.modalidade_id')
      .select(['a.id', 'a.unidade_id', 'a.dia_semana', 'a.inicio', 'a.fim', 'm.nome'])
      .where('m.ativo', '=', 1)
      .where('a.unidade_id', 'in', c)
      .orderBy('a.id')
      .execute(),
  );

  const staff = await ensureStaff(
    db,
    unitRows.map((u) => u.id),
    startIso,
  );
  const rng = prng(o.semente ^ 0x5eed);
  const units: Unit[] = unitRows.map((u) => {
    const slots: SlotDef[][] = Array.from({ length: 7 }, () => []);
    for (const c of classes.filter((x) => x.unidade_id === u.id)) {
      const start = hhmmToMin(c.inicio);
      let end = hhmmToMin(c.fim);
      if (end <= start) end += 24 * 60;
      slots[c.dia_semana]!.push({ start, end, aulaId: c.id, atividade: c.nome });
    }
    // Free training: whole hours within the opening hours (as features/booking/slots.ts).
    for (const h of hours.filter((x) => x.unidade_id === u.id)) {
      const open = hhmmToMin(h.abre);
      let close = hhmmToMin(h.fecha);
      if (close <= open) close += 24 * 60;
      const taken = new Set(slots[h.dia_semana]!.filter((s) => s.aulaId === null).map((s) => s.start));
      for (let m = Math.ceil(open / 60) * 60; m + 60 <= close && m < 24 * 60; m += 60) {
        if (!taken.has(m))
          slots[h.dia_semana]!.push({ start: m, end: m + 60, aulaId: null, atividade: 'Treino livre' });
      }
    }
    return {
      id: u.id,
      nome: u.nome,
      ddd: /^\+55(\d\d)/.exec(u.whatsapp ?? '')?.[1] ?? '11',
      hasBenefit: !!u.beneficio_url,
      capacity: Number(u.vagas ?? 3),
      plans: plans.filter((p) => p.unidade_id === u.id).map((p) => p.plano_id),
      managerId: staff.managers.get(u.id)!,
      slots,
      size: Math.min(3, Math.max(0.3, Math.exp(0.45 * rng.normal()))),
      quality: Math.min(2.5, Math.max(0.4, Math.exp(0.35 * rng.normal()))),
    };
  });
  return { units, scale, others, admins: staff.admins };
}

async function chunked<T, R>(list: T[], size: number, load: (chunk: T[]) => Promise<R[]>): Promise<R[]> {
  const out: R[] = [];
  for (const chunk of chunkList(list, size)) out.push(...(await load(chunk)));
  return out;
}

async function loadQuestions(db: Db): Promise<Question[]> {
  const qs = await db
    .selectFrom('perguntas')
    .select(['id', 'tipo'])
    .where('ativo', '=', 1)
    .orderBy('ordem')
    .orderBy('id')
    .execute();
  const ops = await db
    .selectFrom('perguntas_opcoes')
    .select(['id', 'pergunta_id', 'valor', 'ordem'])
    .where('ativo', '=', 1)
    .orderBy('ordem')
    .orderBy('id')
    .execute();
  return qs.map((q) => ({
    id: q.id,
    tipo: q.tipo,
    options: ops
      .filter((op) => op.pergunta_id === q.id)
      .sort((a, b) => (b.valor ?? -1) - (a.valor ?? -1) || a.ordem - b.ordem || a.id - b.id)
      .map((op) => ({ id: op.id, valor: op.valor })),
  }));
}

/**
 * Staff who read, answer and mark things: five admins and one manager per unit. Their
 * password hash is unusable (no login until `npm run user:password`) and the weekly digest
 * is off, so no mail ever goes to these made-up addresses.
 */
async function ensureStaff(db: Db, unitIds: number[], at: string) {
  const wanted = [
    ...[
      'Coordenação de Qualidade',
      'Expansão — Marina Prado',
      'Expansão — Carlos Teixeira',
      'Atendimento — Sônia Reis',
      'Operações — Paulo Nunes',
    ].map((nome, i) => ({
      email: `volume.admin${i + 1}@academiamovimento.com.br`,
      nome,
      papel: 'admin',
      unit: null as number | null,
    })),
    ...unitIds.map((id) => ({
      email: `volume.gerente.u${id}@academiamovimento.com.br`,
      nome: `Gerente da unidade ${id}`,
      papel: 'gerente',
      unit: id as number | null,
    })),
  ];
  const found = await chunked(wanted, 400, (chunk) => {
    const emails = chunk.map((w) => w.email);
    return db.selectFrom('usuarios').select(['id', 'email']).where('email', 'in', emails).execute();
  });
  const byEmail = new Map(found.map((r) => [r.email, r.id]));
  const missing = wanted.filter((w) => !byEmail.has(w.email));
  for (const chunk of chunkList(missing, 200)) {
    const rows = await db
      .insertInto('usuarios')
      .values(
        chunk.map((w) => ({
          email: w.email,
          nome: w.nome,
          senha_hash: '!sem-senha (gerado por seed:volume)',
          papel: w.papel,
          ativo: 1,
          resumo_semanal: 0,
          criado_em: at,
          atualizado_em: at,
        })),
      )
      .returning(['id', 'email'])
      .execute();
    for (const r of rows) byEmail.set(r.email, r.id);
    const links = chunk
      .filter((w) => w.unit !== null)
      .map((w) => ({ usuario_id: byEmail.get(w.email)!, unidade_id: w.unit! }));
    if (links.length) await db.insertInto('usuarios_unidades').values(links).execute();
  }
  return {
    admins: wanted.filter((w) => w.papel === 'admin').map((w) => byEmail.get(w.email)!),
    managers: new Map(wanted.filter((w) => w.unit !== null).map((w) => [w.unit!, byEmail.get(w.email)!])),
  };
}

function chunkList<T>(list: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

// ---------------------------------------------------------------------------------------------
// The generator

export async function seedVolume(
  config: DatabaseConfig,
  options: VolumeOptions,
  log: (message: string) => void = () => {},
  now: Date = new Date(),
): Promise<VolumeResult> {
  const planned = plannedCounts(options);
  const { first, last } = volumeWindow(options, now);
  const days = daysOf(first, last);
  const windowEnd = spMidnight(addDays(last, 1));
  const seconds: Record<string, number> = {};
  const timed = async (name: string, work: () => Promise<unknown>) => {
    const t0 = performance.now();
    await work();
    seconds[name] = Math.round((performance.now() - t0) / 100) / 10;
    log(`${name}: ${seconds[name]} s`);
  };

  const handle = createDb(config, { statementTimeoutMs: 0, max: 2 });
  let sink: Sink | null = null;
  try {
    const db = handle.db;
    for (const t of VOLUME_TABLES) {
      const { rows } = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(t)}`.execute(db);
      const n = Number(rows[0]?.n ?? 0);
      if (n > 0) {
        throw new VolumeError(
          `A tabela ${t} já tem ${n} linhas: o gerador preenche um banco sem esse volume. ` +
            'Use um banco novo (ex.: DATABASE_URL=sqlite:/tmp/vol.sqlite).',
        );
      }
    }
    let catalog!: Awaited<ReturnType<typeof prepareCatalog>>;
    await timed('catálogo', async () => {
      catalog = await prepareCatalog(db, options, first, log);
    });
    const nextId: Record<string, number> = {};
    for (const t of ID_TABLES) {
      const { rows } = await sql<{ m: number | null }>`select max(id) as m from ${sql.table(t)}`.execute(db);
      nextId[t] = Number(rows[0]?.m ?? 0) + 1;
    }
    await handle.destroy();

    sink = config.engine === 'sqlite' ? sqliteSink(config.filename) : await pgSink(config);
    const retention = options.retencao ?? loadConfig({}).privacy.retention;
    const before = (months: number) => cutoffMonths(new Date(windowEnd), months).getTime();
    const ctx: GenContext = {
      sink,
      days,
      windowEnd,
      anonymisedBefore: {
        answers: before(retention.surveyContactMonths),
        messages: before(retention.messagesMonths),
        leads: before(retention.leadsMonths),
      },
      units: catalog.units,
      admins: catalog.admins,
      nextId,
      seed: options.semente,
      uneven:
        options.forma === 'desigual'
          ? { weights: unevenWeights(catalog.units, options.semente), rng: prng(options.semente ^ 0x7e47) }
          : null,
    };
    const counts: Record<string, number> = {};
    const merge = (c: Record<string, number>) => Object.assign(counts, c);

    await timed('respostas_nps + respostas_itens', async () =>
      merge(await genAnswers(ctx, planned.respostas, catalog.scale, catalog.others)),
    );
    await timed('fale_aqui (+ histórico e respostas)', async () => merge(await genMessages(ctx, planned.mensagens)));
    await timed('franquia_leads (+ histórico e notas)', async () => merge(await genLeads(ctx, planned.leads)));
    await timed('aulas_experimentais (+ vagas)', async () => merge(await genBookings(ctx, planned.agendamentos)));
    await timed('cliques_cta', async () => merge(await genClicks(ctx, planned.cliques)));
    await timed('gravação final', async () => sink!.finish());
    await sink.close();
    sink = null;

    await timed(config.engine === 'postgres' ? 'sequências e vacuum analyze' : 'checkpoint', async () => {
      if (config.engine !== 'postgres') return;
      const after = createDb(config, { statementTimeoutMs: 0, max: 1 });
      try {
        for (const t of ID_TABLES) {
          await sql`select setval(pg_get_serial_sequence(${t}, 'id'),
            coalesce((select max(id) from ${sql.table(t)}), 0) + 1, false)`.execute(after.db);
        }
        // Fresh statistics and visibility map, as autovacuum would leave them later.
        for (const t of [...ID_TABLES, 'aulas_experimentais_vagas', 'usuarios', 'usuarios_unidades'])
          await sql`vacuum (analyze) ${sql.table(t)}`.execute(after.db);
      } finally {
        await after.destroy();
      }
    });
    return { counts, seconds, window: { first, last } };
  } finally {
    await sink?.close().catch(() => {});
    await handle.destroy().catch(() => {});
  }
}

interface GenContext {
  sink: Sink;
  days: Day[];
  windowEnd: number;
  /**
   * Rows older than these instants are written as the retention job leaves them (it runs every
   * hour), so a site started on the volume finds nothing to anonymise.
   */
  anonymisedBefore: { answers: number; messages: number; leads: number };
  units: Unit[];
  admins: number[];
  nextId: Record<string, number>;
  seed: number;
  /** the uneven shape's unit weights (by unit id) and long texts; null for the usual volume */
  uneven: { weights: Map<number, number>; rng: Rng } | null;
}

/** Per day: the day's sorted instants and, for each, a unit index (weighted by unit size). */
function* schedule(
  ctx: GenContext,
  rng: Rng,
  total: number,
  weekdays: readonly number[],
  hours: readonly number[],
  units: Unit[] = ctx.units,
  weightOf: (u: Unit) => number = (u) => ctx.uneven?.weights.get(u.id) ?? u.size,
) {
  const hour = weighted(hours);
  const unit = weighted(units.map(weightOf));
  const counts = perDay(total, ctx.days, weekdays);
  for (let d = 0; d < ctx.days.length; d++) {
    const n = counts[d]!;
    if (!n) continue;
    const times = timesOfDay(rng, ctx.days[d]!, n, hour);
    yield { day: ctx.days[d]!, dayIndex: d, times, unitOf: () => units[unit(rng.next())]! };
  }
}

/**
 * The uneven shape's unit weights: three units a hundred times the median one, the rest
 * log-normal with a long tail, so most units are small. Drawn from their own generator, so the
 * rows of the usual shape do not change.
 */
function unevenWeights(units: Unit[], seed: number): Map<number, number> {
  const rng = prng(seed ^ 0x5e3d);
  const weights = new Map(units.map((u) => [u.id, Math.exp(1.2 * rng.normal())]));
  for (let i = 0; i < Math.min(3, units.length); i++) weights.set(units[rng.int(units.length)]!.id, 100);
  return weights;
}

/** The survey's comment and the message form accept this many characters (their services' limits). */
const TEXT_MAX = 3000;
const LONG_SENTENCES = [
  'Já falei com a recepção mais de uma vez e ainda não tive retorno.',
  'Treino nesta unidade há dois anos, de manhã cedo, antes do trabalho.',
  'No fim da tarde as filas nos aparelhos passam de quinze minutos.',
  'O professor da turma das sete explica cada exercício com calma e corrige a postura.',
  'Meu filho também treina aqui e gosta muito das aulas de lutas.',
  'Seria bom ter um bebedouro no segundo andar, perto dos aparelhos de cardio.',
  'O estacionamento lota a partir das dezoito horas e fica difícil chegar a tempo da aula.',
  'Fiz a avaliação física na semana passada e o resultado veio bem detalhado.',
  'A música da sala de musculação está alta demais para conversar com o instrutor.',
  'Mudei de unidade por causa do horário e senti diferença no atendimento.',
];

/** Half of the texts grow to hundreds or thousands of characters (up to the forms' limit), as some people write. */
function longText(rng: Rng, start: string): string {
  if (!rng.chance(0.5)) return start;
  const target = Math.min(TEXT_MAX, Math.round(200 * Math.exp(1.1 * Math.abs(rng.normal()))));
  let text = start;
  while (text.length < target) text += ` ${rng.pick(LONG_SENTENCES)}`;
  return text.slice(0, TEXT_MAX);
}

/** A delay in ms drawn around `medianHours` (log-normal, spread `sigma`). */
const delay = (rng: Rng, medianHours: number, sigma = 0.9) =>
  Math.round(medianHours * 3_600_000 * Math.exp(sigma * rng.normal()));

async function genAnswers(ctx: GenContext, total: number, scale: Question, others: Question[]) {
  const rng = prng(ctx.seed ^ 0xa11);
  const answers = new Batch(ctx.sink, T.respostas);
  const items = new Batch(ctx.sink, T.itens, 40_000, answers);
  let id = ctx.nextId.respostas_nps!;
  let itemId = ctx.nextId.respostas_itens!;
  const byValue = new Map(scale.options.map((op) => [op.valor, op.id]));
  // 0–10 within each category: most promoters give 10, most neutrals 8, detractors spread.
  const promoter = weighted([0.33, 0.67]); // 9, 10
  const neutral = weighted([0.4, 0.6]); // 7, 8
  const detractor = weighted([0.16, 0.06, 0.08, 0.09, 0.11, 0.2, 0.3]); // 0..6
  const origin = weighted([0.5, 0.33, 0.17]);
  const ORIGINS = ['site', 'cartaz', 'quiosque'];
  // Option picks per category, best first: promoters mostly pick the best option.
  const optionPickers = others.map((q) => ({
    q,
    pick: [1.3, 0.45, -0.35].map((a) => weighted(q.options.map((_, i) => Math.exp(-a * i)))),
  }));

  for (const { times, unitOf } of schedule(ctx, rng, total, GYM_WEEKDAY, GYM_HOURS)) {
    for (const t of times) {
      const u = unitOf();
      const pDet = Math.min(0.45, 0.125 * u.quality);
      const r = rng.next();
      const cat = r < pDet ? 2 : r < pDet + 0.2 ? 1 : 0; // 0 promoter, 1 neutral, 2 detractor
      const nota = cat === 0 ? 9 + promoter(rng.next()) : cat === 1 ? 7 + neutral(rng.next()) : detractor(rng.next());
      const o = ORIGINS[origin(rng.next())]!;
      const kiosk = o === 'quiosque' ? 0.5 : 1;
      const p = person(rng);
      const withName = rng.chance((cat === 2 ? 0.55 : 0.3) * kiosk);
      const contact = rng.chance((cat === 2 ? 0.45 : 0.18) * kiosk)
        ? rng.chance(0.6)
          ? emailOf(rng, p.first, p.last)
          : mobile(rng, u.ddd)
        : null;
      const picked = rng.chance([0.12, 0.25, 0.55][cat]!)
        ? rng.pick(COMMENTS[(['promotores', 'neutros', 'detratores'] as const)[cat]])
        : null;
      const comment = picked && ctx.uneven ? longText(ctx.uneven.rng, picked) : picked;
      // Most detractors are called back within days; the last weeks' still wait in the queue.
      let tratadaEm: string | null = null;
      let tratadaPor: number | null = null;
      if (cat === 2 && rng.chance(0.75)) {
        const at = t + delay(rng, 30);
        if (at < ctx.windowEnd) {
          tratadaEm = iso(at);
          tratadaPor = rng.chance(0.8) ? u.managerId : rng.pick(ctx.admins);
        }
      }
      const kept = t >= ctx.anonymisedBefore.answers;
      await answers.add(
        id,
        u.id,
        withName && kept ? p.nome : null,
        kept ? contact : null,
        comment,
        nota,
        randomKey(rng, id),
        iso(t),
        tratadaEm,
        tratadaPor,
        o,
      );
      await items.add(itemId++, id, scale.id, byValue.get(nota)!, null, 0);
      for (const { q, pick } of optionPickers) {
        if (q.tipo === 'texto') {
          const repair = rng.chance(cat === 2 ? 0.4 : 0.08);
          await items.add(itemId++, id, q.id, null, repair ? rng.pick(REPAIRS) : null, repair ? 0 : 1);
        } else {
          await items.add(itemId++, id, q.id, q.options[pick[cat]!(rng.next())]!.id, null, 0);
        }
      }
      id++;
    }
  }
  return flushAll(answers, items);
}

async function genMessages(ctx: GenContext, total: number) {
  const rng = prng(ctx.seed ^ 0xfa1e);
  const msgs = new Batch(ctx.sink, T.mensagens);
  const hist = new Batch(ctx.sink, T.mensagensHist, 20_000, msgs);
  const replies = new Batch(ctx.sink, T.mensagensResp, 20_000, msgs);
  let id = ctx.nextId.fale_aqui!;
  let histId = ctx.nextId.fale_aqui_historico!;
  let replyId = ctx.nextId.fale_aqui_respostas!;
  for (const { times, unitOf } of schedule(ctx, rng, total, GYM_WEEKDAY, WEB_HOURS)) {
    for (const t of times) {
      const u = unitOf();
      // A few senders type a unit name the list does not have: no unit id (admins only see those).
      const noUnit = rng.chance(0.01);
      const anonimo = rng.chance(0.25);
      const p = person(rng);
      const email = rng.chance(anonimo ? 0.05 : 0.45) ? emailOf(rng, p.first, p.last) : null;
      const phone = rng.chance(anonimo ? 0.05 : 0.35) ? mobile(rng, u.ddd) : null;
      const staff = noUnit || rng.chance(0.15) ? rng.pick(ctx.admins) : u.managerId;
      // Lifecycle: read, answered (when there is a contact), resolved; only what happened before the window's end.
      const events: [string, number][] = [];
      const readAt = t + delay(rng, 8);
      let replyAt: number | null = null;
      if (readAt < ctx.windowEnd) {
        events.push(['lida', readAt]);
        if ((email || phone) && rng.chance(0.8)) {
          replyAt = readAt + delay(rng, 6);
          if (replyAt < ctx.windowEnd) events.push(['respondida', replyAt]);
          else replyAt = null;
        }
        if (rng.chance(replyAt ? 0.7 : 0.5)) {
          const doneAt = (replyAt ?? readAt) + delay(rng, 36);
          if (doneAt < ctx.windowEnd) events.push(['resolvida', doneAt]);
        }
      }
      const status = events.length ? events[events.length - 1]![0] : 'nova';
      const updated = events.length ? events[events.length - 1]![1] : t;
      const unitName = noUnit
        ? `Unidade ${rng.pick(['do centro', 'perto do shopping', 'da avenida', 'nova'])}`
        : u.nome;
      const picked = rng.pick(MESSAGES);
      const text = ctx.uneven ? longText(ctx.uneven.rng, picked) : picked;
      const kept = t >= ctx.anonymisedBefore.messages;
      await msgs.add(
        id,
        noUnit ? null : u.id,
        unitName,
        anonimo || !kept ? 'Anônimo' : p.nome,
        anonimo || !kept ? 1 : 0,
        kept ? text : REMOVED_TEXT,
        kept ? email : null,
        kept ? phone : null,
        email || phone ? 1 : 0,
        status,
        iso(t),
        iso(updated),
        events.length ? iso(readAt) : null,
        events.length ? staff : null,
        replyAt ? iso(replyAt) : null,
      );
      let from = 'nova';
      for (const [to, at] of events) {
        await hist.add(histId++, id, from, to, staff, iso(at));
        from = to;
      }
      if (replyAt) {
        const second = rng.chance(0.1) ? replyAt + delay(rng, 20) : null;
        for (const at of second && second < ctx.windowEnd ? [replyAt, second] : [replyAt]) {
          const canal = email ? 'email' : 'whatsapp';
          const reply = rng.pick(REPLIES);
          await replies.add(
            replyId++,
            id,
            staff,
            canal,
            kept ? (email ?? phone) : null,
            kept ? reply : REMOVED_TEXT,
            null,
            iso(at),
          );
        }
      }
      id++;
    }
  }
  return flushAll(msgs, hist, replies);
}

async function genLeads(ctx: GenContext, total: number) {
  const rng = prng(ctx.seed ^ 0x1ead);
  const leads = new Batch(ctx.sink, T.leads, 10_000);
  const hist = new Batch(ctx.sink, T.leadsHist, 20_000, leads);
  const notes = new Batch(ctx.sink, T.leadsNotas, 20_000, leads);
  let id = ctx.nextId.franquia_leads!;
  let histId = ctx.nextId.franquia_leads_historico!;
  let noteId = ctx.nextId.franquia_leads_notas!;
  const city = weighted(LEAD_CITIES.map((_, i) => (i < LARGE_CITIES.length ? 2 : 1)));
  for (const { times } of schedule(ctx, rng, total, WEB_WEEKDAY, WEB_HOURS)) {
    for (const t of times) {
      const p = person(rng);
      const [cidade, uf, ddd] = LEAD_CITIES[city(rng.next())]!;
      const whatsapp = mobile(rng, ddd);
      const email = emailOf(rng, p.first, p.last);
      const cidadeRegiao = rng.chance(0.7) ? `${cidade}/${uf}` : `${cidade} e região - ${uf}`;
      const pick = (k: keyof typeof LEAD_OPTIONS) => rng.pick(LEAD_OPTIONS[k]);
      // Pipeline: novo → em_contato → qualificado → convertido, dropped (descartado) on the way.
      const steps: [string, number][] = [['novo', t]];
      let at = t;
      const step = (to: string, medianHours: number) => {
        at += delay(rng, medianHours);
        if (at >= ctx.windowEnd) return false;
        steps.push([to, at]);
        return true;
      };
      if (rng.chance(0.1)) step('descartado', 72);
      else if (rng.chance(0.85) && step('em_contato', 40)) {
        if (rng.chance(0.4)) {
          if (step('qualificado', 24 * 10)) {
            if (rng.chance(0.12)) step('convertido', 24 * 45);
            else if (rng.chance(0.4)) step('descartado', 24 * 20);
          }
        } else if (rng.chance(0.6)) step('descartado', 24 * 7);
      }
      const owner = rng.pick(ctx.admins);
      const lastAt = steps[steps.length - 1]![1];
      const noteTimes: number[] = [];
      if (steps.length > 1 && rng.chance(0.45)) {
        for (let k = 1 + rng.int(3); k > 0; k--) {
          const nt = t + Math.floor(rng.next() * Math.max(1, lastAt - t + delay(rng, 24)));
          if (nt < ctx.windowEnd) noteTimes.push(nt);
        }
        noteTimes.sort((a, b) => a - b);
      }
      const updated = Math.max(lastAt, noteTimes[noteTimes.length - 1] ?? 0);
      // Untouched for the leads' period: name, WhatsApp, e-mail, search text and notes gone.
      const kept = updated >= ctx.anonymisedBefore.leads;
      const nome = p.nome;
      const busca = foldText([nome, email, whatsapp, formatPhone(whatsapp), cidadeRegiao].join(' ')).slice(0, 700);
      await leads.add(
        id,
        kept ? nome : ANONYMOUS_PERSON,
        kept ? whatsapp : '',
        kept ? email : '',
        cidadeRegiao,
        pick('investimento_parceria'),
        pick('faixa_investimento'),
        pick('prazo_proximo_passo'),
        pick('experiencia_negocio'),
        pick('motivo_interesse'),
        'sim',
        steps[steps.length - 1]![0],
        kept ? busca : '',
        iso(t),
        iso(updated),
      );
      let from: string | null = null;
      for (const [to, when] of steps) {
        await hist.add(histId++, id, from, to, from === null ? null : owner, iso(when));
        from = to;
      }
      for (const nt of noteTimes) {
        const note = rng.pick(LEAD_NOTES);
        if (kept) await notes.add(noteId++, id, owner, note, iso(nt));
      }
      id++;
    }
  }
  return flushAll(leads, hist, notes);
}

async function genBookings(ctx: GenContext, total: number) {
  const rng = prng(ctx.seed ^ 0xb00c);
  const bookable = ctx.units.filter((u) => u.slots.some((s) => s.length > 0) && u.capacity > 0);
  if (!bookable.length && total > 0)
    throw new VolumeError('Nenhuma unidade tem horários ou aulas: não há vagas para aulas experimentais.');
  const bookings = new Batch(ctx.sink, T.agendamentos);
  const vagas = new Batch(ctx.sink, T.vagas, 20_000, bookings);
  let id = ctx.nextId.aulas_experimentais!;
  // Places taken per unit and slot, by class day; a day's counters are written once no booking can reach it.
  const taken = new Map<string, Map<string, { unit: number; vaga: string; n: number }>>();
  const flushDaysBefore = async (day: string) => {
    for (const [d, slots] of taken) {
      if (d >= day) continue;
      for (const s of slots.values()) await vagas.add(s.unit, s.vaga, s.n);
      taken.delete(d);
    }
  };
  const aheadWeights = weighted([0.22, 0.3, 0.18, 0.11, 0.08, 0.06, 0.05]);
  const STATUS = ['compareceu', 'nao_compareceu', 'matriculou'];
  const marked = weighted([0.45, 0.37, 0.18]);
  const cutoff = (ms: number) => {
    // anonymised by the job once the class is 12 months old (booking.jobs.ts)
    const d = new Date(ms);
    d.setUTCMonth(d.getUTCMonth() + 12);
    return d.getTime();
  };
  let skipped = 0;
  for (const { day, times, unitOf } of schedule(ctx, rng, total, WEB_WEEKDAY, WEB_HOURS, bookable, (u) => u.size)) {
    await flushDaysBefore(day.day);
    for (const t of times) {
      // The class: up to 6 days ahead, not started yet, with a place left; another unit if none.
      let placed: {
        u: Unit;
        d: string;
        s: SlotDef;
        vaga: string;
        key: string;
        slots: Map<string, { unit: number; vaga: string; n: number }>;
      } | null = null;
      for (let attempt = 0; attempt < 6 && !placed; attempt++) {
        const u = unitOf();
        const ahead = aheadWeights(rng.next());
        for (let k = 0; k < 7 && !placed; k++) {
          const off = (ahead + k) % 7;
          const d = off === 0 ? day.day : addDays(day.day, off);
          const wd = (day.weekday + off) % 7;
          const options = u.slots[wd]!;
          if (!options.length) continue;
          const dayStart = day.start + off * DAY_MS;
          let slots = taken.get(d);
          for (let tries = 0; tries < 4; tries++) {
            const s = options[rng.int(options.length)]!;
            if (dayStart + s.start * 60_000 <= t) continue;
            const vaga = s.aulaId !== null ? `aula:${s.aulaId}:${d}` : `livre:${d}:${minToHhmm(s.start)}`;
            const key = `${u.id}|${vaga}`;
            if ((slots?.get(key)?.n ?? 0) >= u.capacity) continue;
            if (!slots) taken.set(d, (slots = new Map()));
            placed = { u, d, s, vaga, key, slots };
            break;
          }
        }
      }
      if (!placed) {
        skipped++;
        continue;
      }
      const { u, d, s, vaga, key, slots } = placed;
      const counter = slots.get(key);
      if (counter) counter.n++;
      else slots.set(key, { unit: u.id, vaga, n: 1 });
      const start = spMidnight(d) + s.start * 60_000;
      const end = spMidnight(d) + s.end * 60_000;
      const p = person(rng);
      const email = rng.chance(0.55) ? emailOf(rng, p.first, p.last) : null;
      let status = 'agendado';
      let statusPor: number | null = null;
      let updated = t;
      if (end < ctx.windowEnd && rng.chance(0.88)) {
        const at = Math.min(ctx.windowEnd - 1, end + delay(rng, 6));
        status = STATUS[marked(rng.next())]!;
        statusPor = u.managerId;
        updated = at;
      }
      // The reminder goes out from 09:00 the day before, to bookings made before then (with an e-mail).
      const reminderAt = spMidnight(addDays(d, -1)) + 9 * 3_600_000 + rng.int(600_000);
      const lembrete = email && t < reminderAt - 9 * 3_600_000 && reminderAt < ctx.windowEnd ? iso(reminderAt) : null;
      const anonAt = cutoff(start) + rng.int(600_000);
      const anonymised = anonAt < ctx.windowEnd;
      if (anonymised) updated = Math.max(updated, anonAt);
      await bookings.add(
        id,
        u.id,
        s.aulaId,
        vaga,
        s.atividade,
        iso(start),
        iso(end),
        d,
        anonymised ? 'Pessoa anonimizada' : p.nome,
        anonymised ? null : mobile(rng, u.ddd),
        anonymised ? null : email,
        1,
        randomKey(rng, id),
        randomKey(rng, id, 18),
        status,
        statusPor,
        lembrete,
        anonymised ? iso(anonAt) : null,
        day.week,
        iso(t),
        iso(updated),
      );
      id++;
    }
  }
  await flushDaysBefore('9999-12-31');
  const counts = await flushAll(bookings, vagas);
  if (skipped)
    throw new VolumeError(
      `${skipped} agendamentos não couberam nas vagas das unidades; ` +
        'aumente unidades.vagas_experimentais ou reduza --agendamentos.',
    );
  return counts;
}

async function genClicks(ctx: GenContext, total: number) {
  const rng = prng(ctx.seed ^ 0xc71c);
  const clicks = new Batch(ctx.sink, T.cliques, 40_000);
  let id = ctx.nextId.cliques_cta!;
  const ACTIONS = ['matricula', 'aula_experimental', 'whatsapp', 'beneficio'];
  // Trial-class clicks outnumber the bookings (1,800,000 for 1,500,000 at escala 1), so the
  // funnel's first step reads as a conversion below 100%, as a chain's would.
  const action = weighted([0.2, 0.6, 0.15, 0.05]);
  for (const { day, times, unitOf } of schedule(ctx, rng, total, WEB_WEEKDAY, WEB_HOURS)) {
    for (const t of times) {
      const u = unitOf();
      let acao = ACTIONS[action(rng.next())]!;
      if (acao === 'beneficio' && !u.hasBenefit) acao = 'whatsapp';
      // "Matricule-se" on a plan's card carries the plan.
      const plano = acao === 'matricula' && u.plans.length && rng.chance(0.45) ? rng.pick(u.plans) : null;
      await clicks.add(id++, u.id, acao, plano, day.week, iso(t));
    }
  }
  return flushAll(clicks);
}

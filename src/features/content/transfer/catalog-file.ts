// The catalog file's shape (TypeBox schema and types): units by slug, areas, modalities,
// plans and questions by name/text, never by database id.
import Type, { type Static, type TSchema } from 'typebox';
import { PLAN_ORDER_MAX } from '../plans-taxonomy/plans.service';

export const CATALOG_FORMAT_VERSION = 1;

/**
 * What one file may hold (docs/decisions/178). The export of the benchmark's chain (300
 * units, 3,000 plans) is 4.5 MB; of 1,000 units and 20,000 plans, 19 MB (a unit with its
 * week of classes ~10 KB, a plan ~350 bytes, indented as `catalog:export` writes them).
 * A file at every item limit with items of that size (5,000 × 10 KB + 50,000 × 350 B ≈
 * 70 MB) fits under the byte limit; the byte limit bounds what a hostile file costs to
 * read and parse (checked before reading, see catalogSizeProblem).
 */
export const CATALOG_LIMITS = {
  units: 5_000,
  plans: 50_000,
  names: 1_000,
  questions: 200,
  bytes: 80 * 1024 * 1024,
} as const;

const Nullable = <T extends TSchema>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));
const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });
const Weekday = Type.Integer({ minimum: 0, maximum: 6 });
const strict = { additionalProperties: false } as const;

const HourSchema = Type.Object({ dia_semana: Weekday, abre: Time, fecha: Time }, strict);
const ClassSchema = Type.Object(
  {
    dia_semana: Weekday,
    inicio: Time,
    fim: Time,
    modalidade: Text(120, 1),
    professor: Nullable(Text(120)),
    sala: Nullable(Text(120)),
  },
  strict,
);
const UnitSchema = Type.Object(
  {
    slug: Type.String({ minLength: 1, maxLength: 140, pattern: '^[a-z0-9]+(-[a-z0-9]+)*$' }),
    nome: Text(120, 1),
    cidade: Text(120, 1),
    uf: Type.String({ minLength: 2, maxLength: 2 }),
    bairro: Text(120, 1),
    endereco: Text(255, 1),
    cep: Nullable(Text(9)),
    telefone: Nullable(Text(20)),
    whatsapp: Nullable(Text(20)),
    email: Nullable(Text(254)),
    latitude: Nullable(Type.Number({ minimum: -90, maximum: 90 })),
    longitude: Nullable(Type.Number({ minimum: -180, maximum: 180 })),
    descricao: Nullable(Text(2000)),
    beneficio_nome: Nullable(Text(80)),
    beneficio_url: Nullable(Text(500)),
    ativo: Type.Boolean(),
    horarios: Type.Array(HourSchema, { maxItems: 14 }),
    areas: Type.Array(Text(120, 1), { maxItems: 200 }),
    modalidades: Type.Array(Text(120, 1), { maxItems: 200 }),
    aulas: Type.Array(ClassSchema, { maxItems: 2000 }),
  },
  strict,
);
const PlanSchema = Type.Object(
  {
    nome: Text(120, 1),
    descricao: Nullable(Text(1000)),
    preco_centavos: Type.Integer({ minimum: 0, maximum: 100_000_000 }),
    periodicidade: Text(20, 1),
    ordem: Type.Integer({ minimum: 0, maximum: PLAN_ORDER_MAX }),
    ativo: Type.Boolean(),
    unidades: Type.Array(Text(140, 1), { maxItems: CATALOG_LIMITS.units }),
  },
  strict,
);
const OptionSchema = Type.Object(
  {
    texto: Text(200, 1),
    valor: Nullable(Type.Integer({ minimum: -1000, maximum: 1000 })),
    ordem: Type.Integer({ minimum: 0, maximum: 999 }),
    ativo: Type.Boolean(),
  },
  strict,
);
const QuestionSchema = Type.Object(
  {
    texto: Text(500, 1),
    tipo: Text(20, 1),
    obrigatoria: Type.Boolean(),
    ordem: Type.Integer({ minimum: 0, maximum: 999 }),
    ativo: Type.Boolean(),
    opcoes: Type.Array(OptionSchema, { maxItems: 100 }),
  },
  strict,
);
export const CatalogSchema = Type.Object(
  {
    versao: Type.Literal(CATALOG_FORMAT_VERSION),
    areas: Type.Array(Type.Object({ nome: Text(120, 1), ativo: Type.Boolean() }, strict), {
      maxItems: CATALOG_LIMITS.names,
    }),
    modalidades: Type.Array(
      Type.Object({ nome: Text(120, 1), descricao: Nullable(Text(1000)), ativo: Type.Boolean() }, strict),
      { maxItems: CATALOG_LIMITS.names },
    ),
    unidades: Type.Array(UnitSchema, { maxItems: CATALOG_LIMITS.units }),
    planos: Type.Array(PlanSchema, { maxItems: CATALOG_LIMITS.plans }),
    perguntas: Type.Array(QuestionSchema, { maxItems: CATALOG_LIMITS.questions }),
  },
  strict,
);
export type CatalogFile = Static<typeof CatalogSchema>;

/** Per kind (unidades, planos, areas, modalidades, perguntas): rows created, changed, and left as they were. */
export interface ImportSummary {
  [entity: string]: { criados: number; atualizados: number; inalterados: number };
}
export type ImportResult = { ok: true; resumo: ImportSummary } | { ok: false; problemas: string[] };

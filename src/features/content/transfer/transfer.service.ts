// Catalog export/import between installations. The file references units by slug and
// areas, modalities, plans and questions by name/text, never by database id, so it can be
// imported into another database. An import is validated in full first (schema, then the
// same field rules as the screens, then references) and applied in ONE transaction: a bad
// file changes nothing and every problem is reported with its location.
import type { Kysely } from 'kysely';
import Type, { type Static, type TSchema } from 'typebox';
import Value from 'typebox/value';
import { nowIso } from '../../../db/index';
import type { Database } from '../../../db/types';
import { foldText, slugify } from '../../../lib/text';
import { createAuditRepository } from '../shared/audit.repository';
import { createContentRepository } from '../shared/content.repository';
import type { ContentDeps } from '../shared/change';
import { overlapMessage, parseClassFields } from '../timetable/timetable.service';
import { createTransferRepository } from './transfer.repository';
import { parseUnitForm } from '../units/units.service';
import * as v from '../shared/validation';

export const CATALOG_FORMAT_VERSION = 1;

const Nullable = <T extends TSchema>(s: T) => Type.Optional(Type.Union([s, Type.Null()]));
const Text = (max: number, min = 0) => Type.String({ minLength: min, maxLength: max });
const Time = Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$' });
const Weekday = Type.Integer({ minimum: 0, maximum: 6 });
const strict = { additionalProperties: false } as const;

const HourSchema = Type.Object({ dia_semana: Weekday, abre: Time, fecha: Time }, strict);
const ClassSchema = Type.Object(
  { dia_semana: Weekday, inicio: Time, fim: Time, modalidade: Text(120, 1), professor: Nullable(Text(120)), sala: Nullable(Text(120)) },
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
    ordem: Type.Integer({ minimum: 0, maximum: 9999 }),
    ativo: Type.Boolean(),
    unidades: Type.Array(Text(140, 1), { maxItems: 10_000 }),
  },
  strict,
);
const OptionSchema = Type.Object(
  { texto: Text(200, 1), valor: Nullable(Type.Integer({ minimum: -1000, maximum: 1000 })), ordem: Type.Integer({ minimum: 0, maximum: 999 }), ativo: Type.Boolean() },
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
    areas: Type.Array(Type.Object({ nome: Text(120, 1), ativo: Type.Boolean() }, strict), { maxItems: 1000 }),
    modalidades: Type.Array(Type.Object({ nome: Text(120, 1), descricao: Nullable(Text(1000)), ativo: Type.Boolean() }, strict), { maxItems: 1000 }),
    unidades: Type.Array(UnitSchema, { maxItems: 10_000 }),
    planos: Type.Array(PlanSchema, { maxItems: 1000 }),
    perguntas: Type.Array(QuestionSchema, { maxItems: 200 }),
  },
  strict,
);
export type CatalogFile = Static<typeof CatalogSchema>;

export interface ImportSummary {
  [entity: string]: { criados: number; atualizados: number };
}
export type ImportResult = { ok: true; resumo: ImportSummary } | { ok: false; problemas: string[] };

// ---------------------------------------------------------------- export

export async function exportCatalog(db: Kysely<Database>): Promise<CatalogFile> {
  const all = await createTransferRepository(db).readAll();
  const unitSlug = new Map(all.unidades.map((u) => [u.id, u.slug]));
  const areaName = new Map(all.areas.map((a) => [a.id, a.nome]));
  const modalityName = new Map(all.modalidades.map((m) => [m.id, m.nome]));
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    versao: CATALOG_FORMAT_VERSION,
    areas: all.areas.map((a) => ({ nome: a.nome, ativo: a.ativo === 1 })),
    modalidades: all.modalidades.map((m) => ({ nome: m.nome, descricao: m.descricao, ativo: m.ativo === 1 })),
    unidades: all.unidades.map((u) => ({
      slug: u.slug,
      nome: u.nome,
      cidade: u.cidade,
      uf: u.uf,
      bairro: u.bairro,
      endereco: u.endereco,
      cep: u.cep,
      telefone: u.telefone,
      whatsapp: u.whatsapp,
      email: u.email,
      latitude: u.latitude,
      longitude: u.longitude,
      descricao: u.descricao,
      beneficio_nome: u.beneficio_nome,
      beneficio_url: u.beneficio_url,
      ativo: u.ativo === 1,
      horarios: all.horarios.filter((h) => h.unidade_id === u.id).map(({ dia_semana, abre, fecha }) => ({ dia_semana, abre, fecha })),
      areas: all.unidadesAreas.filter((l) => l.unidade_id === u.id).map((l) => areaName.get(l.area_id)!).sort(byName),
      modalidades: all.unidadesModalidades.filter((l) => l.unidade_id === u.id).map((l) => modalityName.get(l.modalidade_id)!).sort(byName),
      aulas: all.aulas
        .filter((c) => c.unidade_id === u.id)
        .map((c) => ({ dia_semana: c.dia_semana, inicio: c.inicio, fim: c.fim, modalidade: modalityName.get(c.modalidade_id)!, professor: c.professor, sala: c.sala })),
    })),
    planos: all.planos.map((p) => ({
      nome: p.nome,
      descricao: p.descricao,
      preco_centavos: p.preco_centavos,
      periodicidade: p.periodicidade,
      ordem: p.ordem,
      ativo: p.ativo === 1,
      unidades: all.planosUnidades.filter((l) => l.plano_id === p.id).map((l) => unitSlug.get(l.unidade_id)!).sort(byName),
    })),
    perguntas: all.perguntas.map((q) => ({
      texto: q.texto,
      tipo: q.tipo,
      obrigatoria: q.obrigatoria === 1,
      ordem: q.ordem,
      ativo: q.ativo === 1,
      opcoes: all.opcoes.filter((o) => o.pergunta_id === q.id).map((o) => ({ texto: o.texto, valor: o.valor, ordem: o.ordem, ativo: o.ativo === 1 })),
    })),
  };
}

// ---------------------------------------------------------------- validation

/** "/unidades/3/beneficio_url" → "unidades[3].beneficio_url" */
export function locationOf(pointer: string): string {
  if (!pointer) return '(arquivo)';
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, part) => (/^\d+$/.test(part) ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

const TYPE_NAMES: Record<string, string> = {
  string: 'um texto',
  integer: 'um número inteiro',
  number: 'um número',
  boolean: 'true ou false',
  array: 'uma lista',
  object: 'um objeto',
  null: 'null',
};

/** TypeBox's errors, in pt-BR, one per location. */
function schemaProblems(data: unknown): Map<string, string> {
  const out = new Map<string, string>();
  const add = (loc: string, msg: string) => {
    if (!out.has(loc)) out.set(loc, msg);
  };
  for (const e of Value.Errors(CatalogSchema, data)) {
    // Branch errors of a nullable field repeat the anyOf error: keep only the latter.
    if (e.schemaPath.includes('/anyOf/') || e.schemaPath.endsWith('/additionalProperties')) continue;
    const loc = locationOf(e.instancePath);
    const params = e.params as Record<string, unknown>;
    const field = loc.split('.').pop() ?? '';
    switch (e.keyword) {
      case 'required':
        for (const p of (params.requiredProperties as string[]) ?? []) add(loc === '(arquivo)' ? p : `${loc}.${p}`, 'campo obrigatório ausente.');
        break;
      case 'additionalProperties':
        for (const p of (params.additionalProperties as string[]) ?? []) add(loc === '(arquivo)' ? p : `${loc}.${p}`, 'campo desconhecido.');
        break;
      case 'type':
        add(loc, `deve ser ${TYPE_NAMES[String(params.type)] ?? String(params.type)}.`);
        break;
      case 'anyOf':
        add(loc, 'tipo inválido: use um texto/número ou null.');
        break;
      case 'minLength':
        add(loc, Number(params.limit) <= 1 ? 'não pode ficar vazio.' : `precisa ter pelo menos ${String(params.limit)} caracteres.`);
        break;
      case 'maxLength':
        add(loc, `pode ter no máximo ${String(params.limit)} caracteres.`);
        break;
      case 'minimum':
        add(loc, field === 'preco_centavos' ? 'o preço não pode ser negativo.' : `deve ser no mínimo ${String(params.limit)}.`);
        break;
      case 'maximum':
        add(loc, `deve ser no máximo ${String(params.limit)}.`);
        break;
      case 'pattern':
        add(loc, field === 'slug' ? 'use só letras minúsculas sem acento, números e hífens.' : 'horário inválido: use HH:MM, por exemplo 07:30.');
        break;
      case 'maxItems':
        add(loc, `lista longa demais (máximo ${String(params.limit)} itens).`);
        break;
      case 'const':
        add(loc, field === 'versao' ? `versão de arquivo não suportada (esperada ${CATALOG_FORMAT_VERSION}).` : 'valor não permitido.');
        break;
      default:
        add(loc, 'valor inválido.');
    }
  }
  return out;
}

const isObj = (x: unknown): x is Record<string, unknown> => Boolean(x) && typeof x === 'object' && !Array.isArray(x);
const arrayAt = (x: unknown, k: string): unknown[] => (isObj(x) && Array.isArray(x[k]) ? (x[k] as unknown[]) : []);
const s = (x: unknown): string => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : '');

interface DbKeys {
  units: { id: number; slug: string }[];
  areas: { id: number; nome: string }[];
  modalities: { id: number; nome: string }[];
  questions: { id: number; texto: string; tipo: string }[];
  answeredQuestionIds: Set<number>;
}

/**
 * Every problem of the file, located. The field rules are the screens' own; references
 * resolve against the file and the database (an import may rely on existing rows).
 */
export function catalogProblems(data: unknown, db: DbKeys): string[] {
  const problems = schemaProblems(data);
  const add = (loc: string, msg: string) => {
    if (!problems.has(loc)) problems.set(loc, msg);
  };
  if (!isObj(data)) return [...problems].map(([l, m]) => `${l}: ${m}`);

  const areaNames = new Set([...db.areas.map((a) => a.nome), ...arrayAt(data, 'areas').map((a) => s(isObj(a) ? a.nome : ''))]);
  const modalityNames = [...db.modalities.map((m) => m.nome), ...arrayAt(data, 'modalidades').map((m) => s(isObj(m) ? m.nome : ''))];
  const modalityChoices = modalityNames.map((nome, i) => ({ id: i + 1, nome, ativo: 1 }));
  const unitSlugs = new Set([...db.units.map((u) => u.slug), ...arrayAt(data, 'unidades').map((u) => s(isObj(u) ? u.slug : ''))]);

  const duplicates = (list: unknown[], key: string, where: string, fold = false) => {
    const seen = new Map<string, number>();
    list.forEach((item, i) => {
      const raw = s(isObj(item) ? item[key] : '');
      const k = fold ? foldText(raw) : raw;
      if (!k) return;
      if (seen.has(k)) add(`${where}[${i}].${key}`, `repetido (já aparece em ${where}[${seen.get(k)}]).`);
      else seen.set(k, i);
    });
  };
  duplicates(arrayAt(data, 'areas'), 'nome', 'areas');
  duplicates(arrayAt(data, 'modalidades'), 'nome', 'modalidades', true);
  duplicates(arrayAt(data, 'unidades'), 'slug', 'unidades');
  duplicates(arrayAt(data, 'planos'), 'nome', 'planos');
  duplicates(arrayAt(data, 'perguntas'), 'texto', 'perguntas');

  arrayAt(data, 'unidades').forEach((u, i) => {
    if (!isObj(u)) return;
    const at = `unidades[${i}]`;
    const hours = arrayAt(u, 'horarios');
    const body: Record<string, unknown> = {};
    for (const k of ['nome', 'slug', 'cidade', 'uf', 'bairro', 'endereco', 'cep', 'telefone', 'whatsapp', 'email', 'latitude', 'longitude', 'descricao', 'beneficio_nome', 'beneficio_url']) body[k] = s(u[k]);
    const dayIndex = new Map<number, number>();
    hours.forEach((h, k) => {
      if (!isObj(h)) return;
      const d = Number(h.dia_semana);
      if (dayIndex.has(d)) add(`${at}.horarios[${k}].dia_semana`, 'dia repetido: informe um horário por dia.');
      else dayIndex.set(d, k);
      body[`abre_${d}`] = s(h.abre);
      body[`fecha_${d}`] = s(h.fecha);
    });
    const parsed = parseUnitForm(body);
    if (!parsed.ok) {
      for (const [key, msg] of Object.entries(parsed.errors)) {
        const m = /^horario_(\d)$/.exec(key);
        add(m ? `${at}.horarios[${dayIndex.get(Number(m[1])) ?? 0}]` : `${at}.${key}`, msg);
      }
    }
    if (typeof u.slug === 'string' && u.slug && slugify(u.slug) !== u.slug) add(`${at}.slug`, 'use só letras minúsculas sem acento, números e hífens.');
    arrayAt(u, 'areas').forEach((name, k) => {
      if (typeof name === 'string' && !areaNames.has(name)) add(`${at}.areas[${k}]`, `área desconhecida: "${name}" (não está no arquivo nem no banco).`);
    });
    arrayAt(u, 'modalidades').forEach((name, k) => {
      if (typeof name === 'string' && !modalityNames.includes(name)) add(`${at}.modalidades[${k}]`, `modalidade desconhecida: "${name}" (não está no arquivo nem no banco).`);
    });
    const classes: { k: number; c: ReturnType<typeof parseClassFields> & { ok: true } }[] = [];
    arrayAt(u, 'aulas').forEach((c, k) => {
      if (!isObj(c)) return;
      const parsedClass = parseClassFields((key) => (key === 'dia_semana' ? String(c.dia_semana ?? '') : s(c[key])), modalityChoices, true);
      if (!parsedClass.ok) {
        for (const [key, msg] of Object.entries(parsedClass.errors)) add(`${at}.aulas[${k}].${key}`, msg);
        return;
      }
      const clash = classes.find((o) => v.overlaps(parsedClass.value, o.c.value));
      if (clash) add(`${at}.aulas[${k}].sala`, `${overlapMessage(clash.c.value)} (${at}.aulas[${clash.k}])`);
      classes.push({ k, c: parsedClass });
    });
  });

  arrayAt(data, 'planos').forEach((p, i) => {
    if (!isObj(p)) return;
    const at = `planos[${i}]`;
    if (typeof p.periodicidade === 'string' && !v.PERIODS.some((x) => x.value === p.periodicidade)) {
      add(`${at}.periodicidade`, `periodicidade inválida: use ${v.PERIODS.map((x) => x.value).join(', ')}.`);
    }
    arrayAt(p, 'unidades').forEach((slug, k) => {
      if (typeof slug === 'string' && !unitSlugs.has(slug)) add(`${at}.unidades[${k}]`, `unidade desconhecida: "${slug}" (não está no arquivo nem no banco).`);
    });
  });

  arrayAt(data, 'perguntas').forEach((q, i) => {
    if (!isObj(q)) return;
    const at = `perguntas[${i}]`;
    const tipo = s(q.tipo);
    const options = arrayAt(q, 'opcoes');
    if (tipo && !v.QUESTION_TYPES.some((t) => t.value === tipo)) add(`${at}.tipo`, `tipo inválido: use ${v.QUESTION_TYPES.map((t) => t.value).join(', ')}.`);
    else if (tipo === 'texto' && options.length) add(`${at}.opcoes`, 'perguntas de texto não têm opções.');
    else if (tipo !== 'texto' && options.length < 2) add(`${at}.opcoes`, 'informe pelo menos duas opções.');
    const existing = db.questions.find((x) => x.texto === q.texto);
    if (existing && tipo && existing.tipo !== tipo && db.answeredQuestionIds.has(existing.id)) {
      add(`${at}.tipo`, `a pergunta já tem respostas como "${existing.tipo}": o tipo não pode mudar.`);
    }
    duplicates(options, 'texto', `${at}.opcoes`);
  });

  return [...problems].map(([l, m]) => `${l}: ${m}`);
}

/** Reads the file's text; npm's banner lines ("> pkg@1.0.0 script") before the JSON are ignored. */
export function parseCatalogText(text: string): { ok: true; data: unknown } | { ok: false; problemas: string[] } {
  const start = text.indexOf('{');
  const prefix = start >= 0 ? text.slice(0, start) : text;
  if (start < 0 || prefix.split(/\r?\n/).some((line) => line.trim() && !line.trim().startsWith('>') && line.trim() !== '\uFEFF')) {
    return { ok: false, problemas: ['(arquivo): não é um JSON de catálogo (esperado um objeto começando com "{").'] };
  }
  try {
    return { ok: true, data: JSON.parse(text.slice(start)) };
  } catch (err) {
    return { ok: false, problemas: [`(arquivo): JSON inválido: ${(err as Error).message}`] };
  }
}

// ---------------------------------------------------------------- import

export async function importCatalog(deps: ContentDeps, data: unknown, actor: { id: number | null } = { id: null }): Promise<ImportResult> {
  const result = await deps.db.transaction().execute(async (trx): Promise<ImportResult> => {
    const transfer = createTransferRepository(trx);
    const problems = catalogProblems(data, await transfer.keys());
    if (problems.length) return { ok: false, problemas: problems };
    const file = data as CatalogFile;
    const content = createContentRepository(trx);
    const now = nowIso();
    const resumo: ImportSummary = {};
    const count = (entity: string, created: boolean) => {
      resumo[entity] ??= { criados: 0, atualizados: 0 };
      resumo[entity]![created ? 'criados' : 'atualizados']++;
    };

    const areaIds = new Map<string, number>();
    for (const a of file.areas) {
      const r = await transfer.upsertArea(a.nome, a.ativo ? 1 : 0);
      count('areas', r.created);
    }
    for (const a of await content.listAreas()) areaIds.set(a.nome, a.id);
    for (const m of file.modalidades) {
      const r = await transfer.upsertModality(m.nome, m.descricao ?? null, m.ativo ? 1 : 0);
      count('modalidades', r.created);
    }
    const modalityIds = new Map<string, number>();
    for (const m of await content.listModalities()) modalityIds.set(foldText(m.nome), m.id);

    const unitIds = new Map<string, number>();
    for (const u of file.unidades) {
      const body: Record<string, unknown> = {};
      for (const [k, val] of Object.entries(u)) if (typeof val === 'string' || typeof val === 'number') body[k] = String(val);
      for (const h of u.horarios) {
        body[`abre_${h.dia_semana}`] = h.abre;
        body[`fecha_${h.dia_semana}`] = h.fecha;
      }
      const parsed = parseUnitForm(body);
      if (!parsed.ok) throw new Error('validated unit failed to parse'); // unreachable: validated above
      const r = await transfer.upsertUnit({ ...parsed.value.fields, ativo: u.ativo ? 1 : 0 }, now);
      count('unidades', r.created);
      unitIds.set(u.slug, r.id);
      await content.replaceHours(r.id, parsed.value.hours);
      await content.replaceUnitAreas(r.id, [...new Set(u.areas.map((n) => areaIds.get(n)!))]);
      const classes = u.aulas.map((c) => ({
        modalidade_id: modalityIds.get(foldText(c.modalidade))!,
        dia_semana: c.dia_semana,
        inicio: c.inicio,
        fim: c.fim,
        professor: c.professor?.trim() || null,
        sala: c.sala?.trim() || null,
      }));
      await content.replaceUnitModalities(r.id, [...new Set([...u.modalidades.map((n) => modalityIds.get(foldText(n))!), ...classes.map((c) => c.modalidade_id)])]);
      await content.deleteUnitClasses(r.id);
      await content.insertClasses(r.id, classes);
    }
    for (const u of await content.listUnits()) if (!unitIds.has(u.slug)) unitIds.set(u.slug, u.id);

    for (const p of file.planos) {
      const r = await transfer.upsertPlan(
        { nome: p.nome, descricao: p.descricao?.trim() || null, preco_centavos: p.preco_centavos, periodicidade: p.periodicidade, ordem: p.ordem, ativo: p.ativo ? 1 : 0 },
        now,
      );
      count('planos', r.created);
      await content.replacePlanUnits(r.id, [...new Set(p.unidades.map((slug) => unitIds.get(slug)!))]);
    }

    for (const q of file.perguntas) {
      const r = await transfer.upsertQuestion({ texto: q.texto, tipo: q.tipo, obrigatoria: q.obrigatoria ? 1 : 0, ordem: q.ordem, ativo: q.ativo ? 1 : 0 }, now);
      count('perguntas', r.created);
      for (const o of q.opcoes) await transfer.upsertOption(r.id, { texto: o.texto, valor: o.valor ?? null, ordem: o.ordem, ativo: o.ativo ? 1 : 0 });
    }

    await createAuditRepository(trx).record({ usuarioId: actor.id, acao: 'importar', entidade: 'catalogo', entidadeId: null, antes: null, depois: resumo }, now);
    return { ok: true, resumo };
  });
  if (result.ok) deps.onCatalogChange?.();
  return result;
}

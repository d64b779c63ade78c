// Validation of a catalog file before an import: schema errors in pt-BR, then the same
// field rules as the screens, then references; every problem located.
import Value from 'typebox/value';
import { foldText, slugify } from '../../../lib/text';
import * as v from '../../../staff/validation';
import { overlapMessage, parseClassFields } from '../timetable/timetable.service';
import { parseUnitForm, UNIT_FIELDS } from '../units/units.service';
import { CATALOG_FORMAT_VERSION, CATALOG_LIMITS, CatalogSchema } from './catalog-file';

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
        for (const p of (params.requiredProperties as string[]) ?? [])
          add(loc === '(arquivo)' ? p : `${loc}.${p}`, 'campo obrigatório ausente.');
        break;
      case 'additionalProperties':
        for (const p of (params.additionalProperties as string[]) ?? [])
          add(loc === '(arquivo)' ? p : `${loc}.${p}`, 'campo desconhecido.');
        break;
      case 'type':
        add(loc, `deve ser ${TYPE_NAMES[String(params.type)] ?? String(params.type)}.`);
        break;
      case 'anyOf':
        add(loc, 'tipo inválido: use um texto/número ou null.');
        break;
      case 'minLength':
        add(
          loc,
          Number(params.limit) <= 1
            ? 'não pode ficar vazio.'
            : `precisa ter pelo menos ${String(params.limit)} caracteres.`,
        );
        break;
      case 'maxLength':
        add(loc, `pode ter no máximo ${String(params.limit)} caracteres.`);
        break;
      case 'minimum':
        add(
          loc,
          field === 'preco_centavos' ? 'o preço não pode ser negativo.' : `deve ser no mínimo ${String(params.limit)}.`,
        );
        break;
      case 'maximum':
        add(loc, `deve ser no máximo ${String(params.limit)}.`);
        break;
      case 'pattern':
        add(
          loc,
          field === 'slug'
            ? 'use só letras minúsculas sem acento, números e hífens.'
            : 'horário inválido: use HH:MM, por exemplo 07:30.',
        );
        break;
      case 'maxItems':
        add(loc, `lista longa demais (máximo ${String(params.limit)} itens).`);
        break;
      case 'const':
        add(
          loc,
          field === 'versao'
            ? `versão de arquivo não suportada (esperada ${CATALOG_FORMAT_VERSION}).`
            : 'valor não permitido.',
        );
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

  // Areas and modalities are matched by name with case and accents ignored ("yoga" is "Yoga").
  const areaNames = new Set(
    [...db.areas.map((a) => a.nome), ...arrayAt(data, 'areas').map((a) => s(isObj(a) ? a.nome : ''))].map(foldText),
  );
  const modalityNames = [
    ...db.modalities.map((m) => m.nome),
    ...arrayAt(data, 'modalidades').map((m) => s(isObj(m) ? m.nome : '')),
  ];
  const modalityFolded = new Set(modalityNames.map(foldText));
  const modalityChoices = modalityNames.map((nome, i) => ({ id: i + 1, nome, ativo: 1 }));
  const unitSlugs = new Set([
    ...db.units.map((u) => u.slug),
    ...arrayAt(data, 'unidades').map((u) => s(isObj(u) ? u.slug : '')),
  ]);

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
  duplicates(arrayAt(data, 'areas'), 'nome', 'areas', true);
  duplicates(arrayAt(data, 'modalidades'), 'nome', 'modalidades', true);
  duplicates(arrayAt(data, 'unidades'), 'slug', 'unidades');
  duplicates(arrayAt(data, 'planos'), 'nome', 'planos');
  duplicates(arrayAt(data, 'perguntas'), 'texto', 'perguntas');

  arrayAt(data, 'unidades').forEach((u, i) => {
    if (!isObj(u)) return;
    const at = `unidades[${i}]`;
    const hours = arrayAt(u, 'horarios');
    const body: Record<string, unknown> = {};
    for (const k of UNIT_FIELDS) body[k] = s(u[k]);
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
    if (typeof u.slug === 'string' && u.slug && slugify(u.slug) !== u.slug)
      add(`${at}.slug`, 'use só letras minúsculas sem acento, números e hífens.');
    arrayAt(u, 'areas').forEach((name, k) => {
      if (typeof name === 'string' && !areaNames.has(foldText(name)))
        add(`${at}.areas[${k}]`, `área desconhecida: "${name}" (não está no arquivo nem no banco).`);
    });
    arrayAt(u, 'modalidades').forEach((name, k) => {
      if (typeof name === 'string' && !modalityFolded.has(foldText(name)))
        add(`${at}.modalidades[${k}]`, `modalidade desconhecida: "${name}" (não está no arquivo nem no banco).`);
    });
    const classes: { k: number; c: ReturnType<typeof parseClassFields> & { ok: true } }[] = [];
    arrayAt(u, 'aulas').forEach((c, k) => {
      if (!isObj(c)) return;
      const parsedClass = parseClassFields(
        (key) => (key === 'dia_semana' ? String(c.dia_semana ?? '') : s(c[key])),
        modalityChoices,
        true,
      );
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
      if (typeof slug === 'string' && !unitSlugs.has(slug))
        add(`${at}.unidades[${k}]`, `unidade desconhecida: "${slug}" (não está no arquivo nem no banco).`);
    });
  });

  arrayAt(data, 'perguntas').forEach((q, i) => {
    if (!isObj(q)) return;
    const at = `perguntas[${i}]`;
    const tipo = s(q.tipo);
    const options = arrayAt(q, 'opcoes');
    if (tipo && !v.QUESTION_TYPES.some((t) => t.value === tipo))
      add(`${at}.tipo`, `tipo inválido: use ${v.QUESTION_TYPES.map((t) => t.value).join(', ')}.`);
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

const MB = 1024 * 1024;

/** A file over the byte limit is refused whole, before it is read (the CLI) or parsed. */
export function catalogSizeProblem(bytes: number): string | null {
  if (bytes <= CATALOG_LIMITS.bytes) return null;
  return (
    `(arquivo): arquivo grande demais (${(bytes / MB).toFixed(1).replace('.', ',')} MB; o máximo é ` +
    `${CATALOG_LIMITS.bytes / MB} MB).`
  );
}

/** Reads the file's text; npm's banner lines ("> pkg@1.0.0 script") before the JSON are ignored. */
export function parseCatalogText(text: string): { ok: true; data: unknown } | { ok: false; problemas: string[] } {
  // UTF-16 length ≤ UTF-8 bytes: only a text that may be over the limit pays for the count.
  const tooLarge = text.length * 3 > CATALOG_LIMITS.bytes ? catalogSizeProblem(Buffer.byteLength(text)) : null;
  if (tooLarge) return { ok: false, problemas: [tooLarge] };
  const start = text.indexOf('{');
  const prefix = start >= 0 ? text.slice(0, start) : text;
  if (
    start < 0 ||
    prefix.split(/\r?\n/).some((line) => line.trim() && !line.trim().startsWith('>') && line.trim() !== '\uFEFF')
  ) {
    return { ok: false, problemas: ['(arquivo): não é um JSON de catálogo (esperado um objeto começando com "{").'] };
  }
  try {
    return { ok: true, data: JSON.parse(text.slice(start)) };
  } catch (err) {
    return { ok: false, problemas: [`(arquivo): JSON inválido: ${(err as Error).message}`] };
  }
}

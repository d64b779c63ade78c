// In-memory search over the catalog snapshot. Matching happens on precomputed folded
// (accent-free, lower-case) strings, so user text is never part of SQL: wildcards and
// injection strings are plain characters here.
import { compareText, foldText } from '../../lib/text';

export const SEARCH_MIN_LENGTH = 2;
export const SEARCH_MAX_LENGTH = 100;
export const SEARCH_LIMIT = 20;
/** a run of this many identical characters ("aaaaaa", "------") is not a real query */
export const SEARCH_MAX_RUN = 6;

export interface SearchItem {
  tipo: 'plano' | 'unidade';
  id: number;
  nome: string;
  cidade?: string;
}

export interface SearchEntry {
  item: SearchItem;
  /** folded fields with their weight (name beats neighbourhood beats city) */
  fields: { text: string; weight: number }[];
  /** position in the name order of the whole catalog: ties are broken by name */
  nameRank: number;
  /**
   * folded modalities and areas a unit offers ("pilates", "piscina semiolimpica"): found, but ranked after any name
   * match
   */
  tags?: string[];
}

const ALNUM = /[\p{L}\p{N}]/u;
const LONG_RUN = new RegExp(`(.)\\1{${SEARCH_MAX_RUN - 1},}`, 'u');

export type SearchOutcome = { ok: true; items: SearchItem[] } | { ok: false; error: string; message: string };

export function buildSearchIndex(
  units: { id: number; nome: string; cidade: string; bairro: string }[],
  plans: { id: number; nome: string }[],
  /** modality and area names per unit id */
  unitTags: Map<number, string[]> = new Map(),
): SearchEntry[] {
  const entries: Omit<SearchEntry, 'nameRank'>[] = [
    ...plans.map((p) => ({
      item: { tipo: 'plano' as const, id: p.id, nome: p.nome },
      fields: [{ text: foldText(p.nome), weight: 3 }],
    })),
    ...units.map((u) => ({
      item: { tipo: 'unidade' as const, id: u.id, nome: u.nome, cidade: u.cidade },
      fields: [
        { text: foldText(u.nome), weight: 3 },
        { text: foldText(u.bairro), weight: 2 },
        { text: foldText(u.cidade), weight: 1 },
      ],
      tags: [...new Set((unitTags.get(u.id) ?? []).map(foldText))],
    })),
  ];
  const order = entries
    .map((_e, i) => i)
    .sort((a, b) => {
      const ea = entries[a]!.item;
      const eb = entries[b]!.item;
      return compareText(ea.nome, eb.nome) || (ea.tipo === eb.tipo ? 0 : ea.tipo === 'plano' ? -1 : 1) || ea.id - eb.id;
    });
  const rank = new Array<number>(entries.length);
  order.forEach((entryIndex, position) => (rank[entryIndex] = position));
  return entries.map((e, i) => ({ ...e, nameRank: rank[i]! }));
}

/**
 * Validates the raw `q`. Returns the folded query, `null` for "too short" (answer `[]`),
 * or an error for an absurd query (answer 400).
 */
export function parseQuery(raw: unknown): { folded: string | null } | { error: string; message: string } {
  const q = typeof raw === 'string' ? raw.normalize('NFC').trim() : '';
  const length = [...q].length;
  if (length < SEARCH_MIN_LENGTH) return { folded: null };
  if (length > SEARCH_MAX_LENGTH) {
    return { error: 'Busca muito longa', message: `Use no máximo ${SEARCH_MAX_LENGTH} caracteres.` };
  }
  const folded = foldText(q);
  if ([...folded].length < SEARCH_MIN_LENGTH) return { folded: null };
  if (!ALNUM.test(folded)) {
    return {
      error: 'Busca inválida',
      message: 'Digite letras ou números, como o nome de uma unidade, bairro, cidade ou plano.',
    };
  }
  if (LONG_RUN.test(folded)) {
    return { error: 'Busca inválida', message: 'A busca repete o mesmo caractere muitas vezes.' };
  }
  return { folded };
}

/** 100 exact field, 80 field starts with q, 60 a word starts with q, 40 substring; 0 none. */
function matchField(field: string, q: string): number {
  if (field === q) return 100;
  let index = field.indexOf(q);
  if (index < 0) return 0;
  if (index === 0) return 80;
  let best = 40;
  while (index >= 0) {
    if (!ALNUM.test(field[index - 1]!)) {
      best = 60;
      break;
    }
    index = field.indexOf(q, index + 1);
  }
  return best;
}

/** Score of one entry for the query; 0 when it does not match. */
export function scoreEntry(entry: SearchEntry, q: string, tokens: string[]): number {
  let best = 0;
  for (const f of entry.fields) {
    const s = matchField(f.text, q);
    if (s > 0 && s + f.weight > best) best = s + f.weight;
  }
  if (best > 0) return best;
  // What a unit offers ("pilates", "piscina"): 1–9, below every name, neighbourhood or city match.
  const tags = entry.tags ?? [];
  for (const tag of tags) best = Math.max(best, Math.ceil(matchField(tag, q) / 12));
  if (best > 0 || tokens.length < 2) return best;
  // Several words spread over the fields ("pinheiros sao paulo", "pilates moema"): each word must match somewhere.
  let wordStarts = 0;
  for (const t of tokens) {
    let found = 0;
    for (const f of entry.fields) found = Math.max(found, matchField(f.text, t));
    for (const tag of tags) found = Math.max(found, matchField(tag, t));
    if (found === 0) return 0;
    if (found >= 60) wordStarts++;
  }
  return wordStarts === tokens.length ? 20 : 10;
}

/** Best matches first (ties by name), at most SEARCH_LIMIT. */
export function searchIndex(index: SearchEntry[], folded: string, limit = SEARCH_LIMIT): SearchItem[] {
  const tokens = folded.split(' ').filter((t) => t.length > 0);
  const hits: { entry: SearchEntry; score: number }[] = [];
  for (const entry of index) {
    const score = scoreEntry(entry, folded, tokens);
    if (score > 0) hits.push({ entry, score });
  }
  hits.sort((a, b) => b.score - a.score || a.entry.nameRank - b.entry.nameRank);
  return hits.slice(0, limit).map((h) => h.entry.item);
}

// Survey rules (DESIGN "Survey"): every option must belong to its question, mandatory
// questions answered, text only for text questions, unit active; one transaction; no mail.
import { randomBytes } from 'node:crypto';
import { nowIso } from '../../db/index';
import { cleanText } from '../../lib/text';
import type { NewSurveyResponse, SurveyQuestion, SurveyRepository, UnitRef } from './survey.repository';
import { createSurveyWriter } from './survey.writer';
import { readOrigin, type Origin } from './origin';

export const LIMITS = { nome_cliente: 120, contato_cliente: 254, comentario: 3000, texto: 3000 } as const;

/** What the customer typed, kept to re-render the form after a mistake. */
export interface SurveyValues {
  unidade_id: string;
  envio_id: string;
  respostas: Record<string, string>;
  textos: Record<string, string>;
  texto_ok: Record<string, boolean>;
  nome_cliente: string;
  contato_cliente: string;
  comentario: string;
  /** site | cartaz | quiosque (unknown values count as site) */
  origem: Origin;
}

export type SurveyErrors = Record<string, string>;

export type SubmitResult =
  | { status: 'stored'; id: number }
  | { status: 'duplicate' }
  | { status: 'invalid'; errors: SurveyErrors; values: SurveyValues; unit: UnitRef | null; questions: SurveyQuestion[] };

const ENVIO_ID = /^[A-Za-z0-9_-]{8,64}$/;
const KEYED = /^(respostas|textos|texto_ok)\[(\d{1,9})\]$/;

export function newEnvioId(): string {
  return randomBytes(16).toString('base64url');
}

export function emptyValues(unitId: number | string = ''): SurveyValues {
  return {
    unidade_id: String(unitId),
    envio_id: newEnvioId(),
    respostas: {},
    textos: {},
    texto_ok: {},
    nome_cliente: '',
    contato_cliente: '',
    comentario: '',
    origem: 'site',
  };
}

/** A repeated key (an array) is not a valid answer; it is reported, not silently picked. */
function single(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** Reads the urlencoded body (keys like "respostas[12]" arrive literally). */
export function readSurveyBody(body: Record<string, unknown>): { values: SurveyValues; malformed: string[] } {
  const values = emptyValues(single(body.unidade_id)?.trim() ?? '');
  const envio = single(body.envio_id)?.trim() ?? '';
  values.envio_id = ENVIO_ID.test(envio) ? envio : '';
  const malformed: string[] = [];
  values.nome_cliente = single(body.nome_cliente) ?? '';
  values.contato_cliente = single(body.contato_cliente) ?? '';
  values.comentario = single(body.comentario) ?? '';
  values.origem = readOrigin(single(body.origem));
  for (const [key, raw] of Object.entries(body)) {
    const m = KEYED.exec(key);
    if (!m) continue;
    const v = single(raw);
    if (v === undefined) {
      malformed.push(key);
      continue;
    }
    const group = m[1] as 'respostas' | 'textos' | 'texto_ok';
    if (group === 'texto_ok') values.texto_ok[m[2]!] = v !== '' && v !== '0';
    else values[group][m[2]!] = v;
  }
  // PHP-style nested objects (some clients send respostas: {12: "40"}) are read too.
  for (const group of ['respostas', 'textos', 'texto_ok'] as const) {
    const nested = body[group];
    if (nested && typeof nested === 'object' && !Array.isArray(nested)) {
      for (const [k, raw] of Object.entries(nested as Record<string, unknown>)) {
        const v = single(raw);
        if (!/^\d{1,9}$/.test(k) || v === undefined) {
          malformed.push(`${group}[${k}]`);
          continue;
        }
        if (group === 'texto_ok') values.texto_ok[k] = v !== '' && v !== '0';
        else values[group][k] = v;
      }
    }
  }
  return { values, malformed };
}

export function parseUnitId(raw: string): number | null {
  if (!/^\d{1,9}$/.test(raw)) return null;
  const n = Number(raw);
  return n > 0 ? n : null;
}

function bounded(errors: SurveyErrors, field: string, value: string, max: number, label: string): string | null {
  const v = cleanText(value);
  if ([...v].length > max) {
    errors[field] = `${label} pode ter no máximo ${max} caracteres.`;
    return null;
  }
  return v === '' ? null : v;
}

/** Checks a submission against the active questions; returns the record or the errors. */
export function validateSurvey(
  values: SurveyValues,
  malformed: string[],
  unit: UnitRef | null,
  questions: SurveyQuestion[],
  now: string,
): { ok: true; record: NewSurveyResponse } | { ok: false; errors: SurveyErrors } {
  const errors: SurveyErrors = {};
  if (!unit) errors.unidade_id = 'Escolha uma unidade ativa da lista.';
  for (const key of malformed) errors[key] = 'Resposta repetida ou inválida.';

  const byId = new Map(questions.map((q) => [String(q.id), q]));
  for (const id of Object.keys(values.respostas)) {
    const q = byId.get(id);
    if (!q) errors[`respostas[${id}]`] = 'Esta pergunta não existe ou não está mais ativa. Recarregue a página.';
    else if (q.tipo === 'texto') errors[`textos[${id}]`] = 'Esta pergunta é respondida com texto.';
  }
  for (const group of ['textos', 'texto_ok'] as const) {
    for (const id of Object.keys(values[group])) {
      const q = byId.get(id);
      if (!q) errors[`${group}[${id}]`] = 'Esta pergunta não existe ou não está mais ativa. Recarregue a página.';
      else if (q.tipo !== 'texto') errors[`respostas[${id}]`] = 'Esta pergunta não aceita texto: escolha uma das opções.';
    }
  }

  const itens: NewSurveyResponse['itens'] = [];
  let notaNps: number | null = null;
  for (const q of questions) {
    const key = String(q.id);
    if (q.tipo === 'texto') {
      const field = `textos[${key}]`;
      const text = bounded(errors, field, values.textos[key] ?? '', LIMITS.texto, 'A resposta');
      const ok = values.texto_ok[key] === true;
      if (errors[field]) continue;
      if (!text && !ok) {
        if (q.obrigatoria) errors[field] = 'Escreva sua resposta ou marque “Está tudo certo”.';
        continue;
      }
      itens.push({ perguntaId: q.id, opcaoId: null, texto: text, textoOk: ok });
      continue;
    }
    const field = `respostas[${key}]`;
    if (errors[field]) continue;
    const raw = (values.respostas[key] ?? '').trim();
    if (raw === '') {
      if (q.obrigatoria) errors[field] = q.tipo === 'escala' ? 'Escolha uma nota de 0 a 10.' : 'Escolha uma das opções.';
      continue;
    }
    const option = /^\d{1,9}$/.test(raw) ? q.opcoes.find((o) => o.id === Number(raw)) : undefined;
    if (!option) {
      errors[field] = 'Escolha uma das opções desta pergunta.';
      continue;
    }
    if (q.tipo === 'escala' && notaNps === null && option.valor !== null) notaNps = option.valor;
    itens.push({ perguntaId: q.id, opcaoId: option.id, texto: null, textoOk: false });
  }

  const nomeCliente = bounded(errors, 'nome_cliente', values.nome_cliente, LIMITS.nome_cliente, 'O nome');
  const contatoCliente = bounded(errors, 'contato_cliente', values.contato_cliente, LIMITS.contato_cliente, 'O contato');
  const comentario = bounded(errors, 'comentario', values.comentario, LIMITS.comentario, 'O comentário');

  if (Object.keys(errors).length || !unit) return { ok: false, errors };
  return {
    ok: true,
    record: {
      unidadeId: unit.id,
      nomeCliente,
      contatoCliente,
      comentario,
      notaNps,
      envioId: values.envio_id || null,
      origem: values.origem,
      criadoEm: now,
      itens,
    },
  };
}

/**
 * A value read from the database at most once per `ttlMs`: every submission needs the
 * active questions and units, which staff change rarely. A change shows within ttlMs.
 */
function cached<T>(load: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let value: Promise<T> | null = null;
  let loadedAt = 0;
  return () => {
    const now = Date.now();
    if (!value || now - loadedAt >= ttlMs) {
      loadedAt = now;
      value = load();
      // A failed read is not kept: the next call tries again.
      value.catch(() => {
        value = null;
      });
    }
    return value;
  };
}

export const SURVEY_CACHE_MS = 2000;

export function createSurveyService(repo: SurveyRepository, options: { cacheMs?: number } = {}) {
  const ttl = options.cacheMs ?? SURVEY_CACHE_MS;
  const activeQuestions = cached(() => repo.activeQuestions(), ttl);
  const activeUnits = cached(async () => new Map((await repo.activeUnits()).map((u) => [u.id, u])), ttl);
  const writer = createSurveyWriter(repo);

  return {
    repo,

    async formFor(unitId: number) {
      const unit = await repo.activeUnit(unitId);
      if (!unit) return null;
      return { unit, questions: await activeQuestions() };
    },

    async submit(body: Record<string, unknown>): Promise<SubmitResult> {
      const { values, malformed } = readSurveyBody(body);
      const unitId = parseUnitId(values.unidade_id);
      const unit = unitId ? (await activeUnits()).get(unitId) : undefined;
      const questions = await activeQuestions();
      const result = validateSurvey(values, malformed, unit ?? null, questions, nowIso());
      if (!result.ok) return { status: 'invalid', errors: result.errors, values, unit: unit ?? null, questions };
      const id = await writer.write(result.record);
      // Same envio_id as a stored response: a double click or a resend. Answer as the first
      // time did, store nothing.
      return id === null ? { status: 'duplicate' } : { status: 'stored', id };
    },
  };
}

export type SurveyService = ReturnType<typeof createSurveyService>;

// Survey rules (DESIGN "Survey"): every option must belong to its question, mandatory
// questions answered, text only for text questions, unit active; one transaction; no mail.
import { nowIso } from '../../../db/index';
import type { Transactional, Trx } from '../../../db/transactional';
import {
  echoValue,
  multiLine,
  newEnvioId,
  oneLine,
  parseEmail,
  parsePhone,
  readEnvioId,
  take,
  toId,
  type FieldErrors,
  type Parsed,
} from '../../../lib/form/index';
import type { NewSurveyResponse, SurveyQuestion, SurveyRepository, UnitRef } from './survey.repository';
import { emitWebhook } from '../../../platform/webhooks/webhooks.repository';
import { createSurveyWriter, type PendingResponse, type StoreBatch } from './survey.writer';
import { readEnvioKey, storeEachOnce } from '../../../platform/envio/index';
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

export type SurveyErrors = FieldErrors;

export type SubmitResult =
  | { status: 'stored'; id: number }
  | { status: 'duplicate' }
  | {
      status: 'invalid';
      errors: SurveyErrors;
      values: SurveyValues;
      unit: UnitRef | null;
      questions: SurveyQuestion[];
    };

const KEYED = /^(respostas|textos|texto_ok)\[(\d{1,9})\]$/;

export { newEnvioId };

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
  values.envio_id = readEnvioId(body) ?? '';
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
        if (toId(k) === null || v === undefined) {
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

/** The values as the refused form shows them again: controls and NUL removed (never stored). */
function echoValues(v: SurveyValues): SurveyValues {
  const echo = (s: string) => echoValue(s, { max: LIMITS.texto * 2, multiLine: true });
  const map = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, s]) => [k, echo(s)]));
  return {
    ...v,
    respostas: map(v.respostas),
    textos: map(v.textos),
    nome_cliente: echo(v.nome_cliente),
    contato_cliente: echo(v.contato_cliente),
    comentario: echo(v.comentario),
  };
}

export const parseUnitId = (raw: string): number | null => toId(raw.trim());

/** The kit's result as a nullable column value ("" → null), its error recorded under `field`. */
function bounded(errors: FieldErrors, field: string, result: Parsed<string>): string | null {
  return take(errors, field, result, '') || null;
}

/** "Telefone ou e-mail": an address when it has an @, otherwise a Brazilian phone (+55…). */
function contact(value: string): Parsed<string> {
  const text = oneLine(value, { max: LIMITS.contato_cliente });
  if (!text.ok || text.value === '') return text;
  if (text.value.includes('@')) return parseEmail(text.value);
  return parsePhone(text.value, { message: 'Informe um telefone com DDD, como (11) 98765-4321, ou um e-mail.' });
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
      else if (q.tipo !== 'texto')
        errors[`respostas[${id}]`] = 'Esta pergunta não aceita texto: escolha uma das opções.';
    }
  }

  const itens: NewSurveyResponse['itens'] = [];
  let notaNps: number | null = null;
  for (const q of questions) {
    const key = String(q.id);
    if (q.tipo === 'texto') {
      const field = `textos[${key}]`;
      const text = bounded(errors, field, multiLine(values.textos[key] ?? '', { max: LIMITS.texto }));
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
    const optionId = toId(raw);
    if (raw === '') {
      if (q.obrigatoria)
        errors[field] = q.tipo === 'escala' ? 'Escolha uma nota de 0 a 10.' : 'Escolha uma das opções.';
      continue;
    }
    const option = optionId === null ? undefined : q.opcoes.find((o) => o.id === optionId);
    if (!option) {
      errors[field] = 'Escolha uma das opções desta pergunta.';
      continue;
    }
    if (q.tipo === 'escala' && notaNps === null && option.valor !== null) notaNps = option.valor;
    itens.push({ perguntaId: q.id, opcaoId: option.id, texto: null, textoOk: false });
  }

  const nomeCliente = bounded(errors, 'nome_cliente', oneLine(values.nome_cliente, { max: LIMITS.nome_cliente }));
  const contatoCliente = bounded(errors, 'contato_cliente', contact(values.contato_cliente));
  const comentario = bounded(errors, 'comentario', multiLine(values.comentario, { max: LIMITS.comentario }));

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

/** Score 0–6: a detractor, also sent as "pesquisa.detrator". */
export const DETRACTOR_MAX = 6;

/**
 * "pesquisa.respondida" for a stored response, and "pesquisa.detrator" too for a score of 0 to
 * 6, written in the storing transaction. The unit's name comes with the response (read before
 * the transaction): a query through the repository here would wait, on SQLite, for the
 * connection this very transaction holds, and the whole site with it.
 */
async function emitResponseEvents(trx: Trx, p: PendingResponse, id: number, publicUrl: string): Promise<void> {
  const r = p.record;
  const data = {
    id,
    unidade: { id: r.unidadeId, nome: p.unit.nome },
    nota_nps: r.notaNps,
    comentario: r.comentario,
    nome_cliente: r.nomeCliente,
    contato_cliente: r.contatoCliente,
    origem: r.origem ?? 'site',
    criado_em: r.criadoEm,
    respostas: r.itens.map((i) => ({ pergunta_id: i.perguntaId, opcao_id: i.opcaoId, texto: i.texto })),
    url_equipe: `${publicUrl}/admin/pesquisa/resposta/${id}`,
  };
  const at = new Date(r.criadoEm);
  const origin = `respostas_nps:${id}`;
  await emitWebhook(trx, { type: 'pesquisa.respondida', origin, at, data });
  if (r.notaNps !== null && r.notaNps <= DETRACTOR_MAX)
    await emitWebhook(trx, { type: 'pesquisa.detrator', origin, at, data });
}

/**
 * One batch of the group commit in ONE transaction: every response claimed once per envio key
 * (`storeEachOnce`, the store-once path of every public form), the stored ones' headers,
 * items and figures (the repository returns their ids), then their webhook events.
 */
export function surveyBatchStore(repo: Transactional<SurveyRepository>, publicUrl = ''): StoreBatch {
  return (batch) =>
    repo.transaction(async (tx, trx) => {
      const results = await storeEachOnce(
        trx,
        'pesquisa',
        batch.map((p) => p.envio),
        (claimed) => tx.insertResponses(claimed.map((c) => ({ ...batch[c.index]!.record, envioId: c.key }))),
      );
      for (const [i, result] of results.entries()) {
        if (result.status === 'stored') await emitResponseEvents(trx, batch[i]!, result.id, publicUrl);
      }
      return results;
    });
}

export function createSurveyService(
  repo: Transactional<SurveyRepository>,
  options: { cacheMs?: number; publicUrl?: string } = {},
) {
  const ttl = options.cacheMs ?? SURVEY_CACHE_MS;
  const activeQuestions = cached(() => repo.activeQuestions(), ttl);
  const activeUnits = cached(async () => new Map((await repo.activeUnits()).map((u) => [u.id, u])), ttl);
  const writer = createSurveyWriter(surveyBatchStore(repo, options.publicUrl));

  return {
    /** The units a member may choose (the chooser page and a form sent without a unit). */
    activeUnits() {
      return repo.activeUnits();
    },

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
      if (!result.ok)
        return { status: 'invalid', errors: result.errors, values: echoValues(values), unit: unit ?? null, questions };
      const { envioId: _key, criadoEm: _at, ...content } = result.record;
      // The key and the fingerprint of what is stored (docs/decisions/183): the same envio_id
      // and content as a stored response is a double click or a resend, answered as the first
      // time and storing nothing; another content under that envio_id is stored.
      // The unit goes along for the webhook payload (validateSurvey accepts only an active one).
      const stored = await writer.write({ record: result.record, envio: readEnvioKey(body, content), unit: unit! });
      return stored.status === 'stored' ? { status: 'stored', id: stored.id } : { status: 'duplicate' };
    },
  };
}

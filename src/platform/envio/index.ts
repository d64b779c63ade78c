// Envio: a public form is stored once per rendered form. Each form page carries a hidden
// envio_id; the submission's transaction claims it in `envios` with the fingerprint of its
// content, so a second POST of the same form with the same content (double click, resend,
// two racing requests) stores nothing and is answered as the first was, while a different
// content under a used key (a page the back button restored) is stored under a key of its
// own. The one write path of every form: `storeOnce`, or `storeEachOnce` for a batch of
// submissions in one transaction (the survey's group commit). See docs/decisions/082, 183, 238.
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/index';
import type { Database } from '../../db/types';
import { readEnvioId } from '../../lib/form/index';
import { createEnvioRepository, type EnvioForm, type EnvioRepository } from './envio.repository';
import { contentKey, fingerprintOf } from './fingerprint';
import { countJob } from '../metrics/metrics';

export type { EnvioForm } from './envio.repository';
export { contentKey, fingerprintOf } from './fingerprint';

/** A posted envio_id and the fingerprint of the content it came with. */
export interface EnvioKey {
  id: string;
  fingerprint: string;
}

/** A second POST within this window is a duplicate; rows older are pruned. */
export const ENVIO_WINDOW_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export type OnceResult = { status: 'stored'; id: number } | { status: 'duplicate'; id: number | null };

/** A submission `storeEachOnce` claimed: its place in the batch and its key (null: it came without envio_id). */
export interface Claimed {
  index: number;
  key: string | null;
}

export const staleBefore = (now: Date) => nowIso(new Date(now.getTime() - ENVIO_WINDOW_MS));

/**
 * The envio key of a posted form, read by its service: the form kit's envio_id (`readEnvioId`
 * on the posted values) with the fingerprint of `content`, the submission as the service will
 * store it (normalised, without the key or the clock). Null when the form carried no
 * well-formed envio_id: such a POST is simply stored.
 */
export function readEnvioKey(values: Record<string, unknown> | undefined, content: unknown): EnvioKey | null {
  const id = readEnvioId(values);
  return id ? { id, fingerprint: fingerprintOf(content) } : null;
}

/** What claiming one submission's key found: a key of its own, or the stored submission it repeats. */
type Claim = { claimed: string } | { repeats: string; id: number | null };

/**
 * The key first; when it is taken by another content, its content key. A row from before
 * fingerprints were kept counts as the same content (as it always did).
 */
async function claim(
  envios: EnvioRepository,
  form: EnvioForm,
  envio: EnvioKey,
  now: string,
  stale: string,
): Promise<Claim> {
  if (await envios.claim(form, envio.id, envio.fingerprint, now, stale)) return { claimed: envio.id };
  const stored = await envios.find(form, envio.id);
  if (!stored || stored.impressao === null || stored.impressao === envio.fingerprint) {
    return { repeats: envio.id, id: stored?.registro_id ?? null };
  }
  const key = contentKey(envio.id, envio.fingerprint);
  if (await envios.claim(form, key, envio.fingerprint, now, stale)) return { claimed: key };
  return { repeats: key, id: (await envios.find(form, key))?.registro_id ?? null };
}

/**
 * Stores a batch of submissions of one form in the caller's transaction, each once per envio
 * key: claims every key (in order, so a repeat inside the batch meets the key claimed just
 * before it), then calls `store` ONCE with the claimed submissions, which stores them and
 * returns one id per claimed submission, in order — or null where the form's own UNIQUE key
 * shows it stored already (a key whose `envios` row is past the window), which then counts as
 * a repeat and keeps no claim. Then records every stored id with one statement. `store` is
 * not called when every submission repeats a stored one. A repeat's result is the first
 * submission's id (null when unknown). If `store` throws, the caller's transaction is rolled
 * back and nothing is claimed.
 */
export async function storeEachOnce(
  trx: Transaction<Database>,
  form: EnvioForm,
  submissions: readonly (EnvioKey | null)[],
  store: (claimed: Claimed[]) => Promise<readonly (number | null)[]>,
): Promise<OnceResult[]> {
  const now = new Date();
  const at = nowIso(now);
  const stale = staleBefore(now);
  const envios = createEnvioRepository(trx);
  const claimed: Claimed[] = [];
  const claimedAt = new Map<string, number>();
  const repeats: { index: number; key: string; id: number | null }[] = [];
  for (const [index, envio] of submissions.entries()) {
    if (!envio) {
      claimed.push({ index, key: null });
      continue;
    }
    const found = await claim(envios, form, envio, at, stale);
    if ('claimed' in found) {
      claimed.push({ index, key: found.claimed });
      claimedAt.set(found.claimed, index);
    } else repeats.push({ index, key: found.repeats, id: found.id });
  }

  const results: OnceResult[] = new Array(submissions.length);
  if (claimed.length) {
    const ids = await store(claimed);
    if (ids.length !== claimed.length) throw new Error(`storeEachOnce: ${ids.length} ids for ${claimed.length}`);
    const settled: { key: string; id: number; fingerprint: string }[] = [];
    const released: string[] = [];
    for (const [i, c] of claimed.entries()) {
      const id = ids[i] ?? null;
      results[c.index] = id === null ? { status: 'duplicate', id: null } : { status: 'stored', id };
      if (c.key === null) continue;
      if (id === null) released.push(c.key);
      else settled.push({ key: c.key, id, fingerprint: submissions[c.index]!.fingerprint });
    }
    await envios.settle(form, settled, at);
    await envios.release(form, released);
  }
  for (const r of repeats) {
    // A repeat of a submission earlier in this batch answers with that one's id.
    const first = claimedAt.get(r.key);
    results[r.index] = { status: 'duplicate', id: first === undefined ? r.id : (results[first]?.id ?? null) };
  }
  return results;
}

/**
 * One submission: `work` stores it in the caller's transaction (`repo.transaction`) and
 * returns its id — or null when the form's own UNIQUE key shows it stored already. Without an
 * envio_id it simply runs. The same key with the same content is a repeat: `work` does not
 * run (nothing of it is stored, its mail included) and the result carries the first
 * submission's id. The same key with another content is a new submission, claimed under
 * `contentKey(id, fingerprint)` — where the same second content sent again finds it. `work`
 * gets the key it was claimed under (null without an envio_id), for a form that keeps the key
 * on its own row. If `work` throws, nothing is claimed.
 */
export async function storeOnce(
  trx: Transaction<Database>,
  form: EnvioForm,
  envio: EnvioKey | null,
  work: (key: string | null) => Promise<number | null>,
): Promise<OnceResult> {
  const [result] = await storeEachOnce(trx, form, [envio], async ([one]) => [await work(one!.key)]);
  return result!;
}

/** Deletes the rows past the 24 h window; returns how many. */
export function pruneEnvios(db: Kysely<Database>, now = new Date()): Promise<number> {
  return createEnvioRepository(db).pruneBefore(staleBefore(now));
}

/** Prunes at start-up and every 10 minutes in each process (cheap: an indexed range delete). */
export default fp(
  async (app) => {
    let timer: NodeJS.Timeout | null = null;
    const run = () =>
      void countJob('envio_prune', () => pruneEnvios(app.db)).catch((err: unknown) =>
        app.log.warn({ err }, 'envios prune failed; retried in 10 minutes'),
      );
    app.addHook('onReady', async () => {
      run();
      timer = setInterval(run, PRUNE_EVERY_MS);
      timer.unref();
    });
    app.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
    });
  },
  { name: 'feature-envio', fastify: '5.x', dependencies: ['db'] },
);

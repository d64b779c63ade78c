// Envio: a public form is stored once per rendered form. Each form page carries a hidden
// envio_id; the submission's transaction claims it in `envios` with the fingerprint of its
// content, so a second POST of the same form with the same content (double click, resend,
// two racing requests) stores nothing and is answered as the first was, while a different
// content under a used key (a page the back button restored) is stored under a key of its
// own. See docs/decisions/082 and 183.
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/index';
import type { Database } from '../../db/types';
import { createEnvioRepository, type EnvioForm } from './envio.repository';
import { contentKey } from './fingerprint';
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

export const staleBefore = (now: Date) => nowIso(new Date(now.getTime() - ENVIO_WINDOW_MS));

/**
 * Runs `work` (which stores the submission and returns its id) in one transaction that
 * first claims the envio_id with the content's fingerprint. Without an envio_id it simply
 * runs once. The same key with the same content is a repeat: no work (nothing of it is
 * stored, its mail included) and the first submission's id. The same key with another
 * content is a new submission, claimed under `contentKey(id, fingerprint)` — where the
 * same second content sent again finds it. `work` gets the key it was claimed under (null
 * without an envio_id), for a form that keeps the key on its own row. Given a transaction (a
 * service's `repo.transaction`), it runs inside that one. If `work` throws, nothing is claimed.
 */
export async function storeOnce(
  db: Kysely<Database>,
  form: EnvioForm,
  envio: EnvioKey | null,
  work: (trx: Transaction<Database>, key: string | null) => Promise<number>,
): Promise<OnceResult> {
  const now = new Date();
  const inTransaction = (run: (trx: Transaction<Database>) => Promise<OnceResult>) =>
    db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
  return inTransaction(async (trx): Promise<OnceResult> => {
    if (!envio) return { status: 'stored', id: await work(trx, null) };
    const envios = createEnvioRepository(trx);
    const claim = async (key: string): Promise<OnceResult | null> => {
      if (!(await envios.claim(form, key, envio.fingerprint, nowIso(now), staleBefore(now)))) return null;
      const id = await work(trx, key);
      await envios.settle(form, key, id);
      return { status: 'stored', id };
    };
    const first = await claim(envio.id);
    if (first) return first;
    const stored = await envios.find(form, envio.id);
    // A row from before fingerprints were kept counts as the same content (as it did).
    if (!stored || stored.impressao === null || stored.impressao === envio.fingerprint) {
      return { status: 'duplicate', id: stored?.registro_id ?? null };
    }
    const key = contentKey(envio.id, envio.fingerprint);
    const second = await claim(key);
    if (second) return second;
    return { status: 'duplicate', id: (await envios.find(form, key))?.registro_id ?? null };
  });
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

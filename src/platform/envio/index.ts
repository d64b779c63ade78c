// Envio: a public form is stored once per rendered form. Each form page carries a hidden
// envio_id; the submission's transaction claims it in `envios`, so a second POST of the
// same form (double click, resend, two racing requests) stores nothing and is answered
// as the first was. See docs/decisions/082.
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/index';
import type { Database } from '../../db/types';
import { createEnvioRepository, type EnvioForm } from './envio.repository';
import { countJob } from '../metrics/metrics';

export type { EnvioForm } from './envio.repository';
export { createEnvioRepository } from './envio.repository';

/** A second POST within this window is a duplicate; rows older are pruned. */
export const ENVIO_WINDOW_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

export type OnceResult = { status: 'stored'; id: number } | { status: 'duplicate'; id: number | null };

export const staleBefore = (now: Date) => nowIso(new Date(now.getTime() - ENVIO_WINDOW_MS));

/**
 * Runs `work` (which stores the submission and returns its id) in one transaction that
 * first claims `envioId`. Without an envio_id it simply runs once. A duplicate does no
 * work (nothing of it is stored, its mail included) and gets the first submission's id.
 * Given a transaction (a service's `repo.transaction`), it runs inside that one.
 */
export async function storeOnce(
  db: Kysely<Database>,
  form: EnvioForm,
  envioId: string | null,
  work: (trx: Transaction<Database>) => Promise<number>,
): Promise<OnceResult> {
  const now = new Date();
  const inTransaction = (run: (trx: Transaction<Database>) => Promise<OnceResult>) =>
    db.isTransaction ? run(db as Transaction<Database>) : db.transaction().execute(run);
  return inTransaction(async (trx): Promise<OnceResult> => {
    if (!envioId) return { status: 'stored', id: await work(trx) };
    const envios = createEnvioRepository(trx);
    if (!(await envios.claim(form, envioId, nowIso(now), staleBefore(now)))) {
      const stored = await envios.find(form, envioId);
      return { status: 'duplicate', id: stored?.registro_id ?? null };
    }
    const id = await work(trx);
    await envios.settle(form, envioId, id);
    return { status: 'stored', id };
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

// Envio: a public form is stored once per rendered form. Each form page carries a hidden
// envio_id; the submission's transaction claims it in `envios`, so a second POST of the
// same form (double click, resend, two racing requests) stores nothing and is answered
// as the first was. See docs/decisions/082.
import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../../db/index';
import type { Database } from '../../db/types';
import { createEnvioRepository, type EnvioForm } from './envio.repository';

export type { EnvioForm } from './envio.repository';
export { createEnvioRepository } from './envio.repository';

/** A second POST within this window is a duplicate; rows older are pruned. */
export const ENVIO_WINDOW_MS = 24 * 60 * 60 * 1000;
const PRUNE_EVERY_MS = 10 * 60 * 1000;

/** Thrown inside the transaction to roll back a duplicate's work. */
class DuplicateEnvio extends Error {}

export type OnceResult = { status: 'stored'; id: number } | { status: 'duplicate'; id: number | null };

export const staleBefore = (now: Date) => nowIso(new Date(now.getTime() - ENVIO_WINDOW_MS));

/**
 * Runs `work` (which stores the submission and returns its id) in one transaction that
 * also claims `envioId`. Without an envio_id it simply runs once. A duplicate's work is
 * rolled back (nothing of it stays, its mail included) and the first submission's id is
 * returned instead.
 */
export async function storeOnce(
  db: Kysely<Database>,
  form: EnvioForm,
  envioId: string | null,
  work: (trx: Transaction<Database>) => Promise<number>,
): Promise<OnceResult> {
  const now = new Date();
  try {
    const id = await db.transaction().execute(async (trx) => {
      const envios = createEnvioRepository(trx);
      if (envioId && !(await envios.claim(form, envioId, nowIso(now), staleBefore(now)))) throw new DuplicateEnvio();
      const newId = await work(trx);
      if (envioId) await envios.settle(form, envioId, newId);
      return newId;
    });
    if (envioId) pruneSometimes(db);
    return { status: 'stored', id };
  } catch (err) {
    if (!(err instanceof DuplicateEnvio)) throw err;
    const first = await createEnvioRepository(db).find(form, envioId!);
    return { status: 'duplicate', id: first?.registro_id ?? null };
  }
}

let lastPrune = 0;
/** Deletes rows past the window, at most once every 10 minutes per process, off the request's path. */
export function pruneSometimes(db: Kysely<Database>, now = Date.now()): void {
  if (now - lastPrune < PRUNE_EVERY_MS) return;
  lastPrune = now;
  createEnvioRepository(db)
    .pruneBefore(staleBefore(new Date(now)))
    .catch(() => {
      // A failed prune is retried at the next window; it never fails a submission.
      lastPrune = 0;
    });
}

// The one way services run repository statements in one transaction (src/db/transactional.ts):
// everything `work` wrote is kept or none of it is, a repository already bound to a transaction
// runs inside it, and storeOnce (envio) joins the caller's transaction. Both engines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso } from '../../src/db/index';
import { storeOnce } from '../../src/platform/envio/index';
import { contentRepositories } from '../../src/features/content/services';
import { createTestDb, type TestDb } from '../helpers/db';

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => t?.cleanup());

const entry = (acao: string) => ({
  usuarioId: null,
  acao,
  entidade: 'teste',
  entidadeId: null,
  antes: null,
  depois: null,
});
const rows = (acao: string) => t.handle.db.selectFrom('auditoria').select('id').where('acao', '=', acao).execute();

describe('transactional repositories', () => {
  it('keeps every write of the work, or none when it throws', async () => {
    const repos = contentRepositories(t.handle.db);
    await repos.transaction(async (tx) => {
      await tx.audit.record(entry('guardado'), nowIso());
      await tx.audit.record(entry('guardado'), nowIso());
    });
    expect(await rows('guardado')).toHaveLength(2);
    await expect(
      repos.transaction(async (tx) => {
        await tx.audit.record(entry('desfeito'), nowIso());
        throw new Error('falhou no meio');
      }),
    ).rejects.toThrow('falhou no meio');
    expect(await rows('desfeito')).toEqual([]);
  });

  it('bound to a transaction, runs inside it (a nested call is rolled back with the outer one)', async () => {
    const repos = contentRepositories(t.handle.db);
    await expect(
      repos.transaction(async (_tx, trx) => {
        // what a service gets when it is handed repositories built on a transaction
        await contentRepositories(trx).transaction((tx) => tx.audit.record(entry('aninhado'), nowIso()));
        expect((await trx.selectFrom('auditoria').select('id').where('acao', '=', 'aninhado').execute()).length).toBe(
          1,
        );
        throw new Error('desfaz tudo');
      }),
    ).rejects.toThrow('desfaz tudo');
    expect(await rows('aninhado')).toEqual([]);
  });

  it(`storeOnce joins the caller’s transaction: a duplicate envio_id stores nothing, a failure keeps no \
claim`, async () => {
    const repos = contentRepositories(t.handle.db);
    const envio = `teste-transacao-${Date.now()}`;
    const store = () =>
      repos.transaction((tx, trx) =>
        storeOnce(trx, 'franquia', { id: envio, fingerprint: 'a' }, async () => {
          await tx.audit.record(entry('uma-vez'), nowIso());
          return 7;
        }),
      );
    expect(await store()).toEqual({ status: 'stored', id: 7 });
    expect(await store()).toEqual({ status: 'duplicate', id: 7 });
    expect(await rows('uma-vez')).toHaveLength(1);

    const other = `${envio}-falha`;
    await expect(
      repos.transaction((_tx, trx) =>
        storeOnce(trx, 'franquia', { id: other, fingerprint: 'a' }, async () => {
          throw new Error('falhou');
        }),
      ),
    ).rejects.toThrow('falhou');
    expect(await t.handle.db.selectFrom('envios').select('envio_id').where('envio_id', '=', other).execute()).toEqual(
      [],
    );
  });
});

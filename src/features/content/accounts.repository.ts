// Staff accounts' SQL for the accounts screen.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

export function createAccountsRepository(db: Kysely<Database>) {
  return {
    async list() {
      const users = await db.selectFrom('usuarios').select(['id', 'email', 'nome', 'papel', 'ativo', 'criado_em']).orderBy('nome').execute();
      const links = await db
        .selectFrom('usuarios_unidades')
        .innerJoin('unidades', 'unidades.id', 'usuarios_unidades.unidade_id')
        .select(['usuarios_unidades.usuario_id', 'unidades.nome'])
        .orderBy('unidades.nome')
        .execute();
      return users.map((u) => ({ ...u, unidades: links.filter((l) => l.usuario_id === u.id).map((l) => l.nome) }));
    },
    find(id: number) {
      return db.selectFrom('usuarios').select(['id', 'email', 'nome', 'papel', 'ativo']).where('id', '=', id).executeTakeFirst();
    },
    async emailTaken(email: string) {
      return Boolean(await db.selectFrom('usuarios').select('id').where('email', '=', email).executeTakeFirst());
    },
    async unitIds(id: number) {
      return (await db.selectFrom('usuarios_unidades').select('unidade_id').where('usuario_id', '=', id).orderBy('unidade_id').execute()).map((r) => r.unidade_id);
    },
    async insert(u: { email: string; nome: string; papel: string; senha_hash: string }, now: string) {
      return (await db.insertInto('usuarios').values({ ...u, ativo: 1, criado_em: now, atualizado_em: now }).returning('id').executeTakeFirstOrThrow()).id;
    },
    async update(id: number, u: { nome: string; papel: string }, now: string) {
      await db.updateTable('usuarios').set({ ...u, atualizado_em: now }).where('id', '=', id).execute();
    },
    async setActive(id: number, ativo: number, now: string) {
      await db.updateTable('usuarios').set({ ativo, atualizado_em: now }).where('id', '=', id).execute();
    },
    async setPasswordHash(id: number, senha_hash: string, now: string) {
      await db.updateTable('usuarios').set({ senha_hash, atualizado_em: now }).where('id', '=', id).execute();
    },
    async replaceUnits(id: number, unitIds: number[]) {
      await db.deleteFrom('usuarios_unidades').where('usuario_id', '=', id).execute();
      if (unitIds.length) await db.insertInto('usuarios_unidades').values(unitIds.map((unidade_id) => ({ usuario_id: id, unidade_id }))).execute();
    },
    async activeAdminCount() {
      const r = await db.selectFrom('usuarios').select((eb) => eb.fn.countAll<number>().as('n')).where('papel', '=', 'admin').where('ativo', '=', 1).executeTakeFirstOrThrow();
      return Number(r.n);
    },
    /**
     * Ends every session of an account (password reset, disabled). Sessions are JSON
     * blobs keyed by sid; the user id is matched inside the text on both engines.
     */
    async endSessions(id: number) {
      await db
        .deleteFrom('sessoes')
        .where((eb) => eb.or([eb('dados', 'like', `%"userId":${id},%`), eb('dados', 'like', `%"userId":${id}}%`)]))
        .execute();
    },
  };
}

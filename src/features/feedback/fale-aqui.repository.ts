import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/types';

export const MESSAGE_STATUSES = ['novo', 'lido', 'resolvido'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface NewMessage {
  unidadeId: number | null;
  unidade: string;
  nomeCompleto: string;
  anonimo: boolean;
  mensagem: string;
  criadoEm: string;
}

export interface NewMessageFile {
  caminho: string;
  nomeOriginal: string | null;
  tipo: string;
  tamanho: number;
  largura: number;
  altura: number;
  sha256: string;
}

export interface MessageFilter {
  /** null = every unit (admins); otherwise only these units (a manager never sees unit-less messages) */
  unitIds: number[] | null;
  unidadeId?: number;
  status?: MessageStatus;
  fromIso?: string;
  toIso?: string;
}

export function createFaleAquiRepository(db: Kysely<Database>) {
  function applyFilter<QB extends { where: any }>(qb: QB, f: MessageFilter): QB {
    let q: any = qb;
    if (f.unitIds) q = f.unitIds.length ? q.where('m.unidade_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
    if (f.unidadeId) q = q.where('m.unidade_id', '=', f.unidadeId);
    if (f.status) q = q.where('m.status', '=', f.status);
    if (f.fromIso) q = q.where('m.criado_em', '>=', f.fromIso);
    if (f.toIso) q = q.where('m.criado_em', '<', f.toIso);
    return q;
  }

  const columns = ['m.id', 'm.unidade_id', 'm.unidade', 'm.nome_completo', 'm.anonimo', 'm.mensagem', 'm.status', 'm.criado_em', 'm.atualizado_em'] as const;

  return {
    async activeUnits() {
      return db.selectFrom('unidades').select(['id', 'nome', 'cidade']).where('ativo', '=', 1).orderBy('nome').execute();
    },

    async activeUnit(id: number) {
      return db.selectFrom('unidades').select(['id', 'nome', 'cidade']).where('id', '=', id).where('ativo', '=', 1).executeTakeFirst();
    },

    /** The message and its image rows; the service runs it in its transaction (with the notification). */
    async insertMessage(message: NewMessage, files: NewMessageFile[]): Promise<number> {
      const { id } = await db
        .insertInto('fale_aqui')
        .values({
          unidade_id: message.unidadeId,
          unidade: message.unidade,
          nome_completo: message.nomeCompleto,
          anonimo: message.anonimo ? 1 : 0,
          mensagem: message.mensagem,
          status: 'novo',
          criado_em: message.criadoEm,
          atualizado_em: message.criadoEm,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      if (files.length) {
        await db
          .insertInto('fale_aqui_arquivos')
          .values(
            files.map((f) => ({
              fale_aqui_id: id,
              caminho: f.caminho,
              nome_original: f.nomeOriginal,
              tipo: f.tipo,
              tamanho: f.tamanho,
              largura: f.largura,
              altura: f.altura,
              sha256: f.sha256,
              criado_em: message.criadoEm,
            })),
          )
          .execute();
      }
      return id;
    },

    async count(f: MessageFilter): Promise<number> {
      const row = await applyFilter(db.selectFrom('fale_aqui as m').select((eb) => eb.fn.countAll<number>().as('n')), f).executeTakeFirst();
      return Number(row?.n ?? 0);
    },

    async countByStatus(f: MessageFilter) {
      const rows = await applyFilter(
        db.selectFrom('fale_aqui as m').select((eb) => ['m.status', eb.fn.countAll<number>().as('n')]).groupBy('m.status'),
        { ...f, status: undefined },
      ).execute();
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Partial<Record<string, number>>;
    },

    async list(f: MessageFilter, limit: number, offset: number) {
      return applyFilter(
        db
          .selectFrom('fale_aqui as m')
          .select(columns)
          .select((eb) =>
            eb.selectFrom('fale_aqui_arquivos as a').select((e2) => e2.fn.countAll<number>().as('n')).whereRef('a.fale_aqui_id', '=', 'm.id').as('fotos'),
          )
          .orderBy('m.criado_em', 'desc')
          .orderBy('m.id', 'desc')
          .limit(limit)
          .offset(offset),
        f,
      ).execute();
    },

    /** Keyset batches for the CSV export, newest first (ids below `beforeId`). */
    async before(f: MessageFilter, beforeId: number | null, limit: number) {
      return applyFilter(
        db
          .selectFrom('fale_aqui as m')
          .select(columns)
          .select((eb) =>
            eb.selectFrom('fale_aqui_arquivos as a').select((e2) => e2.fn.countAll<number>().as('n')).whereRef('a.fale_aqui_id', '=', 'm.id').as('fotos'),
          )
          .$if(beforeId !== null, (qb) => qb.where('m.id', '<', beforeId!))
          .orderBy('m.id', 'desc')
          .limit(limit),
        f,
      ).execute();
    },

    async byId(id: number) {
      return db.selectFrom('fale_aqui as m').select(columns).where('m.id', '=', id).executeTakeFirst();
    },

    async filesOf(messageId: number) {
      return db
        .selectFrom('fale_aqui_arquivos')
        .select(['id', 'caminho', 'nome_original', 'tipo', 'tamanho', 'largura', 'altura', 'sha256'])
        .where('fale_aqui_id', '=', messageId)
        .orderBy('id')
        .execute();
    },

    /** A stored image with the unit of its message (for the manager check). */
    async fileById(fileId: number) {
      return db
        .selectFrom('fale_aqui_arquivos as a')
        .innerJoin('fale_aqui as m', 'm.id', 'a.fale_aqui_id')
        .select(['a.id', 'a.caminho', 'a.tipo', 'a.tamanho', 'm.unidade_id'])
        .where('a.id', '=', fileId)
        .executeTakeFirst();
    },

    async setStatus(id: number, status: MessageStatus, now: string): Promise<boolean> {
      const res = await db.updateTable('fale_aqui').set({ status, atualizado_em: now }).where('id', '=', id).executeTakeFirst();
      return Number(res.numUpdatedRows) > 0;
    },
  };
}

export type FaleAquiRepository = ReturnType<typeof createFaleAquiRepository>;

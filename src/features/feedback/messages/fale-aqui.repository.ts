import { sql, type Kysely } from 'kysely';
import type { Database } from '../../../db/types';
import { inTransaction, isPostgres } from '../../../db/index';
import { databaseCsvWriter } from '../../../db/csv/sql';
import { createEnvioRepository } from '../../../platform/envio/envio.repository';
import { enqueueMail, type OutgoingMail } from '../../../platform/mail/outbox.repository';
import { createFormUnitsRepository } from '../units.repository';

export const MESSAGE_STATUSES = ['nova', 'lida', 'respondida', 'resolvida'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
/** Statuses that still wait for the staff (not answered, not closed). */
export const OPEN_STATUSES: MessageStatus[] = ['nova', 'lida'];

/**
 * Called inside a status change's transaction with the statuses before and after (the
 * service queues its webhook event there, with the change).
 */
export type StatusChangeHook = (trx: Kysely<Database>, from: MessageStatus, to: MessageStatus) => Promise<void>;

export interface NewReply {
  messageId: number;
  userId: number;
  canal: 'email' | 'whatsapp';
  destinatario: string | null;
  texto: string;
  now: string;
}

export interface NewMessage {
  unidadeId: number | null;
  unidade: string;
  nomeCompleto: string;
  anonimo: boolean;
  mensagem: string;
  contatoEmail: string | null;
  contatoTelefone: string | null;
  aceiteContato: boolean;
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
  const csv = databaseCsvWriter(db);
  function applyFilter<QB extends { where: any }>(qb: QB, f: MessageFilter): QB {
    let q: any = qb;
    if (f.unitIds) q = f.unitIds.length ? q.where('m.unidade_id', 'in', f.unitIds) : q.where(sql<boolean>`1 = 0`);
    if (f.unidadeId) q = q.where('m.unidade_id', '=', f.unidadeId);
    if (f.status) q = q.where('m.status', '=', f.status);
    if (f.fromIso) q = q.where('m.criado_em', '>=', f.fromIso);
    if (f.toIso) q = q.where('m.criado_em', '<', f.toIso);
    return q;
  }

  /** What a message says and where it stands: the inbox's lines and the reminders of open messages. */
  const summary = [
    'm.id',
    'm.unidade_id',
    'm.unidade',
    'm.nome_completo',
    'm.anonimo',
    'm.mensagem',
    'm.status',
    'm.criado_em',
  ] as const;
  const columns = [
    ...summary,
    'm.atualizado_em',
    'm.contato_email',
    'm.contato_telefone',
    'm.aceite_contato',
    'm.lida_em',
    'm.primeira_resposta_em',
  ] as const;

  /** A message as the inbox and its export list it, with its number of photos. */
  const listed = () =>
    db
      .selectFrom('fale_aqui as m')
      .select(columns)
      .select((eb) =>
        eb
          .selectFrom('fale_aqui_arquivos as a')
          .select((e2) => e2.fn.countAll<number>().as('n'))
          .whereRef('a.fale_aqui_id', '=', 'm.id')
          .as('fotos'),
      );

  return {
    /** The stored submission this one repeats (same envio_id, same content), if any (docs/decisions/082, 183). */
    storedEnvio(envioId: string, fingerprint: string, staleBefore: string) {
      return createEnvioRepository(db).findRepeat('fale_aqui', envioId, fingerprint, staleBefore);
    },

    ...createFormUnitsRepository(db),

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
          contato_email: message.contatoEmail,
          contato_telefone: message.contatoTelefone,
          aceite_contato: message.aceiteContato ? 1 : 0,
          status: 'nova',
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

    async countByStatus(f: MessageFilter) {
      const rows = await applyFilter(
        db
          .selectFrom('fale_aqui as m')
          .select((eb) => ['m.status', eb.fn.countAll<number>().as('n')])
          .groupBy('m.status'),
        { ...f, status: undefined },
      ).execute();
      return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])) as Partial<Record<string, number>>;
    },

    async list(f: MessageFilter, limit: number, offset: number) {
      return applyFilter(
        listed().orderBy('m.criado_em', 'desc').orderBy('m.id', 'desc').limit(limit).offset(offset),
        f,
      ).execute();
    },

    /** Rows per export batch (csvBefore) on this engine. */
    csvBatchRows: csv.batchRows,

    /** One export batch written as CSV by the database (src/db/csv/sql.ts), newest first (ids below `beforeId`). */
    async csvBefore(f: MessageFilter, beforeId: number | null, limit: number, statusLabels: Record<string, string>) {
      const photos = db
        .selectFrom('fale_aqui_arquivos as a')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('a.fale_aqui_id', '=', sql<number>`m.id`);
      const line = csv.line([
        csv.number(sql.ref('m.id')),
        csv.dateTime(sql.ref('m.criado_em')),
        csv.text(sql.ref('m.unidade')),
        csv.text(sql.ref('m.nome_completo')),
        sql<string>`case when m.anonimo <> 0 then ${csv.constant('sim')} else ${csv.constant('não')} end`,
        csv.label(sql.ref('m.status'), statusLabels),
        csv.text(sql.ref('m.mensagem')),
        csv.number(photos),
        csv.text(sql.ref('m.contato_email')),
        csv.text(sql.ref('m.contato_telefone')),
        csv.dateTime(sql.ref('m.primeira_resposta_em')),
      ]);
      const page = applyFilter(
        db
          .selectFrom('fale_aqui as m')
          .select([line.as('line'), 'm.id as id'])
          .$if(beforeId !== null, (qb) => qb.where('m.id', '<', beforeId!))
          .orderBy('m.id', 'desc')
          .limit(limit),
        f,
      );
      return csv.batch<{ id: number }>(page, ['id']);
    },

    async byId(id: number) {
      return db
        .selectFrom('fale_aqui as m')
        .leftJoin('usuarios as u', 'u.id', 'm.lida_por')
        .leftJoin('unidades as un', 'un.id', 'm.unidade_id')
        .select(columns)
        .select(['u.nome as lida_por_nome', 'un.email as unidade_email'])
        .where('m.id', '=', id)
        .executeTakeFirst();
    },

    /** The staff replies of a message, oldest first, with who sent them. */
    async repliesOf(messageId: number) {
      return db
        .selectFrom('fale_aqui_respostas as r')
        .leftJoin('usuarios as u', 'u.id', 'r.usuario_id')
        .select(['r.id', 'r.canal', 'r.destinatario', 'r.texto', 'r.criado_em', 'u.nome as usuario'])
        .where('r.fale_aqui_id', '=', messageId)
        .orderBy('r.criado_em')
        .orderBy('r.id')
        .execute();
    },

    /** Every status change of a message, oldest first, with who made it. */
    async historyOf(messageId: number) {
      return db
        .selectFrom('fale_aqui_historico as h')
        .leftJoin('usuarios as u', 'u.id', 'h.usuario_id')
        .select(['h.id', 'h.status_de', 'h.status_para', 'h.criado_em', 'u.nome as usuario'])
        .where('h.fale_aqui_id', '=', messageId)
        .orderBy('h.criado_em')
        .orderBy('h.id')
        .execute();
    },

    /** Opening a new message marks it read, once: the first reader is kept. */
    async markRead(id: number, userId: number, now: string, onChange?: StatusChangeHook): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const res = await trx
          .updateTable('fale_aqui')
          .set({ status: 'lida', lida_em: now, lida_por: userId, atualizado_em: now })
          .where('id', '=', id)
          .where('status', '=', 'nova')
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) === 0) return false;
        await trx
          .insertInto('fale_aqui_historico')
          .values({ fale_aqui_id: id, status_de: 'nova', status_para: 'lida', usuario_id: userId, criado_em: now })
          .execute();
        await onChange?.(trx, 'nova', 'lida');
        return true;
      });
    },

    /**
     * A reply: kept in the thread, the message set to "respondida" (with its history row),
     * and for an e-mail the outbox row, all in one transaction.
     */
    async addReply(reply: NewReply, mail: OutgoingMail | null, onChange?: StatusChangeHook): Promise<number> {
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('fale_aqui')
          .select(['status', 'lida_em'])
          .where('id', '=', reply.messageId)
          .executeTakeFirstOrThrow();
        const outboxId = mail ? await enqueueMail(trx, mail) : null;
        const { id } = await trx
          .insertInto('fale_aqui_respostas')
          .values({
            fale_aqui_id: reply.messageId,
            usuario_id: reply.userId,
            canal: reply.canal,
            destinatario: reply.destinatario,
            texto: reply.texto,
            fila_email_id: outboxId,
            criado_em: reply.now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await trx
          .updateTable('fale_aqui')
          .set((eb) => ({
            status: 'respondida',
            atualizado_em: reply.now,
            primeira_resposta_em: eb.fn.coalesce('primeira_resposta_em', eb.val(reply.now)),
            ...(current.lida_em ? {} : { lida_em: reply.now, lida_por: reply.userId }),
          }))
          .where('id', '=', reply.messageId)
          .execute();
        if (current.status !== 'respondida') {
          await trx
            .insertInto('fale_aqui_historico')
            .values({
              fale_aqui_id: reply.messageId,
              status_de: current.status,
              status_para: 'respondida',
              usuario_id: reply.userId,
              criado_em: reply.now,
            })
            .execute();
          await onChange?.(trx, current.status as MessageStatus, 'respondida');
        }
        return id;
      });
    },

    /** Open messages (nova, lida) with no reply, created before `beforeIso`, oldest first. */
    async unansweredBefore(unitIds: number[] | null, beforeIso: string, limit: number) {
      return applyFilter(
        db
          .selectFrom('fale_aqui as m')
          .select([...summary, 'm.contato_email', 'm.contato_telefone'])
          .where('m.status', 'in', OPEN_STATUSES)
          .where('m.primeira_resposta_em', 'is', null)
          .orderBy('m.criado_em')
          .orderBy('m.id')
          .limit(limit),
        { unitIds, toIso: beforeIso },
      ).execute();
    },

    /** Messages created since `sinceIso` with their first reply, for the time to first reply. */
    /**
     * Per unit (or per removed unit's name), over the filter: messages received, answered and
     * still open, and the median time to the first reply in ms, all counted by the database
     * (a 90-day window of a chain is tens of thousands of messages).
     */
    async replyTimes(f: MessageFilter) {
      // A literal, not a parameter: PostgreSQL matches the GROUP BY to the select list by its text.
      const unitKey = sql<string>`coalesce(cast(m.unidade_id as varchar(20)), ${sql.lit('t:')} || m.unidade)`;
      const counts = await applyFilter(
        db
          .selectFrom('fale_aqui as m')
          .select((eb) => [
            unitKey.as('chave'),
            eb.fn.max('m.unidade').as('unidade'),
            eb.fn.countAll<number>().as('recebidas'),
            eb.fn.count<number>('m.primeira_resposta_em').as('respondidas'),
            eb.fn
              .sum<number>(
                eb
                  .case()
                  .when(eb.and([eb('m.primeira_resposta_em', 'is', null), eb('m.status', 'in', OPEN_STATUSES)]))
                  .then(1)
                  .else(0)
                  .end(),
              )
              .as('abertas'),
          ])
          .groupBy(unitKey),
        f,
      ).execute();
      const elapsedMs = isPostgres(db)
        ? sql<number>`extract(epoch from (cast(m.primeira_resposta_em as timestamptz)
            - cast(m.criado_em as timestamptz))) * 1000`
        : sql<number>`(julianday(m.primeira_resposta_em) - julianday(m.criado_em)) * 86400000.0`;
      // The middle one or two reply times of each unit (2·rank within [n, n + 2]).
      const middles = await db
        .selectFrom(
          applyFilter(
            db
              .selectFrom('fale_aqui as m')
              .select([
                unitKey.as('chave'),
                elapsedMs.as('ms'),
                sql<number>`row_number() over (partition by ${unitKey} order by ${elapsedMs})`.as('posicao'),
                sql<number>`count(*) over (partition by ${unitKey})`.as('n'),
              ])
              .where('m.primeira_resposta_em', 'is not', null),
            f,
          ).as('t'),
        )
        .select(['t.chave', 't.ms'])
        .where(sql<boolean>`2 * t.posicao between t.n and t.n + 2`)
        .execute();
      return { counts, middles };
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

    /** A status change by a staff member, with its history row (nothing when unchanged). */
    async setStatus(
      id: number,
      status: MessageStatus,
      userId: number,
      now: string,
      onChange?: StatusChangeHook,
    ): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const current = await trx
          .selectFrom('fale_aqui')
          .select(['status', 'lida_em'])
          .where('id', '=', id)
          .executeTakeFirst();
        if (!current) return false;
        if (current.status === status) return true;
        await trx
          .updateTable('fale_aqui')
          .set({
            status,
            atualizado_em: now,
            ...(current.lida_em || status === 'nova' ? {} : { lida_em: now, lida_por: userId }),
          })
          .where('id', '=', id)
          .execute();
        await trx
          .insertInto('fale_aqui_historico')
          .values({
            fale_aqui_id: id,
            status_de: current.status,
            status_para: status,
            usuario_id: userId,
            criado_em: now,
          })
          .execute();
        await onChange?.(trx, current.status as MessageStatus, status);
        return true;
      });
    },

    async unitEmail(unitId: number | null): Promise<string | null> {
      if (unitId === null) return null;
      const row = await db.selectFrom('unidades').select('email').where('id', '=', unitId).executeTakeFirst();
      return row?.email ?? null;
    },
  };
}

export type FaleAquiRepository = ReturnType<typeof createFaleAquiRepository>;

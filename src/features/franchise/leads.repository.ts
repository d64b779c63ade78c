// Franchise leads, their status history and notes: the only place their SQL lives.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { Database, FranquiaLeadsTable } from '../../db/types';
import { inTransaction, isPostgres, nowIso } from '../../db/index';
import { databaseCsvWriter } from '../../db/csv/sql';
import { LEAD_STATUSES, OPTION_FIELD_NAMES, OPTION_FIELDS, type Option, type OptionField } from './options';

/** A lead as the form stores it: the table's columns but the ones the database or the panel sets. */
export type NewLead = Omit<FranquiaLeadsTable, 'id' | 'status' | 'criado_em' | 'atualizado_em'>;

export interface LeadFilters {
  /** already folded (lower-case, accent-free); matched against `busca` */
  text?: string;
  status?: string;
  options?: Partial<Record<OptionField, string>>;
  /** ISO instants: criado_em >= from, criado_em < to */
  from?: string;
  to?: string;
}

export type LeadCursor = {
  criado_em: string;
  id: number;
};

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

type LeadQuery<O> = SelectQueryBuilder<Database, 'franquia_leads', O>;

function applyFilters<O>(qb: LeadQuery<O>, f: LeadFilters): LeadQuery<O> {
  let q = qb;
  if (f.text) q = q.where(sql<boolean>`busca like ${`%${escapeLike(f.text)}%`} escape '\\'`);
  if (f.status) q = q.where('status', '=', f.status);
  for (const [field, value] of Object.entries(f.options ?? {})) {
    if (value) q = q.where(field as OptionField, '=', value);
  }
  if (f.from) q = q.where('criado_em', '>=', f.from);
  if (f.to) q = q.where('criado_em', '<', f.to);
  return q;
}

export function createLeadsRepository(db: Kysely<Database>) {
  const csv = databaseCsvWriter(db);
  return {
    /** Inserts the lead and its first history entry ("novo", from the site form). */
    async insert(lead: NewLead, at = nowIso()): Promise<number> {
      const row = await db
        .insertInto('franquia_leads')
        .values({ ...lead, status: 'novo', criado_em: at, atualizado_em: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('franquia_leads_historico')
        .values({ lead_id: row.id, status_de: null, status_para: 'novo', usuario_id: null, criado_em: at })
        .execute();
      return row.id;
    },

    async count(f: LeadFilters): Promise<number> {
      const row = await applyFilters(db.selectFrom('franquia_leads'), f)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },

    /** One page, newest first. */
    list(f: LeadFilters, limit: number, offset: number) {
      return applyFilters(db.selectFrom('franquia_leads'), f)
        .selectAll()
        .orderBy('criado_em', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
    },

    /** Rows per export batch (csvAfter) on this engine. */
    csvBatchRows: csv.batchRows,

    /**
     * On SQLite, reads the table and the export's index front to back and keeps nothing, so that
     * the export's walk from the newest lead back finds their pages cached: the system reads a
     * file ahead only forward, and 60,000 leads read backward from disk took half a second of 4 KB
     * reads (docs/decisions/267). Run on the read connection, off the event loop.
     */
    async readAheadForExport(): Promise<void> {
      if (isPostgres(db)) return;
      const table = sql`select count(*) from franquia_leads where length(nome_completo) >= 0`;
      const index = sql`select count(*) from franquia_leads indexed by franquia_leads_criado_idx where criado_em > ''`;
      for (const read of [table, index]) await read.execute(db);
    },

    /**
     * One export batch written as CSV by the database (src/db/csv/sql.ts): newest first, `limit`
     * rows after `cursor` (keyset pagination on the (criado_em, id) index).
     */
    async csvAfter(f: LeadFilters, cursor: LeadCursor | null, limit: number) {
      const labels = (options: readonly Option[]) => Object.fromEntries(options.map((o) => [o.value, o.label]));
      const line = csv.line([
        csv.number(sql.ref('id')),
        csv.dateTime(sql.ref('criado_em')),
        csv.text(sql.ref('nome_completo')),
        csv.phone(sql.ref('whatsapp')),
        csv.text(sql.ref('email')),
        csv.text(sql.ref('cidade_regiao')),
        ...OPTION_FIELD_NAMES.map((name) => csv.label(sql.ref(name), labels(OPTION_FIELDS[name].options))),
        csv.label(sql.ref('status'), labels(LEAD_STATUSES)),
      ]);
      let q = applyFilters(db.selectFrom('franquia_leads'), f);
      if (cursor) q = q.where(sql<boolean>`(criado_em, id) < (${cursor.criado_em}, ${cursor.id})`);
      const page = q
        .select([line.as('line'), 'criado_em', 'id'])
        .orderBy('criado_em', 'desc')
        .orderBy('id', 'desc')
        .limit(limit);
      return csv.batch<LeadCursor>(page, ['criado_em', 'id']);
    },

    findById(id: number) {
      return db.selectFrom('franquia_leads').selectAll().where('id', '=', id).executeTakeFirst();
    },

    history(leadId: number) {
      return db
        .selectFrom('franquia_leads_historico as h')
        .leftJoin('usuarios as u', 'u.id', 'h.usuario_id')
        .select(['h.id', 'h.status_de', 'h.status_para', 'h.criado_em', 'h.usuario_id', 'u.nome as usuario_nome'])
        .where('h.lead_id', '=', leadId)
        .orderBy('h.criado_em', 'desc')
        .orderBy('h.id', 'desc')
        .execute();
    },

    notes(leadId: number) {
      return db
        .selectFrom('franquia_leads_notas as n')
        .leftJoin('usuarios as u', 'u.id', 'n.usuario_id')
        .select(['n.id', 'n.texto', 'n.criado_em', 'n.usuario_id', 'u.nome as usuario_nome'])
        .where('n.lead_id', '=', leadId)
        .orderBy('n.criado_em', 'desc')
        .orderBy('n.id', 'desc')
        .execute();
    },

    /** Changes the status and records who did it, in one transaction. False when the lead is gone. */
    async setStatus(leadId: number, status: string, userId: number): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const lead = await trx
          .selectFrom('franquia_leads')
          .select('status')
          .where('id', '=', leadId)
          .executeTakeFirst();
        if (!lead) return false;
        if (lead.status === status) return true;
        const at = nowIso();
        await trx.updateTable('franquia_leads').set({ status, atualizado_em: at }).where('id', '=', leadId).execute();
        await trx
          .insertInto('franquia_leads_historico')
          .values({ lead_id: leadId, status_de: lead.status, status_para: status, usuario_id: userId, criado_em: at })
          .execute();
        return true;
      });
    },

    async addNote(leadId: number, texto: string, userId: number): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        const lead = await trx.selectFrom('franquia_leads').select('id').where('id', '=', leadId).executeTakeFirst();
        if (!lead) return false;
        const at = nowIso();
        await trx
          .insertInto('franquia_leads_notas')
          .values({ lead_id: leadId, usuario_id: userId, texto, criado_em: at })
          .execute();
        await trx.updateTable('franquia_leads').set({ atualizado_em: at }).where('id', '=', leadId).execute();
        return true;
      });
    },

    /** Deletes the lead with its history and notes (LGPD erasure). */
    async delete(leadId: number): Promise<boolean> {
      return inTransaction(db, async (trx) => {
        await trx.deleteFrom('franquia_leads_notas').where('lead_id', '=', leadId).execute();
        await trx.deleteFrom('franquia_leads_historico').where('lead_id', '=', leadId).execute();
        const res = await trx.deleteFrom('franquia_leads').where('id', '=', leadId).executeTakeFirst();
        return Number(res.numDeletedRows) > 0;
      });
    },
  };
}
export type LeadsRepository = ReturnType<typeof createLeadsRepository>;

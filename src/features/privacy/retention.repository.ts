// The SQL of the retention job: anonymise each kind of personal data past its period, the
// copies of it in the outbox and in consent proofs, anonymise online enrolments five years
// after their contract ended, and delete incidents past five years.
// Each call handles at most `limit` rows (the service calls again until none is left), and
// every UPDATE repeats its condition, so a second instance racing it changes nothing twice.
import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { ANONYMOUS_PERSON, REMOVED_TEXT } from '../../db/anonymised';
import type { Database } from '../../db/types';
/** fale_aqui.nome_completo of an anonymous message (as the form stores it) */
const ANONYMOUS_SENDER = 'Anônimo';

const REMOVED_PAYLOAD = JSON.stringify({ removido: 'prazo de guarda' });

/**
 * "Not yet anonymised", written exactly as the partial indexes of migration
 * 2026-11-27T0600_retencao_indices write it (literals, not parameters), so each pass reads
 * only the rows left to do. Each is in parentheses: Kysely adds a raw condition as it is, and
 * an OR beside the date's AND would widen the selection. test/privacy/privacy-retention.test.ts checks
 * the plans.
 */
const MESSAGE_NOT_ANONYMISED = sql<boolean>`(mensagem <> ${sql.lit(REMOVED_TEXT)} or anonimo = 0
  or contato_email is not null or contato_telefone is not null)`;
const SURVEY_CONTACT_LEFT = sql<boolean>`(nome_cliente is not null or contato_cliente is not null)`;
const LEAD_NOT_ANONYMISED = sql<boolean>`(nome_completo <> ${sql.lit(ANONYMOUS_PERSON)}
  or whatsapp <> '' or email <> '')`;

/**
 * The day an ended enrolment's contract ended (null while in force), written as the partial
 * index of migration 2026-11-29T0800_matriculas_retencao writes it, whitespace included.
 */
const ENROLMENT_END = sql<string>`(case when status in ('expirada', 'desistencia', 'cancelada')
        then coalesce(cancelamento_efetivo_em, desistencia_em, expira_em, aceito_em) end)`;
/** A charge or refund still open keeps the contract: the period runs again once it is settled. */
const NO_OPEN_PAYMENT = sql<boolean>`not exists (select 1 from matriculas_pagamentos p
  where p.matricula_id = matriculas.id and p.status in ('pendente', 'atrasado'))`;

/** The rows each kind has left to anonymise before a cut-off (each read along its partial index). */
export function retentionCandidates(db: Kysely<Database>) {
  return {
    surveyContacts: (cutoffIso: string) =>
      db.selectFrom('respostas_nps').select('id').where('criado_em', '<', cutoffIso).where(SURVEY_CONTACT_LEFT),
    messages: (cutoffIso: string) =>
      db.selectFrom('fale_aqui').select('id').where('criado_em', '<', cutoffIso).where(MESSAGE_NOT_ANONYMISED),
    leads: (cutoffIso: string) =>
      db.selectFrom('franquia_leads').select('id').where('atualizado_em', '<', cutoffIso).where(LEAD_NOT_ANONYMISED),
    bookings: (cutoffIso: string) =>
      db
        .selectFrom('aulas_experimentais')
        .select('id')
        .where('inicio_em', '<', cutoffIso)
        .where('anonimizado_em', 'is', null),
    enrolments: (cutoffIso: string) =>
      db
        .selectFrom('matriculas')
        .select('id')
        .where(ENROLMENT_END, '<', cutoffIso)
        .where('anonimizado_em', 'is', null)
        .where(NO_OPEN_PAYMENT),
  };
}

/** The ids of at most `limit` rows of a selection. */
async function pick<DB, TB extends keyof DB>(
  q: SelectQueryBuilder<DB, TB, { id: number }>,
  limit: number,
): Promise<number[]> {
  return (await q.limit(limit).execute()).map((r) => r.id);
}

const BATCH = 500;
const chunks = <T>(items: T[]) =>
  Array.from({ length: Math.ceil(items.length / BATCH) }, (_, i) => items.slice(i * BATCH, (i + 1) * BATCH));

export function createRetentionRepository(db: Kysely<Database>) {
  /**
   * Sent or failed outbox mails about these records lose their text, recipient and files;
   * delivered or failed webhook deliveries lose their body. Pending ones are left to go out.
   */
  async function scrubOutbox(origins: string[]): Promise<void> {
    for (const batch of chunks(origins)) {
      await db
        .updateTable('fila_emails')
        .set({ destinatario: '', assunto: REMOVED_TEXT, texto: REMOVED_TEXT, html: null, anexos: null })
        .where('origem', 'in', batch)
        .where('status', 'not in', ['pendente', 'enviando'])
        .execute();
      await db
        .updateTable('webhook_entregas')
        .set({ payload_json: REMOVED_PAYLOAD, ultima_resposta: null })
        .where('origem', 'in', batch)
        .where('status', 'not in', ['pendente', 'enviando'])
        .execute();
    }
  }

  /** The consent proofs of these records keep purpose, version, date and channel; the contact goes. */
  async function scrubConsents(tabela: string, ids: number[]): Promise<void> {
    for (const batch of chunks(ids)) {
      await db
        .updateTable('consentimentos')
        .set({ email: null, telefone: null })
        .where('tabela', '=', tabela)
        .where('registro_id', 'in', batch)
        .execute();
    }
  }

  return {
    /** Survey answers older than the cut-off lose name and contact; scores and answers stay. */
    async anonymizeSurveyContacts(cutoffIso: string, limit: number): Promise<number[]> {
      const ids = await pick(retentionCandidates(db).surveyContacts(cutoffIso), limit);
      if (!ids.length) return [];
      const rows = await db
        .updateTable('respostas_nps')
        .set({ nome_cliente: null, contato_cliente: null })
        .where('id', 'in', ids)
        .where(SURVEY_CONTACT_LEFT)
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      await scrubOutbox(changed.map((id) => `respostas_nps:${id}`));
      return changed;
    },

    /**
     * Free messages older than the cut-off: text, name and contact replaced, staff replies'
     * text and recipient too, their photo rows deleted. Returns the messages anonymised and
     * the storage keys of the photos, which the caller deletes after the commit.
     */
    async anonymizeMessages(cutoffIso: string, limit: number): Promise<{ ids: number[]; photoKeys: string[] }> {
      const ids = await pick(retentionCandidates(db).messages(cutoffIso), limit);
      if (!ids.length) return { ids: [], photoKeys: [] };
      const rows = await db
        .updateTable('fale_aqui')
        .set({
          nome_completo: ANONYMOUS_SENDER,
          anonimo: 1,
          mensagem: REMOVED_TEXT,
          contato_email: null,
          contato_telefone: null,
        })
        .where('id', 'in', ids)
        .where(MESSAGE_NOT_ANONYMISED)
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      if (!changed.length) return { ids: [], photoKeys: [] };
      await db
        .updateTable('fale_aqui_respostas')
        .set({ destinatario: null, texto: REMOVED_TEXT })
        .where('fale_aqui_id', 'in', changed)
        .execute();
      await scrubConsents('fale_aqui', changed);
      await scrubOutbox(changed.flatMap((id) => [`fale_aqui:${id}`, `fale_aqui_resposta:${id}`]));
      const photos = await db
        .deleteFrom('fale_aqui_arquivos')
        .where('fale_aqui_id', 'in', changed)
        .returning('caminho')
        .execute();
      return { ids: changed, photoKeys: photos.map((p) => p.caminho) };
    },

    /** Franchise leads untouched since the cut-off: name, WhatsApp, e-mail and staff notes go. */
    async anonymizeLeads(cutoffIso: string, limit: number): Promise<number[]> {
      const ids = await pick(retentionCandidates(db).leads(cutoffIso), limit);
      if (!ids.length) return [];
      const rows = await db
        .updateTable('franquia_leads')
        .set({ nome_completo: ANONYMOUS_PERSON, whatsapp: '', email: '', busca: '' })
        .where('id', 'in', ids)
        .where(LEAD_NOT_ANONYMISED)
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      if (!changed.length) return [];
      await db.deleteFrom('franquia_leads_notas').where('lead_id', 'in', changed).execute();
      await scrubConsents('franquia_leads', changed);
      await scrubOutbox(changed.map((id) => `franquia_leads:${id}`));
      return changed;
    },

    /** Trial-class bookings whose class started before the cut-off: name, WhatsApp and e-mail go. */
    async anonymizeBookings(cutoffIso: string, nowIso: string, limit: number): Promise<number[]> {
      const ids = await pick(retentionCandidates(db).bookings(cutoffIso), limit);
      if (!ids.length) return [];
      const rows = await db
        .updateTable('aulas_experimentais')
        .set({ nome: ANONYMOUS_PERSON, whatsapp: null, email: null, anonimizado_em: nowIso, atualizado_em: nowIso })
        .where('id', 'in', ids)
        .where('anonimizado_em', 'is', null)
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      await scrubConsents('aulas_experimentais', changed);
      await scrubOutbox(
        changed.flatMap((id) => [`aulas_experimentais:${id}:confirmacao`, `aulas_experimentais:${id}:lembrete`]),
      );
      return changed;
    },

    /**
     * Online enrolments whose contract ended before the cut-off (five years), with no charge or
     * refund open: the person's data, the filled-in contract text and the acceptance's IP and
     * browser go. The plan, prices, dates, the contract's version and SHA-256, and the payments
     * stay, without anyone to name.
     */
    async anonymizeEnrolments(cutoffIso: string, nowIso: string, limit: number): Promise<number[]> {
      const ids = await pick(retentionCandidates(db).enrolments(cutoffIso), limit);
      if (!ids.length) return [];
      const rows = await db
        .updateTable('matriculas')
        .set({
          nome: ANONYMOUS_PERSON,
          cpf: '',
          nascimento: '',
          email: '',
          whatsapp: null,
          aceita_marketing: 0,
          responsavel_nome: null,
          responsavel_cpf: null,
          contrato_texto: REMOVED_TEXT,
          aceite_ip: null,
          aceite_user_agent: null,
          anonimizado_em: nowIso,
          atualizado_em: nowIso,
        })
        .where('id', 'in', ids)
        .where('anonimizado_em', 'is', null)
        .where(sql<boolean>`status in ('expirada', 'desistencia', 'cancelada')`)
        .where(NO_OPEN_PAYMENT)
        .returning('id')
        .execute();
      const changed = rows.map((r) => r.id);
      if (!changed.length) return [];
      await scrubConsents('matriculas', changed);
      await scrubOutbox(changed.map((id) => `matricula:${id}`));
      return changed;
    },

    /** Incidents registered before the cut-off (five years). */
    async deleteIncidents(cutoffIso: string): Promise<number> {
      const result = await db.deleteFrom('incidentes').where('criado_em', '<', cutoffIso).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type RetentionRepository = ReturnType<typeof createRetentionRepository>;

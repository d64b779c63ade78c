// The SQL of the retention job: anonymise each kind of personal data past its period, the
// copies of it in the outbox and in consent proofs, and delete incidents past five years.
// Every statement is a conditional UPDATE/DELETE that a second run (or a second instance
// racing it) finds nothing left to do for.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types';

/** Replaces a free message's text and staff replies once past their period. */
export const REMOVED_TEXT = '[removido ao fim do prazo de guarda]';
export const ANONYMOUS_PERSON = 'Pessoa anonimizada';
/** fale_aqui.nome_completo of an anonymous message (as the form stores it) */
const ANONYMOUS_SENDER = 'Anônimo';

const REMOVED_PAYLOAD = JSON.stringify({ removido: 'prazo de guarda' });

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
    async anonymizeSurveyContacts(cutoffIso: string): Promise<number[]> {
      const rows = await db
        .updateTable('respostas_nps')
        .set({ nome_cliente: null, contato_cliente: null })
        .where('criado_em', '<', cutoffIso)
        .where((eb) => eb.or([eb('nome_cliente', 'is not', null), eb('contato_cliente', 'is not', null)]))
        .returning('id')
        .execute();
      const ids = rows.map((r) => r.id);
      await scrubOutbox(ids.map((id) => `respostas_nps:${id}`));
      return ids;
    },

    /**
     * Free messages older than the cut-off: text, name and contact replaced, staff replies'
     * text and recipient too, their photo rows deleted. Returns the messages anonymised and
     * the storage keys of the photos, which the caller deletes after the commit.
     */
    async anonymizeMessages(cutoffIso: string): Promise<{ ids: number[]; photoKeys: string[] }> {
      const rows = await db
        .updateTable('fale_aqui')
        .set({
          nome_completo: ANONYMOUS_SENDER,
          anonimo: 1,
          mensagem: REMOVED_TEXT,
          contato_email: null,
          contato_telefone: null,
        })
        .where('criado_em', '<', cutoffIso)
        .where((eb) =>
          eb.or([
            eb('mensagem', '<>', REMOVED_TEXT),
            eb('anonimo', '=', 0),
            eb('contato_email', 'is not', null),
            eb('contato_telefone', 'is not', null),
          ]),
        )
        .returning('id')
        .execute();
      const ids = rows.map((r) => r.id);
      for (const batch of chunks(ids)) {
        await db
          .updateTable('fale_aqui_respostas')
          .set({ destinatario: null, texto: REMOVED_TEXT })
          .where('fale_aqui_id', 'in', batch)
          .execute();
      }
      await scrubConsents('fale_aqui', ids);
      await scrubOutbox(ids.flatMap((id) => [`fale_aqui:${id}`, `fale_aqui_resposta:${id}`]));
      // Photos of every message past the period, including any left by an earlier run
      // that stopped before deleting them.
      const photos = await db
        .deleteFrom('fale_aqui_arquivos')
        .where('fale_aqui_id', 'in', db.selectFrom('fale_aqui').select('id').where('criado_em', '<', cutoffIso))
        .returning('caminho')
        .execute();
      return { ids, photoKeys: photos.map((p) => p.caminho) };
    },

    /** Franchise leads untouched since the cut-off: name, WhatsApp, e-mail and staff notes go. */
    async anonymizeLeads(cutoffIso: string): Promise<number[]> {
      const rows = await db
        .updateTable('franquia_leads')
        .set({ nome_completo: ANONYMOUS_PERSON, whatsapp: '', email: '', busca: '' })
        .where('atualizado_em', '<', cutoffIso)
        .where((eb) =>
          eb.or([eb('nome_completo', '<>', ANONYMOUS_PERSON), eb('whatsapp', '<>', ''), eb('email', '<>', '')]),
        )
        .returning('id')
        .execute();
      const ids = rows.map((r) => r.id);
      for (const batch of chunks(ids)) {
        await db.deleteFrom('franquia_leads_notas').where('lead_id', 'in', batch).execute();
      }
      await scrubConsents('franquia_leads', ids);
      await scrubOutbox(ids.map((id) => `franquia_leads:${id}`));
      return ids;
    },

    /** Trial-class bookings whose class started before the cut-off: name, WhatsApp and e-mail go. */
    async anonymizeBookings(cutoffIso: string, nowIso: string): Promise<number[]> {
      const rows = await db
        .updateTable('aulas_experimentais')
        .set({ nome: ANONYMOUS_PERSON, whatsapp: null, email: null, anonimizado_em: nowIso, atualizado_em: nowIso })
        .where('inicio_em', '<', cutoffIso)
        .where('anonimizado_em', 'is', null)
        .returning('id')
        .execute();
      const ids = rows.map((r) => r.id);
      await scrubConsents('aulas_experimentais', ids);
      await scrubOutbox(
        ids.flatMap((id) => [`aulas_experimentais:${id}:confirmacao`, `aulas_experimentais:${id}:lembrete`]),
      );
      return ids;
    },

    /** Incidents registered before the cut-off (five years). */
    async deleteIncidents(cutoffIso: string): Promise<number> {
      const result = await db.deleteFrom('incidentes').where('criado_em', '<', cutoffIso).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
export type RetentionRepository = ReturnType<typeof createRetentionRepository>;

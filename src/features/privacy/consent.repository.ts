// The SQL of consents (table consentimentos). `recordConsent` is called by the forms'
// services inside the transaction that stores the submission, as enqueueMail is; the
// repository serves the checks (inbox reply, reminders) and the staff screen.
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/types';
import { type ConsentChannel, type ConsentPurpose, REVOCATION_MARK } from './consent';

export interface NewConsent {
  finalidade: ConsentPurpose;
  versao: number;
  canal: ConsentChannel;
  email: string | null;
  telefone: string | null;
  tabela: string;
  registroId: number;
  aceitoEm: string;
}

/** The contact a consent covers: a lower-case e-mail and/or a +55… phone. */
export interface ConsentContact {
  email?: string | null;
  telefone?: string | null;
}

/** A record whose later contact may have been revoked. */
export interface ConsentSubject extends ConsentContact {
  tabela: string;
  registroId: number;
  /** when the record was stored: a revocation of its contact after that covers it */
  criadoEm: string;
}

/** Stores the proof of one consent; call it with the submission's transaction. */
export async function recordConsent(db: Kysely<Database>, c: NewConsent): Promise<void> {
  await db
    .insertInto('consentimentos')
    .values({
      finalidade: c.finalidade,
      versao: c.versao,
      aceito_em: c.aceitoEm,
      canal: c.canal,
      email: c.email,
      telefone: c.telefone,
      tabela: c.tabela,
      registro_id: c.registroId,
    })
    .execute();
}

export function createConsentRepository(db: Kysely<Database>) {
  /** rows of the contact: its e-mail or its phone */
  const ofContact = (contact: ConsentContact) => {
    const email = contact.email || null;
    const telefone = contact.telefone || null;
    return db
      .selectFrom('consentimentos')
      .where((eb) =>
        eb.or([
          ...(email ? [eb('consentimentos.email', '=', email)] : []),
          ...(telefone ? [eb('consentimentos.telefone', '=', telefone)] : []),
          ...(email || telefone ? [] : [sql<boolean>`1 = 0`]),
        ]),
      );
  };

  return {
    /** Every consent given with this e-mail or phone, newest first. */
    listOf(contact: ConsentContact) {
      return ofContact(contact)
        .leftJoin('usuarios as u', 'u.id', 'consentimentos.revogado_por')
        .selectAll('consentimentos')
        .select('u.nome as revogado_por_nome')
        .orderBy('consentimentos.aceito_em', 'desc')
        .orderBy('consentimentos.id', 'desc')
        .limit(500)
        .execute();
    },

    /**
     * Marks every consent of the contact revoked (once: a revoked row keeps its first date),
     * and takes back the offers permission of the enrolments those consents were given with,
     * so the record and "Meus dados" no longer show it granted.
     */
    async revoke(contact: ConsentContact, at: string, userId: number | null): Promise<number> {
      const email = contact.email || null;
      const telefone = contact.telefone || null;
      if (!email && !telefone) return 0;
      const result = await db
        .updateTable('consentimentos')
        .set({ revogado_em: at, revogado_por: userId })
        .where('revogado_em', 'is', null)
        .where((eb) =>
          eb.or([...(email ? [eb('email', '=', email)] : []), ...(telefone ? [eb('telefone', '=', telefone)] : [])]),
        )
        .executeTakeFirst();
      await db
        .updateTable('matriculas')
        .set({ aceita_marketing: 0 })
        .where('aceita_marketing', '<>', 0)
        .where('id', 'in', (eb) =>
          ofContact(contact)
            .select('consentimentos.registro_id')
            .where('consentimentos.finalidade', '=', 'matricula_ofertas')
            .where('consentimentos.tabela', '=', 'matriculas'),
        )
        .execute();
      return Number(result.numUpdatedRows);
    },

    /** Whether any consent (or revocation) row names this contact. */
    async known(contact: ConsentContact): Promise<boolean> {
      return Boolean(await ofContact(contact).select('id').limit(1).executeTakeFirst());
    },

    /**
     * A revocation for a contact that had no consent row to revoke (a record from before
     * consents were kept): `revocationFor` finds it like any revoked consent.
     */
    async markRevocation(contact: ConsentContact, at: string, userId: number | null, requestId: number | null) {
      await db
        .insertInto('consentimentos')
        .values({
          finalidade: REVOCATION_MARK,
          versao: 0,
          aceito_em: at,
          canal: 'site',
          email: contact.email || null,
          telefone: contact.telefone || null,
          tabela: 'privacidade_solicitacoes',
          registro_id: requestId ?? 0,
          revogado_em: at,
          revogado_por: userId,
        })
        .execute();
    },

    /**
     * The revocation that stops contact about a record, if any: its own consent revoked, or
     * a consent of the same e-mail or phone revoked after the record was stored (records
     * from before consents were kept have no row of their own).
     */
    async revocationFor(s: ConsentSubject): Promise<string | null> {
      const email = s.email || null;
      const telefone = s.telefone || null;
      const row = await db
        .selectFrom('consentimentos')
        .select('revogado_em')
        .where('revogado_em', 'is not', null)
        .where((eb) =>
          eb.or([
            eb.and([eb('tabela', '=', s.tabela), eb('registro_id', '=', s.registroId)]),
            ...(email ? [eb.and([eb('email', '=', email), eb('revogado_em', '>=', s.criadoEm)])] : []),
            ...(telefone ? [eb.and([eb('telefone', '=', telefone), eb('revogado_em', '>=', s.criadoEm)])] : []),
          ]),
        )
        .orderBy('revogado_em')
        .limit(1)
        .executeTakeFirst();
      return row?.revogado_em ?? null;
    },
  };
}
export type ConsentRepository = ReturnType<typeof createConsentRepository>;

// Consent rules: finding a person's consents by e-mail or phone, revoking them (from the
// staff screen, or from "Meus dados" through `revokeConsent`), and telling the inbox and
// the reminder job whether contact about a record is still allowed.
import { nowIso } from '../../db/index';
import { normalizePhone, parseEmail } from '../../lib/form/index';
import { CONSENT_TEXTS, consentVersion, type ConsentPurpose, REVOCATION_MARK } from './consent';
import type { Transactional } from '../../db/transactional';
import type { AuditRepository } from '../audit/audit.repository';
import type { ConsentContact, ConsentRepository, ConsentSubject } from './consent.repository';

export type ContactLookup = { ok: true; contact: ConsentContact; label: string } | { ok: false; error: string };

/** An e-mail address or a Brazilian phone, typed by staff (or by the person). */
export function parseContact(raw: unknown): ContactLookup {
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (!text) return { ok: false, error: 'Informe o e-mail ou o telefone (WhatsApp) da pessoa.' };
  if (text.length > 254) return { ok: false, error: 'Informe um e-mail ou telefone válido.' };
  if (text.includes('@')) {
    const email = parseEmail(text, { lowerCase: true });
    return email.ok
      ? { ok: true, contact: { email: email.value }, label: email.value }
      : { ok: false, error: 'Informe um e-mail válido, por exemplo nome@exemplo.com.br.' };
  }
  const telefone = normalizePhone(text);
  return telefone
    ? { ok: true, contact: { telefone }, label: telefone }
    : { ok: false, error: 'Informe um e-mail ou um telefone brasileiro com DDD, por exemplo (11) 98765-4321.' };
}

/**
 * Revokes, in the caller's transaction, every consent of the e-mail and of each phone; a
 * contact with no consent row gets a revocation row of its own (REVOCATION_MARK), so its
 * records from before consents were kept stop being contacted too. Writes the audit row
 * (how many, by whom; never the contact) and returns how many consents were revoked.
 */
export async function revokeWithin(
  tx: { consents: ConsentRepository; audit: AuditRepository },
  contact: { email: string | null; telefones: string[] },
  by: { by: number | null; at: string; requestId?: number | null },
): Promise<number> {
  const contacts: ConsentContact[] = [
    ...(contact.email ? [{ email: contact.email }] : []),
    ...[...new Set(contact.telefones)].map((telefone) => ({ telefone })),
  ];
  let revoked = 0;
  let marked = 0;
  for (const c of contacts) {
    revoked += await tx.consents.revoke(c, by.at, by.by);
    // A contact with rows has them revoked now or already (earlier revocations stand).
    if (await tx.consents.known(c)) continue;
    await tx.consents.markRevocation(c, by.at, by.by, by.requestId ?? null);
    marked++;
  }
  if (revoked || marked) {
    await tx.audit.record(
      {
        usuarioId: by.by,
        acao: 'revogar',
        entidade: 'consentimento',
        entidadeId: by.requestId ?? null,
        depois: { revogados: revoked, sem_consentimento: marked, pedido_por: by.by === null ? 'titular' : 'equipe' },
      },
      by.at,
    );
  }
  return revoked;
}

export function createConsentService(repos: Transactional<{ consents: ConsentRepository; audit: AuditRepository }>) {
  const repo = repos.consents;
  return {
    /** The person's consents, each with the text of the version accepted. */
    async lookup(contact: ConsentContact) {
      const rows = await repo.listOf(contact);
      return rows.map((r) => {
        const purpose = CONSENT_TEXTS[r.finalidade as ConsentPurpose];
        const mark = r.finalidade === REVOCATION_MARK ? 'Revogação sem consentimento registrado' : null;
        return {
          ...r,
          finalidade_nome: purpose?.nome ?? mark ?? r.finalidade,
          texto: purpose ? (consentVersion(r.finalidade as ConsentPurpose, r.versao)?.texto ?? null) : null,
        };
      });
    },

    /**
     * Revokes every consent given with this e-mail or phone (`by`: the staff account, or
     * null when the person does it). From then on the inbox sends no e-mail reply about
     * their messages and the trial class gets no reminder. Returns how many were revoked.
     * The audit row says how many and by whom, never the contact.
     */
    async revoke(contact: ConsentContact, by: number | null = null, now: Date = new Date()): Promise<number> {
      const email = contact.email ? contact.email.trim().toLowerCase() : null;
      const telefone = contact.telefone ? (normalizePhone(contact.telefone) ?? contact.telefone) : null;
      return repos.transaction((tx) =>
        revokeWithin(tx, { email, telefones: telefone ? [telefone] : [] }, { by, at: nowIso(now) }),
      );
    },

    /** When contact about this record was revoked, or null when it was not. */
    revocationFor(subject: ConsentSubject): Promise<string | null> {
      return repo.revocationFor(subject);
    },
  };
}
export type ConsentService = ReturnType<typeof createConsentService>;

// Consent rules: finding a person's consents by e-mail or phone, revoking them (from the
// staff screen, or from "Meus dados" through `revokeConsent`), and telling the inbox and
// the reminder job whether contact about a record is still allowed.
import { nowIso } from '../../db/index';
import { normalizePhone, parseEmail } from '../../lib/form/index';
import { CONSENT_TEXTS, consentVersion, type ConsentPurpose } from './consent';
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

export function createConsentService(repos: Transactional<{ consents: ConsentRepository; audit: AuditRepository }>) {
  const repo = repos.consents;
  return {
    /** The person's consents, each with the text of the version accepted. */
    async lookup(contact: ConsentContact) {
      const rows = await repo.listOf(contact);
      return rows.map((r) => {
        const purpose = CONSENT_TEXTS[r.finalidade as ConsentPurpose];
        return {
          ...r,
          finalidade_nome: purpose?.nome ?? r.finalidade,
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
      const at = nowIso(now);
      return repos.transaction(async (tx) => {
        const revoked = await tx.consents.revoke({ email, telefone }, at, by);
        if (revoked) {
          await tx.audit.record(
            {
              usuarioId: by,
              acao: 'revogar',
              entidade: 'consentimento',
              entidadeId: null,
              depois: { revogados: revoked, pedido_por: by === null ? 'titular' : 'equipe' },
            },
            at,
          );
        }
        return revoked;
      });
    },

    /** When contact about this record was revoked, or null when it was not. */
    revocationFor(subject: ConsentSubject): Promise<string | null> {
      return repo.revocationFor(subject);
    },
  };
}
export type ConsentService = ReturnType<typeof createConsentService>;

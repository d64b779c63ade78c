// How the sender of a free message may be answered: the three contact fields, read and
// checked in this one place (so they can move to the shared form kit as a unit).
import { cleanText } from '../../../lib/text';
import { normalizePhone as normalizeBrazilianPhone, parseEmail } from '../../../lib/form/index';

export const EMAIL_MAX = 254;
export const PHONE_MAX = 30;

export interface ContactValues {
  contato_email: string;
  contato_telefone: string;
  /** "sim" when the box is ticked */
  aceite_contato: string;
}

export interface Contact {
  email: string | null;
  /** +55… */
  telefone: string | null;
  aceite: boolean;
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');

export function readContactFields(fields: Record<string, unknown>): ContactValues {
  return {
    contato_email: str(fields.contato_email),
    contato_telefone: str(fields.contato_telefone),
    aceite_contato: str(fields.aceite_contato),
  };
}

/** The contact, or a pt-BR message per field. Agreement is required only with a contact. */
export function checkContact(values: ContactValues): { contact: Contact; errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  const email = cleanText(values.contato_email).toLowerCase();
  const rawPhone = cleanText(values.contato_telefone);
  let telefone: string | null = null;
  if (email !== '' && (email.length > EMAIL_MAX || !parseEmail(email).ok)) {
    errors.contato_email = 'Informe um e-mail válido, por exemplo nome@exemplo.com.br.';
  }
  if (rawPhone !== '') {
    telefone = rawPhone.length <= PHONE_MAX ? normalizeBrazilianPhone(rawPhone) : null;
    if (!telefone) errors.contato_telefone = 'Informe um telefone brasileiro com DDD, por exemplo (11) 98765-4321.';
  }
  const aceite = ['sim', '1', 'on', 'true'].includes(values.aceite_contato.trim().toLowerCase());
  if ((email !== '' || rawPhone !== '') && !aceite) {
    errors.aceite_contato = 'Para deixar um contato, marque que aceita ser contatado pela equipe.';
  }
  return { contact: { email: email || null, telefone, aceite: aceite && (email !== '' || rawPhone !== '') }, errors };
}

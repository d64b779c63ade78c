// What a form with a consent checkbox shows under it: the version of the text (proof of
// what was accepted) in a hidden field and in words, with the link to the privacy notice.
import { CONSENT_VERSION_FIELD, consentLabel, currentConsent, type ConsentPurpose } from './consent';

/** The current wording of a purpose's checkbox (its label on the form). */
export const consentText = (purpose: ConsentPurpose): string => currentConsent(purpose).texto;

export function ConsentVersionNote({ purpose }: { purpose: ConsentPurpose }) {
  const v = currentConsent(purpose);
  return (
    <>
      <input type="hidden" name={CONSENT_VERSION_FIELD} value={String(v.versao)} />
      <span class="consent-version">
        Texto da autorização: {consentLabel(v)}. Você pode revogá-la quando quiser (veja a{' '}
        <a href="/privacidade#consentimento">política de privacidade</a>).
      </span>
    </>
  );
}

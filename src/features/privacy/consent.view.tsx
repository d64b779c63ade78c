// What a form with a consent checkbox shows under it: the version of the text (proof of
// what was accepted) in a hidden field and in words, with the link to the privacy notice.
import type { ComponentChildren } from 'preact';
import { Checkbox } from '../../views/form';
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

/**
 * A form's consent checkbox: labelled with the purpose's current wording, checked when the form
 * comes back with `value`, and the version note under it (`children` follow the note).
 */
export function ConsentCheckbox<V extends object>(p: {
  purpose: ConsentPurpose;
  name: keyof V & string;
  value: string;
  values: V;
  error?: string;
  required?: boolean;
  describedByGroup?: boolean;
  children?: ComponentChildren;
}) {
  return (
    <>
      <Checkbox
        name={p.name}
        value={p.value}
        checked={p.values[p.name] === p.value}
        required={p.required}
        error={p.error}
        describedByGroup={p.describedByGroup}
      >
        {consentText(p.purpose)}
      </Checkbox>
      <p class="hint">
        <ConsentVersionNote purpose={p.purpose} />
        {p.children}
      </p>
    </>
  );
}

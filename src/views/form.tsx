// The form kit's view side: the error summary every refused form shows at its top, and a
// field with its label, hint and message (aria-invalid + aria-describedby). Pure views.
import type { ComponentChildren } from 'preact';
import { EMAIL_MAX } from '../lib/form/parsers';
import { FieldError } from './layout';

/** The id of a field's element, from its name ("respostas[3]" → "respostas-3"). */
export function fieldId(name: string, prefix = ''): string {
  return `${prefix}${name
    .replace(/\[\]$/, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/-+$/, '')}`;
}
export const errorId = (id: string) => `${id}-erro`;
export const hintId = (id: string) => `${id}-dica`;

/** aria attributes of a field: invalid when it has an error, described by its hint and error. */
export function fieldAria(id: string, error?: string, hint?: boolean | string) {
  const ids = [hint ? (typeof hint === 'string' ? hint : hintId(id)) : '', error ? errorId(id) : '']
    .filter(Boolean)
    .join(' ');
  return { 'aria-invalid': error ? ('true' as const) : undefined, 'aria-describedby': ids || undefined };
}

/** A field's message, by the field's id (the message's own id is `<id>-erro`). */
export function FieldMessage({ id, message }: { id: string; message?: string }) {
  return <FieldError id={errorId(id)} message={message} />;
}

/**
 * "Nada foi gravado" and one link per refused field, in the order given by `labels`
 * (fields without a label come last, named by their message).
 */
export function ErrorSummary(props: {
  errors: Record<string, string> | undefined;
  labels?: Record<string, string>;
  /** the element id of a field (default: fieldId(name)) */
  idFor?: (name: string) => string;
  intro?: ComponentChildren;
}) {
  const errors = props.errors ?? {};
  const keys = Object.keys(errors);
  if (!keys.length) return null;
  const labels = props.labels ?? {};
  const order = [...Object.keys(labels).filter((k) => k in errors), ...keys.filter((k) => !(k in labels))];
  const idFor = props.idFor ?? ((n: string) => fieldId(n));
  return (
    <div class="alert alert-error error-summary" role="alert" id="erros" tabIndex={-1} autofocus data-error-summary>
      <p>
        <strong>
          {props.intro ?? (
            <>
              Nada foi gravado. Revise {keys.length === 1 ? 'o campo destacado' : `os ${keys.length} campos destacados`}
              :
            </>
          )}
        </strong>
      </p>
      <ul>
        {order.map((k) => (
          <li key={k}>
            <a href={`#${idFor(k)}`}>{labels[k] ? `${labels[k]}: ${errors[k]}` : errors[k]}</a>
          </li>
        ))}
      </ul>
    </div>
  );
}

export interface TextFieldProps {
  name: string;
  label: ComponentChildren;
  value?: string;
  error?: string;
  hint?: ComponentChildren;
  /** the id of a hint outside the field that describes it too (e.g. a fieldset's) */
  describedBy?: string;
  /** input type, or "textarea" */
  type?: string;
  id?: string;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
  autocomplete?: string;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'tel' | 'url' | 'email';
  class?: string;
  children?: ComponentChildren;
}

/** The keys of a form's values that hold one text (the ones a TextField can show). */
type TextKeys<V> = { [K in keyof V]-?: V[K] extends string | undefined ? K : never }[keyof V] & string;

/**
 * Passes a form's values and errors once: `const field = bindFields(values, errors)`, then
 * `<TextField {...field('email')} label="E-mail" />` gives each field its name, value and message.
 */
export function bindFields<V extends object>(values: V, errors?: { readonly [name: string]: string | undefined }) {
  return <K extends TextKeys<V>>(name: K) => ({
    name,
    value: values[name] as string | undefined,
    error: errors?.[name],
  });
}

/** A form's fields by name, as bindFields gives them (for a helper that draws some of them). */
export type BoundFields<V extends object> = ReturnType<typeof bindFields<V>>;

/** A labelled text input (or textarea) with its hint and its message. */
export function TextField(p: TextFieldProps) {
  const id = p.id ?? fieldId(p.name);
  const aria = fieldAria(
    id,
    p.error,
    [p.hint ? hintId(id) : '', p.describedBy ?? ''].filter(Boolean).join(' ') || undefined,
  );
  return (
    <div class={p.class ?? 'field'}>
      <label for={id}>{p.label}</label>
      {p.hint ? (
        <p class="hint" id={hintId(id)}>
          {p.hint}
        </p>
      ) : null}
      {p.type === 'textarea' ? (
        <textarea id={id} name={p.name} required={p.required} maxLength={p.maxLength} {...aria}>
          {p.value ?? ''}
        </textarea>
      ) : (
        <input
          id={id}
          name={p.name}
          type={p.type ?? 'text'}
          value={p.value ?? ''}
          required={p.required}
          minLength={p.minLength}
          maxLength={p.maxLength}
          autoComplete={p.autocomplete}
          inputMode={p.inputMode}
          {...aria}
        />
      )}
      {p.children}
      <FieldMessage id={id} message={p.error} />
    </div>
  );
}

/**
 * One checkbox (a consent, an "I agree") with its message above it, so the message is read
 * before the box. Inside a fieldset that already points at the message, `describedByGroup`
 * leaves the description to the fieldset.
 */
export function Checkbox(p: {
  name: string;
  value: string;
  checked: boolean;
  error?: string;
  required?: boolean;
  describedByGroup?: boolean;
  children: ComponentChildren;
}) {
  const id = fieldId(p.name);
  const aria = fieldAria(id, p.error);
  return (
    <>
      <FieldMessage id={id} message={p.error} />
      <label class="choice">
        <input
          type="checkbox"
          id={id}
          name={p.name}
          value={p.value}
          checked={p.checked}
          required={p.required}
          aria-invalid={aria['aria-invalid']}
          aria-describedby={p.describedByGroup ? undefined : aria['aria-describedby']}
        />
        {p.children}
      </label>
    </>
  );
}

/** The CSRF token of a public POST form. */
export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="csrf_token" value={token} />;
}

/**
 * The form that asks for the e-mail address a one-time access link goes to ("Meus dados",
 * "Minha matrícula"): the token, the address (at most the kit's EMAIL_MAX) and the send button.
 */
export function EmailLinkForm(p: {
  action: string;
  csrfToken: string;
  email?: string;
  error?: string;
  button: string;
  class?: string;
  inputMode?: 'email';
}) {
  return (
    <form method="post" action={p.action} novalidate class={p.class}>
      <Csrf token={p.csrfToken} />
      <TextField
        name="email"
        type="email"
        label="E-mail"
        value={p.email}
        error={p.error}
        autocomplete="email"
        inputMode={p.inputMode}
        maxLength={EMAIL_MAX}
        required
      />
      <p>
        <button type="submit">{p.button}</button>
      </p>
    </form>
  );
}

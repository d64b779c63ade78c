// The form kit's view side: the error summary every refused form shows at its top, and a
// field with its label, hint and message (aria-invalid + aria-describedby). Pure views.
import type { ComponentChildren } from 'preact';
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

/**
 * Passes a form's values and errors once: `const field = bindFields(values, errors)`, then
 * `<TextField {...field('email')} label="E-mail" />` gives each field its name, value and message.
 */
export function bindFields(
  values: Readonly<Record<string, string | undefined>>,
  errors?: Readonly<Record<string, string | undefined>>,
) {
  return (name: string) => ({ name, value: values[name], error: errors?.[name] });
}

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

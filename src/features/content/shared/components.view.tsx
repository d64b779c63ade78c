// Shared pieces of the content screens: the staff page frame, labelled fields with their
// pt-BR error beside them (aria-invalid + aria-describedby), notices, activate buttons.
import type { ComponentChildren } from 'preact';
import { FieldError, Layout } from '../../../views/layout';
import type { FieldErrors, FormValues } from './validation';

export interface StaffProps {
  name: string;
  csrfToken: string;
  papel: 'admin' | 'gerente';
}

export interface Crumb {
  href: string;
  label: string;
}

const NOTICES: Record<string, string> = {
  criado: 'Cadastro criado.',
  salvo: 'Alterações salvas.',
  ativado: 'Ativado: volta a aparecer no site.',
  desativado: 'Desativado: não aparece mais no site. Nada foi apagado.',
  excluida: 'Excluída.',
  desativada: 'Já havia respostas: foi desativada em vez de excluída, para que as respostas antigas mantenham o sentido.',
  aula_adicionada: 'Aula adicionada à grade.',
  aula_removida: 'Aula removida da grade.',
  grade_copiada: 'Grade copiada.',
  grade_importada: 'Grade importada do arquivo.',
  senha: 'Senha redefinida. As sessões abertas da conta foram encerradas.',
};

export function StaffPage(props: {
  title: string;
  staff: StaffProps;
  crumbs?: Crumb[];
  notice?: string;
  scripts?: string[];
  children: ComponentChildren;
}) {
  const notice = props.notice ? NOTICES[props.notice] : undefined;
  return (
    <Layout title={props.title} staff={props.staff} scripts={['content-confirm.js', ...(props.scripts ?? [])]}>
      {props.crumbs?.length ? (
        <nav aria-label="Você está em" class="breadcrumbs">
          <ol>
            {props.crumbs.map((c) => (
              <li key={c.href}>
                <a href={c.href}>{c.label}</a>
              </li>
            ))}
          </ol>
        </nav>
      ) : null}
      <h1>{props.title}</h1>
      {notice ? (
        <p class="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      {props.children}
    </Layout>
  );
}

export function ErrorSummary({ errors }: { errors?: FieldErrors }) {
  if (!errors || !Object.keys(errors).length) return null;
  return (
    <div class="alert alert-error" role="alert">
      <p>
        <strong>Nada foi gravado.</strong> Corrija o que está indicado abaixo e envie de novo.
      </p>
    </div>
  );
}

export function Csrf({ token }: { token: string }) {
  return <input type="hidden" name="csrf_token" value={token} />;
}

export const str = (values: FormValues, k: string): string => {
  const v = values[k];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};
export const arr = (values: FormValues, k: string): string[] => {
  const v = values[k];
  return Array.isArray(v) ? v : v ? [v] : [];
};

interface FieldProps {
  name: string;
  label: string;
  values: FormValues;
  errors?: FieldErrors;
  /** the error key when it differs from the name */
  errorKey?: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'time' | 'number' | 'password';
  required?: boolean;
  hint?: string;
  autocomplete?: string;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'tel' | 'url' | 'email';
  maxLength?: number;
  idPrefix?: string;
}

function describedBy(id: string, hint?: string, error?: string): string | undefined {
  const ids = [hint ? `${id}-dica` : '', error ? `${id}-erro` : ''].filter(Boolean).join(' ');
  return ids || undefined;
}

export function Field({ name, label, values, errors, errorKey, type = 'text', required, hint, autocomplete, inputMode, maxLength, idPrefix = 'f' }: FieldProps) {
  const id = `${idPrefix}-${name}`;
  const error = errors?.[errorKey ?? name];
  return (
    <div class="field">
      <label for={id}>
        {label}
        {required ? null : <span class="hint"> (opcional)</span>}
      </label>
      {hint ? (
        <p class="hint" id={`${id}-dica`}>
          {hint}
        </p>
      ) : null}
      <input
        id={id}
        name={name}
        type={type}
        value={str(values, name)}
        required={required}
        autoComplete={autocomplete}
        inputMode={inputMode}
        maxLength={maxLength}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
      <FieldError id={`${id}-erro`} message={error} />
    </div>
  );
}

export function TextArea({ name, label, values, errors, hint, required, maxLength }: Omit<FieldProps, 'type'>) {
  const id = `f-${name}`;
  const error = errors?.[name];
  return (
    <div class="field">
      <label for={id}>
        {label}
        {required ? null : <span class="hint"> (opcional)</span>}
      </label>
      {hint ? (
        <p class="hint" id={`${id}-dica`}>
          {hint}
        </p>
      ) : null}
      <textarea id={id} name={name} required={required} maxLength={maxLength} aria-invalid={error ? 'true' : undefined} aria-describedby={describedBy(id, hint, error)}>
        {str(values, name)}
      </textarea>
      <FieldError id={`${id}-erro`} message={error} />
    </div>
  );
}

export function Select({
  name,
  label,
  values,
  errors,
  options,
  placeholder,
  idPrefix = 'f',
}: {
  name: string;
  label: string;
  values: FormValues;
  errors?: FieldErrors;
  options: { value: string; label: string }[];
  placeholder?: string;
  idPrefix?: string;
}) {
  const id = `${idPrefix}-${name}`;
  const error = errors?.[name];
  const current = str(values, name);
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} name={name} aria-invalid={error ? 'true' : undefined} aria-describedby={error ? `${id}-erro` : undefined}>
        {placeholder ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option value={o.value} selected={o.value === current} key={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={`${id}-erro`} message={error} />
    </div>
  );
}

export function CheckboxGroup({
  name,
  legend,
  values,
  errors,
  options,
  hint,
}: {
  name: string;
  legend: string;
  values: FormValues;
  errors?: FieldErrors;
  options: { value: string; label: string }[];
  hint?: string;
}) {
  const chosen = new Set(arr(values, name));
  const error = errors?.[name];
  const id = `f-${name}`;
  return (
    <fieldset aria-describedby={describedBy(id, hint, error)} class="checkbox-group">
      <legend>{legend}</legend>
      {hint ? (
        <p class="hint" id={`${id}-dica`}>
          {hint}
        </p>
      ) : null}
      {options.length ? null : <p class="muted">Nenhum cadastro ainda.</p>}
      {options.map((o) => (
        <label class="choice" key={o.value}>
          <input type="checkbox" name={name} value={o.value} checked={chosen.has(o.value)} />
          {o.label}
        </label>
      ))}
      <FieldError id={`${id}-erro`} message={error} />
    </fieldset>
  );
}

export function Checkbox({ name, label, values, hint }: { name: string; label: string; values: FormValues; hint?: string }) {
  return (
    <label class="choice">
      <input type="checkbox" name={name} value="1" checked={str(values, name) === '1'} />
      {label}
      {hint ? <span class="hint"> {hint}</span> : null}
    </label>
  );
}

export function ActiveBadge({ ativo }: { ativo: number }) {
  return ativo ? <span class="badge open">Ativo</span> : <span class="badge closed">Inativo</span>;
}

/** Activate/deactivate as a small POST form (CSRF protected). */
export function ToggleActive({ action, ativo, csrfToken, label }: { action: string; ativo: number; csrfToken: string; label: string }) {
  return (
    <form method="post" action={action} class="inline" data-confirmar={ativo ? `Desativar ${label}? Deixa de aparecer no site; nada é apagado.` : undefined}>
      <Csrf token={csrfToken} />
      <input type="hidden" name="ativo" value={ativo ? '0' : '1'} />
      <button type="submit" class={ativo ? 'secondary' : ''}>
        {ativo ? 'Desativar' : 'Ativar'}
        <span class="visually-hidden"> {label}</span>
      </button>
    </form>
  );
}

/** A horizontally scrollable table region, reachable by keyboard (axe: scrollable-region-focusable). */
export function TableWrap({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  );
}

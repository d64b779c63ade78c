// The staff screens' page frame and fields (content, accounts, privacy, webhooks, trial-class
// capacity): labelled fields with their pt-BR error beside them (aria-invalid + aria-describedby),
// notices, the POST forms (CSRF token, error summary, submit button), activate buttons and the
// form page of a named record. Lists (filter, tables, pages) are in list.view.tsx.
import { Csrf, errorId, ErrorSummary as KitErrorSummary, fieldAria, hintId } from '../views/form';
import type { ComponentChildren } from 'preact';
import { FieldError, Layout } from '../views/layout';
import type { FieldErrors, FormValues } from './validation';
import { compareText } from '../lib/text';

export interface StaffProps {
  name: string;
  csrfToken: string;
  papel: 'admin' | 'gerente';
}

/** A unit as a units field lists it (accounts, plans, areas, modalities). */
export type UnitChoice = { id: number; nome: string; cidade: string; uf: string; ativo: number };
/** The options of a units checkbox group: name and city, inactive ones said so, grouped by city. */
const unitOptions = (units: UnitChoice[]) =>
  units.map((u) => ({
    value: String(u.id),
    label: `${u.nome} (${u.cidade})${u.ativo ? '' : ' · inativa'}`,
    group: `${u.cidade}/${u.uf}`,
  }));

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
  desativada:
    'Já havia respostas: foi desativada em vez de excluída, para que as respostas antigas mantenham o sentido.',
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
  /** the page's own notices by key, instead of the content screens' */
  notices?: Record<string, string>;
  scripts?: string[];
  children: ComponentChildren;
}) {
  const notice = props.notice ? (props.notices ?? NOTICES)[props.notice] : undefined;
  return (
    <Layout
      title={props.title}
      staff={props.staff}
      scripts={['content-confirm.js', 'content-checklist.js', ...(props.scripts ?? [])]}
    >
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
      <StatusNotice text={notice} />
      {props.children}
    </Layout>
  );
}

/** What a save did, said once at the top of the page it leads to. */
export function StatusNotice({ text }: { text?: string }) {
  return text ? (
    <p class="alert alert-ok" role="status">
      {text}
    </p>
  ) : null;
}

/** The form kit's summary: one link per refused field (fields are `f-<name>` here). */
export function StaffErrorSummary({ errors }: { errors?: FieldErrors }) {
  return (
    <KitErrorSummary
      errors={errors}
      idFor={(k) => `f-${k}`}
      intro="Nada foi gravado. Corrija o que está indicado abaixo e envie de novo:"
    />
  );
}

/** The CSRF token of a staff form: the same field as the public forms'. */
export { Csrf };

export const str = (values: FormValues, k: string): string => {
  const v = values[k];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};
export const arr = (values: FormValues, k: string): string[] => {
  const v = values[k];
  return Array.isArray(v) ? v : v ? [v] : [];
};

/**
 * Passes a staff form's values and errors once: `const field = bindStaffFields(values, errors)`,
 * then `<Field {...field('nome')} label="Nome" required />`. `idPrefix` keeps ids apart when
 * one page has several forms with the same field names.
 */
export function bindStaffFields(values: FormValues, errors?: FieldErrors, idPrefix?: string) {
  return (name: string) => ({ name, values, errors, idPrefix });
}

/** What bindStaffFields returns, for a block of fields shared by two forms. */
export type StaffFieldBinder = ReturnType<typeof bindStaffFields>;

interface PostFormProps {
  action: string;
  csrfToken: string;
  class?: string;
  enctype?: string;
  /** the question content-confirm.js asks before sending */
  confirm?: string;
  /** forms with fields: the server checks them and answers in pt-BR */
  novalidate?: boolean;
  children?: ComponentChildren;
}

/**
 * A POST form with its CSRF token. Attributes come in one order (class, enctype, confirm,
 * novalidate) so every staff form renders alike.
 */
export function PostForm(p: PostFormProps) {
  return (
    <form
      method="post"
      action={p.action}
      class={p.class}
      enctype={p.enctype}
      data-confirmar={p.confirm}
      novalidate={p.novalidate}
    >
      <Csrf token={p.csrfToken} />
      {p.children}
    </form>
  );
}

/**
 * A staff form with fields (novalidate unless said otherwise): the summary of what was refused
 * above it, then the fields and the submit button (`after` follows it, e.g. a "Cancelar" link).
 */
export function StaffForm({
  errors,
  submit,
  submitClass,
  after,
  children,
  ...form
}: PostFormProps & {
  errors?: FieldErrors;
  submit: ComponentChildren;
  submitClass?: string;
  after?: ComponentChildren;
}) {
  return (
    <>
      <StaffErrorSummary errors={errors} />
      <PostForm {...form} novalidate={form.novalidate ?? true}>
        {children}
        <p>
          <button type="submit" class={submitClass}>
            {submit}
          </button>
          {after ? <> {after}</> : null}
        </p>
      </PostForm>
    </>
  );
}

/**
 * A one-button POST form in a line of text (remove, resend, activate): the button names
 * what it acts on for screen readers (`hidden`), since "Remover" alone is ambiguous in a table.
 */
export function ButtonForm(p: {
  action: string;
  csrfToken: string;
  /** the button's text */
  label: string;
  hidden?: string;
  buttonClass?: string;
  confirm?: string;
  children?: ComponentChildren;
}) {
  return (
    <PostForm action={p.action} csrfToken={p.csrfToken} class="inline" confirm={p.confirm}>
      {p.children}
      <button type="submit" class={p.buttonClass}>
        {p.label}
        {p.hidden ? <span class="visually-hidden"> {p.hidden}</span> : null}
      </button>
    </PostForm>
  );
}

interface FieldProps {
  name: string;
  label: string;
  values: FormValues;
  errors?: FieldErrors;
  /** the error key when it differs from the name */
  errorKey?: string;
  type?: 'text' | 'email' | 'tel' | 'url' | 'time' | 'date' | 'number' | 'password';
  required?: boolean;
  hint?: string;
  autocomplete?: string;
  inputMode?: 'text' | 'decimal' | 'numeric' | 'tel' | 'url' | 'email';
  maxLength?: number;
  idPrefix?: string;
}

/** Label (with "(opcional)"), hint, the control and its message: the frame of Field and TextArea. */
function FieldFrame({
  id,
  label,
  required,
  hint,
  error,
  children,
}: {
  id: string;
  label: string;
  required?: boolean;
  hint?: string;
  error?: string;
  children: ComponentChildren;
}) {
  return (
    <div class="field">
      <label for={id}>
        {label}
        {required ? null : <span class="hint"> (opcional)</span>}
      </label>
      {hint ? (
        <p class="hint" id={hintId(id)}>
          {hint}
        </p>
      ) : null}
      {children}
      <FieldError id={errorId(id)} message={error} />
    </div>
  );
}

export function Field({
  name,
  label,
  values,
  errors,
  errorKey,
  type = 'text',
  required,
  hint,
  autocomplete,
  inputMode,
  maxLength,
  idPrefix = 'f',
}: FieldProps) {
  const id = `${idPrefix}-${name}`;
  const error = errors?.[errorKey ?? name];
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error}>
      <input
        id={id}
        name={name}
        type={type}
        value={str(values, name)}
        required={required}
        autoComplete={autocomplete}
        inputMode={inputMode}
        maxLength={maxLength}
        {...fieldAria(id, error, !!hint)}
      />
    </FieldFrame>
  );
}

export function TextArea({
  name,
  label,
  values,
  errors,
  hint,
  required,
  maxLength,
  idPrefix = 'f',
}: Omit<FieldProps, 'type'>) {
  const id = `${idPrefix}-${name}`;
  const error = errors?.[name];
  return (
    <FieldFrame id={id} label={label} required={required} hint={hint} error={error}>
      <textarea id={id} name={name} required={required} maxLength={maxLength} {...fieldAria(id, error, !!hint)}>
        {str(values, name)}
      </textarea>
    </FieldFrame>
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
      <select id={id} name={name} {...fieldAria(id, error)}>
        {placeholder ? <option value="">{placeholder}</option> : null}
        {options.map((o) => (
          <option value={o.value} selected={o.value === current} key={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <FieldError id={errorId(id)} message={error} />
    </div>
  );
}

/** Above this many options, a group with `group` keys is shown as one collapsible block per group. */
const GROUPED_FROM = 13;

export interface CheckboxOption {
  value: string;
  label: string;
  /** e.g. the unit's city: long lists are shown one collapsible block per group */
  group?: string;
}

/**
 * A group of checkboxes. At chain scale (hundreds of units, thousands of plans) options
 * with a `group` come in one <details> per group (a city, a billing period), open when
 * something in it is ticked, with the count ticked: usable without JavaScript, and
 * content-checklist.js adds a filter box. Closed blocks still submit their boxes.
 */
interface CheckboxGroupProps {
  name: string;
  legend: string;
  values: FormValues;
  errors?: FieldErrors;
  options: CheckboxOption[];
  hint?: string;
  /** the count's word, agreeing with the options' noun ("unidades… marcadas", "planos… marcados") */
  ticked?: string;
}

export function CheckboxGroup({
  name,
  legend,
  values,
  errors,
  options,
  hint,
  ticked: tickedWord = 'marcadas',
}: CheckboxGroupProps) {
  const chosen = new Set(arr(values, name));
  const error = errors?.[name];
  const id = `f-${name}`;
  const box = (o: CheckboxOption) => (
    <label class="choice" key={o.value}>
      <input type="checkbox" name={name} value={o.value} checked={chosen.has(o.value)} />
      {o.label}
    </label>
  );
  const grouped = options.length >= GROUPED_FROM && options.every((o) => o.group);
  const groups = new Map<string, CheckboxOption[]>();
  if (grouped) for (const o of options) groups.set(o.group!, [...(groups.get(o.group!) ?? []), o]);
  const ticked = options.filter((o) => chosen.has(o.value)).length;
  return (
    <fieldset
      id={id}
      tabIndex={-1}
      aria-describedby={fieldAria(id, error, !!hint)['aria-describedby']}
      class={grouped ? 'checkbox-group checklist' : 'checkbox-group'}
      data-checklist={grouped ? '' : undefined}
    >
      <legend>{legend}</legend>
      {hint ? (
        <p class="hint" id={hintId(id)}>
          {hint}
        </p>
      ) : null}
      {options.length ? null : <p class="muted">Nenhum cadastro ainda.</p>}
      {grouped ? (
        <>
          <p class="muted">
            {ticked} de {options.length} {tickedWord}
          </p>
          {[...groups.keys()].sort(compareText).map((g) => {
            const items = groups.get(g)!;
            const on = items.filter((o) => chosen.has(o.value)).length;
            return (
              <details key={g} open={on > 0}>
                <summary>
                  {g}{' '}
                  <span class="muted">
                    ({on} de {items.length})
                  </span>
                </summary>
                {items.map(box)}
              </details>
            );
          })}
        </>
      ) : (
        options.map(box)
      )}
      <FieldError id={errorId(id)} message={error} />
    </fieldset>
  );
}

/** The `unidades` checkbox group of a form that links something to units. */
export function UnitsCheckboxes({
  units,
  ...group
}: Omit<CheckboxGroupProps, 'name' | 'options'> & { units: UnitChoice[] }) {
  return <CheckboxGroup name="unidades" {...group} options={unitOptions(units)} />;
}

export function StaffCheckbox({
  name,
  label,
  values,
  hint,
}: {
  name: string;
  label: string;
  values: FormValues;
  hint?: string;
}) {
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
export function ToggleActive({
  action,
  ativo,
  csrfToken,
  label,
}: {
  action: string;
  ativo: number;
  csrfToken: string;
  label: string;
}) {
  return (
    <ButtonForm
      action={action}
      csrfToken={csrfToken}
      label={ativo ? 'Desativar' : 'Ativar'}
      hidden={label}
      buttonClass={ativo ? 'secondary' : ''}
      confirm={ativo ? `Desativar ${label}? Deixa de aparecer no site; nada é apagado.` : undefined}
    >
      <input type="hidden" name="ativo" value={ativo ? '0' : '1'} />
    </ButtonForm>
  );
}

/** The line above an existing record's form: its state and the button that flips it. */
export function ActiveLine(p: { action: string; ativo: number; csrfToken: string; label: string }) {
  return (
    <p class="actions">
      <ActiveBadge ativo={p.ativo} /> <ToggleActive {...p} />
    </p>
  );
}

/**
 * The form page of a record with a name and an active flag (a unit, a plan, an area): "Novo …"
 * or "Editar <nome>" with its activation line, posting to `newPath` or `${path}/<id>`.
 */
export function RecordFormPage(p: {
  staff: StaffProps;
  record: { id: number; nome: string; ativo: number } | null;
  path: string;
  newPath: string;
  newTitle: string;
  createLabel: string;
  crumbs: Crumb[];
  notice?: string;
  errors?: FieldErrors;
  /** above the form, instead of the activation line (a unit's links) */
  head?: ComponentChildren;
  /** below the form (a unit's prices) */
  after?: ComponentChildren;
  children: ComponentChildren;
}) {
  const { staff, record } = p;
  const activeLine = record ? (
    <ActiveLine
      action={`${p.path}/${record.id}/ativo`}
      ativo={record.ativo}
      csrfToken={staff.csrfToken}
      label={record.nome}
    />
  ) : null;
  return (
    <StaffPage title={record ? `Editar ${record.nome}` : p.newTitle} staff={staff} crumbs={p.crumbs} notice={p.notice}>
      {p.head ?? activeLine}
      <StaffForm
        action={record ? `${p.path}/${record.id}` : p.newPath}
        csrfToken={staff.csrfToken}
        errors={p.errors}
        submit={record ? 'Salvar alterações' : p.createLabel}
      >
        {p.children}
      </StaffForm>
      {p.after}
    </StaffPage>
  );
}

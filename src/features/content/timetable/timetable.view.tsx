// A unit's timetable: the week, add/edit/remove a class, copy another unit's week, and the
// CSV upload with its preview.
import { WEEKDAYS } from '../../../lib/time';
import { compareText } from '../../../lib/text';
import { fieldAria, FieldMessage } from '../../../views/form';
import {
  bindStaffFields,
  ButtonForm,
  type Crumb,
  Field,
  PostForm,
  Select,
  StaffForm,
  StaffPage,
  type StaffProps,
} from '../../../staff/form.view';
import { ColumnTable, type Column, DataTable } from '../../../staff/list.view';
import { CSV_COLUMNS } from './timetable-csv';
import type { CsvRowCheck } from './timetable.service';
import type { FieldErrors, FormValues } from '../../../staff/validation';
import type { ClassRow } from '../../../db/types';

interface UnitRef {
  id: number;
  nome: string;
}
type Modality = { id: number; nome: string; ativo: number };
type CopySource = { id: number; nome: string; cidade: string; uf: string };

/** "Copiar de": hundreds of units, one <optgroup> per city (type-ahead still finds a name). */
function CopySourceSelect({ sources, errors }: { sources: CopySource[]; errors?: FieldErrors }) {
  const id = 'copiar-origem_id';
  const error = errors?.origem_id;
  const byCity = new Map<string, CopySource[]>();
  for (const u of sources) {
    const city = `${u.cidade}/${u.uf}`;
    byCity.set(city, [...(byCity.get(city) ?? []), u]);
  }
  return (
    <div class="field">
      <label for={id}>Copiar de</label>
      <select id={id} name="origem_id" {...fieldAria(id, error)}>
        <option value="">Escolha a unidade</option>
        {[...byCity.keys()].sort(compareText).map((city) => (
          <optgroup label={city} key={city}>
            {byCity.get(city)!.map((u) => (
              <option value={String(u.id)} key={u.id}>
                {u.nome} ({u.cidade})
              </option>
            ))}
          </optgroup>
        ))}
      </select>
      <FieldMessage id={id} message={error} />
    </div>
  );
}

function crumbs(staff: StaffProps, unit: UnitRef): Crumb[] {
  const base = [{ href: '/admin/conteudo', label: 'Conteúdo' }];
  if (staff.papel !== 'admin') return base;
  return [
    ...base,
    { href: '/admin/conteudo/unidades', label: 'Unidades' },
    { href: `/admin/conteudo/unidades/${unit.id}`, label: unit.nome },
  ];
}

const dayOptions = WEEKDAYS.map((d, i) => ({ value: String(i), label: d }));

export function ClassFields({
  values,
  errors,
  modalities,
  idPrefix,
}: {
  values: FormValues;
  errors?: FieldErrors;
  modalities: Modality[];
  idPrefix: string;
}) {
  const field = bindStaffFields(values, errors, idPrefix);
  return (
    <>
      <Select
        {...field('modalidade_id')}
        label="Modalidade"
        placeholder="Escolha"
        options={modalities.map((m) => ({ value: String(m.id), label: m.ativo ? m.nome : `${m.nome} (inativa)` }))}
      />
      <Select {...field('dia_semana')} label="Dia da semana" placeholder="Escolha" options={dayOptions} />
      <div class="grid">
        <Field {...field('inicio')} label="Início" type="time" required />
        <Field {...field('fim')} label="Fim" type="time" required />
      </div>
      <Field {...field('professor')} label="Professor(a)" maxLength={120} />
      <Field {...field('sala')} label="Sala" maxLength={120} hint="Duas aulas na mesma sala não podem se sobrepor." />
    </>
  );
}

export interface TimetablePageProps {
  staff: StaffProps;
  unit: UnitRef;
  classes: ClassRow[];
  modalities: Modality[];
  /** units whose week can be copied here */
  sources: CopySource[];
  values: FormValues;
  errors?: FieldErrors;
  copyErrors?: FieldErrors;
  uploadErrors?: FieldErrors;
  notice?: string;
}

/** The week's classes, each with its edit link and remove button (named for screen readers). */
function classColumns(base: string, csrfToken: string): Column<ClassRow>[] {
  const name = (c: ClassRow) => `${c.modalidade}, ${WEEKDAYS[c.dia_semana]} ${c.inicio}`;
  return [
    ['Dia', (c) => WEEKDAYS[c.dia_semana]],
    ['Horário', (c) => `${c.inicio}–${c.fim}`],
    ['Modalidade', (c) => c.modalidade],
    ['Professor(a)', (c) => c.professor ?? '—'],
    ['Sala', (c) => c.sala ?? '—'],
    [
      'Ações',
      (c) => (
        <>
          <a href={`${base}/${c.id}`}>
            Editar<span class="visually-hidden"> {name(c)}</span>
          </a>{' '}
          <ButtonForm
            action={`${base}/${c.id}/remover`}
            csrfToken={csrfToken}
            label="Remover"
            hidden={name(c)}
            buttonClass="link-button"
            confirm={`Remover a aula ${name(c)} da grade?`}
          />
        </>
      ),
    ],
  ];
}

export function TimetablePage(p: TimetablePageProps) {
  const base = `/admin/conteudo/unidades/${p.unit.id}/aulas`;
  const activeModalities = p.modalities.filter((m) => m.ativo === 1);
  return (
    <StaffPage
      title={`Grade de aulas · ${p.unit.nome}`}
      staff={p.staff}
      crumbs={crumbs(p.staff, p.unit)}
      notice={p.notice}
    >
      <p>
        <a href={`/Detalhes.php?id=${p.unit.id}`}>Ver a página pública da unidade</a>
      </p>
      <h2>Aulas da semana</h2>
      {p.classes.length ? (
        <ColumnTable
          label="Tabela das aulas"
          caption={`Aulas da semana em ${p.unit.nome}`}
          rows={p.classes}
          columns={classColumns(base, p.staff.csrfToken)}
        />
      ) : (
        <p class="muted">Nenhuma aula cadastrada.</p>
      )}

      <section class="card" aria-labelledby="nova-aula">
        <h2 id="nova-aula">Adicionar aula</h2>
        <StaffForm action={base} csrfToken={p.staff.csrfToken} errors={p.errors} submit="Adicionar aula">
          <ClassFields values={p.values} errors={p.errors} modalities={activeModalities} idPrefix="nova" />
        </StaffForm>
      </section>

      <section class="card" aria-labelledby="copiar">
        <h2 id="copiar">Copiar a grade de outra unidade</h2>
        <p>A grade atual desta unidade é substituída pela da unidade escolhida.</p>
        <StaffForm
          action={`${base}/copiar`}
          csrfToken={p.staff.csrfToken}
          errors={p.copyErrors}
          novalidate={false}
          confirm="Substituir toda a grade desta unidade pela grade da unidade escolhida?"
          submit="Copiar grade"
          submitClass="secondary"
        >
          <CopySourceSelect sources={p.sources.filter((s) => s.id !== p.unit.id)} errors={p.copyErrors} />
        </StaffForm>
      </section>

      <section class="card" aria-labelledby="csv">
        <h2 id="csv">Importar a grade de uma planilha (CSV)</h2>
        <p>
          Colunas, nesta ordem, separadas por ponto e vírgula: <code>{CSV_COLUMNS.join(';')}</code>. O dia pode ser
          escrito por extenso (segunda, terça-feira, sábado...). Você verá uma prévia antes de aplicar; ao aplicar, a
          grade atual é substituída.
        </p>
        <StaffForm
          action={`${base}/csv`}
          csrfToken={p.staff.csrfToken}
          errors={p.uploadErrors}
          enctype="multipart/form-data"
          novalidate={false}
          submit="Ver prévia"
          submitClass="secondary"
        >
          <label for="f-arquivo">Arquivo CSV</label>
          <input
            id="f-arquivo"
            name="arquivo"
            type="file"
            accept=".csv,text/csv"
            {...fieldAria('f-arquivo', p.uploadErrors?.arquivo)}
          />
          <FieldMessage id="f-arquivo" message={p.uploadErrors?.arquivo} />
        </StaffForm>
      </section>
    </StaffPage>
  );
}

export function ClassEditPage(p: {
  staff: StaffProps;
  unit: UnitRef;
  classId: number;
  values: FormValues;
  errors?: FieldErrors;
  modalities: Modality[];
}) {
  const base = `/admin/conteudo/unidades/${p.unit.id}/aulas`;
  return (
    <StaffPage
      title={`Editar aula · ${p.unit.nome}`}
      staff={p.staff}
      crumbs={[...crumbs(p.staff, p.unit), { href: base, label: 'Grade de aulas' }]}
    >
      <StaffForm
        action={`${base}/${p.classId}`}
        csrfToken={p.staff.csrfToken}
        errors={p.errors}
        submit="Salvar aula"
        after={<a href={base}>Cancelar</a>}
      >
        <ClassFields values={p.values} errors={p.errors} modalities={p.modalities} idPrefix="f" />
      </StaffForm>
    </StaffPage>
  );
}

export function CsvPreviewPage(p: {
  staff: StaffProps;
  unit: UnitRef;
  rows: CsvRowCheck[];
  fileProblems: string[];
  replacing: number;
  payload: string;
}) {
  const base = `/admin/conteudo/unidades/${p.unit.id}/aulas`;
  const bad = p.rows.filter((r) => r.problems.length).length;
  const ok = !bad && !p.fileProblems.length && p.rows.length > 0;
  return (
    <StaffPage
      title={`Prévia da grade · ${p.unit.nome}`}
      staff={p.staff}
      crumbs={[...crumbs(p.staff, p.unit), { href: base, label: 'Grade de aulas' }]}
    >
      {p.fileProblems.map((m) => (
        <p class="alert alert-error" role="alert" key={m}>
          {m}
        </p>
      ))}
      {bad ? (
        <p class="alert alert-error" role="alert">
          {bad === 1 ? '1 linha tem problema' : `${bad} linhas têm problemas`}. Nada foi gravado: corrija a planilha e
          envie de novo.
        </p>
      ) : null}
      {ok ? (
        <p class="alert alert-ok" role="status">
          {p.rows.length} aulas prontas para importar. Ao aplicar, as {p.replacing} aulas atuais da unidade são
          substituídas.
        </p>
      ) : null}
      {p.rows.length ? (
        <DataTable
          label="Tabela das linhas do arquivo"
          caption="Linhas do arquivo"
          columns={['Linha', ...CSV_COLUMNS, 'Problemas']}
          rows={p.rows}
          row={(r) => (
            <tr key={r.line} class={r.problems.length ? 'row-error' : undefined}>
              <td>{r.line}</td>
              {CSV_COLUMNS.map((c) => (
                <td key={c}>{r.values[c] ?? ''}</td>
              ))}
              <td>{r.problems.length ? r.problems.join(' ') : 'OK'}</td>
            </tr>
          )}
        />
      ) : null}
      {ok ? (
        <PostForm
          action={`${base}/csv/aplicar`}
          csrfToken={p.staff.csrfToken}
          confirm={`Substituir as ${p.replacing} aulas atuais pelas ${p.rows.length} aulas do arquivo?`}
        >
          <input type="hidden" name="linhas" value={p.payload} />
          <p>
            <button type="submit">Aplicar</button> <a href={base}>Cancelar</a>
          </p>
        </PostForm>
      ) : (
        <p>
          <a href={base}>Voltar para a grade</a>
        </p>
      )}
    </StaffPage>
  );
}

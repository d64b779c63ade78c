// A unit's timetable: the week, add/edit/remove a class, copy another unit's week, and the
// CSV upload with its preview.
import { WEEKDAYS } from '../../../lib/time';
import { compareText } from '../../../lib/text';
import { errorId, fieldAria } from '../../../views/form';
import { FieldError } from '../../../views/layout';
import {
  Csrf,
  StaffErrorSummary,
  Field,
  Select,
  StaffPage,
  type Crumb,
  type StaffProps,
} from '../../../staff/form.view';
import { DataTable } from '../../../staff/list.view';
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
      <FieldError id={errorId(id)} message={error} />
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
  return (
    <>
      <Select
        idPrefix={idPrefix}
        name="modalidade_id"
        label="Modalidade"
        values={values}
        errors={errors}
        placeholder="Escolha"
        options={modalities.map((m) => ({ value: String(m.id), label: m.ativo ? m.nome : `${m.nome} (inativa)` }))}
      />
      <Select
        idPrefix={idPrefix}
        name="dia_semana"
        label="Dia da semana"
        values={values}
        errors={errors}
        placeholder="Escolha"
        options={dayOptions}
      />
      <div class="grid">
        <Field idPrefix={idPrefix} name="inicio" label="Início" type="time" values={values} errors={errors} required />
        <Field idPrefix={idPrefix} name="fim" label="Fim" type="time" values={values} errors={errors} required />
      </div>
      <Field
        idPrefix={idPrefix}
        name="professor"
        label="Professor(a)"
        values={values}
        errors={errors}
        maxLength={120}
      />
      <Field
        idPrefix={idPrefix}
        name="sala"
        label="Sala"
        values={values}
        errors={errors}
        maxLength={120}
        hint="Duas aulas na mesma sala não podem se sobrepor."
      />
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
        <DataTable
          label="Tabela das aulas"
          caption={<>Aulas da semana em {p.unit.nome}</>}
          columns={['Dia', 'Horário', 'Modalidade', 'Professor(a)', 'Sala', 'Ações']}
          rows={p.classes}
          row={(c) => {
            const label = `${c.modalidade}, ${WEEKDAYS[c.dia_semana]} ${c.inicio}`;
            return (
              <tr key={c.id}>
                <td>{WEEKDAYS[c.dia_semana]}</td>
                <td>
                  {c.inicio}–{c.fim}
                </td>
                <td>{c.modalidade}</td>
                <td>{c.professor ?? '—'}</td>
                <td>{c.sala ?? '—'}</td>
                <td>
                  <a href={`${base}/${c.id}`}>
                    Editar<span class="visually-hidden"> {label}</span>
                  </a>{' '}
                  <form
                    method="post"
                    action={`${base}/${c.id}/remover`}
                    class="inline"
                    data-confirmar={`Remover a aula ${label} da grade?`}
                  >
                    <Csrf token={p.staff.csrfToken} />
                    <button type="submit" class="link-button">
                      Remover<span class="visually-hidden"> {label}</span>
                    </button>
                  </form>
                </td>
              </tr>
            );
          }}
        />
      ) : (
        <p class="muted">Nenhuma aula cadastrada.</p>
      )}

      <section class="card" aria-labelledby="nova-aula">
        <h2 id="nova-aula">Adicionar aula</h2>
        <StaffErrorSummary errors={p.errors} />
        <form method="post" action={base} novalidate>
          <Csrf token={p.staff.csrfToken} />
          <ClassFields values={p.values} errors={p.errors} modalities={activeModalities} idPrefix="nova" />
          <p>
            <button type="submit">Adicionar aula</button>
          </p>
        </form>
      </section>

      <section class="card" aria-labelledby="copiar">
        <h2 id="copiar">Copiar a grade de outra unidade</h2>
        <p>A grade atual desta unidade é substituída pela da unidade escolhida.</p>
        <StaffErrorSummary errors={p.copyErrors} />
        <form
          method="post"
          action={`${base}/copiar`}
          data-confirmar="Substituir toda a grade desta unidade pela grade da unidade escolhida?"
        >
          <Csrf token={p.staff.csrfToken} />
          <CopySourceSelect sources={p.sources.filter((s) => s.id !== p.unit.id)} errors={p.copyErrors} />
          <p>
            <button type="submit" class="secondary">
              Copiar grade
            </button>
          </p>
        </form>
      </section>

      <section class="card" aria-labelledby="csv">
        <h2 id="csv">Importar a grade de uma planilha (CSV)</h2>
        <p>
          Colunas, nesta ordem, separadas por ponto e vírgula: <code>{CSV_COLUMNS.join(';')}</code>. O dia pode ser
          escrito por extenso (segunda, terça-feira, sábado...). Você verá uma prévia antes de aplicar; ao aplicar, a
          grade atual é substituída.
        </p>
        <StaffErrorSummary errors={p.uploadErrors} />
        <form method="post" action={`${base}/csv`} enctype="multipart/form-data">
          <Csrf token={p.staff.csrfToken} />
          <label for="f-arquivo">Arquivo CSV</label>
          <input
            id="f-arquivo"
            name="arquivo"
            type="file"
            accept=".csv,text/csv"
            aria-invalid={p.uploadErrors?.arquivo ? 'true' : undefined}
            aria-describedby={p.uploadErrors?.arquivo ? 'f-arquivo-erro' : undefined}
          />
          <FieldError id="f-arquivo-erro" message={p.uploadErrors?.arquivo} />
          <p>
            <button type="submit" class="secondary">
              Ver prévia
            </button>
          </p>
        </form>
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
      <StaffErrorSummary errors={p.errors} />
      <form method="post" action={`${base}/${p.classId}`} novalidate>
        <Csrf token={p.staff.csrfToken} />
        <ClassFields values={p.values} errors={p.errors} modalities={p.modalities} idPrefix="f" />
        <p>
          <button type="submit">Salvar aula</button> <a href={base}>Cancelar</a>
        </p>
      </form>
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
        <form
          method="post"
          action={`${base}/csv/aplicar`}
          data-confirmar={`Substituir as ${p.replacing} aulas atuais pelas ${p.rows.length} aulas do arquivo?`}
        >
          <Csrf token={p.staff.csrfToken} />
          <input type="hidden" name="linhas" value={p.payload} />
          <p>
            <button type="submit">Aplicar</button> <a href={base}>Cancelar</a>
          </p>
        </form>
      ) : (
        <p>
          <a href={base}>Voltar para a grade</a>
        </p>
      )}
    </StaffPage>
  );
}

// Survey questions and their options.
import {
  ActiveBadge,
  StaffCheckbox,
  Csrf,
  StaffErrorSummary,
  Field,
  Select,
  StaffPage,
  type StaffProps,
  TextArea,
  ToggleActive,
} from '../../../staff/form.view';
import { DataTable, type ListPageProps, StaffList } from '../../../staff/list.view';
import { QUESTION_TYPES, type FieldErrors, type FormValues } from '../../../staff/validation';

const CRUMBS = [
  { href: '/admin/conteudo', label: 'Conteúdo' },
  { href: '/admin/conteudo/perguntas', label: 'Pesquisa' },
];
const typeLabel = (t: string) => QUESTION_TYPES.find((q) => q.value === t)?.label ?? t;

export function QuestionsListPage({
  staff,
  questions,
  notice,
  list,
}: ListPageProps & {
  questions: {
    id: number;
    texto: string;
    tipo: string;
    obrigatoria: number;
    ordem: number;
    ativo: number;
    respostas: number;
  }[];
}) {
  return (
    <StaffPage title="Perguntas da pesquisa" staff={staff} crumbs={CRUMBS.slice(0, 1)} notice={notice}>
      <StaffList
        newHref="/admin/conteudo/perguntas/nova"
        newLabel="Nova pergunta"
        filterLabel="Filtrar perguntas pelo texto"
        list={list}
      >
        <DataTable
          label="Tabela das perguntas"
          caption="Perguntas"
          columns={['Ordem', 'Pergunta', 'Tipo', 'Obrigatória', 'Respostas', 'Situação']}
          rows={questions}
          row={(q) => (
            <tr key={q.id}>
              <td>{q.ordem}</td>
              <td>
                <a href={`/admin/conteudo/perguntas/${q.id}`}>{q.texto}</a>
              </td>
              <td>{typeLabel(q.tipo)}</td>
              <td>{q.obrigatoria ? 'Sim' : 'Não'}</td>
              <td>{q.respostas}</td>
              <td>
                <ActiveBadge ativo={q.ativo} />
              </td>
            </tr>
          )}
        />
      </StaffList>
    </StaffPage>
  );
}

export function QuestionNewPage({
  staff,
  values,
  errors,
}: {
  staff: StaffProps;
  values: FormValues;
  errors?: FieldErrors;
}) {
  return (
    <StaffPage title="Nova pergunta" staff={staff} crumbs={CRUMBS}>
      <StaffErrorSummary errors={errors} />
      <form method="post" action="/admin/conteudo/perguntas/nova" novalidate>
        <Csrf token={staff.csrfToken} />
        <Field name="texto" label="Texto da pergunta" values={values} errors={errors} required maxLength={500} />
        <Select
          name="tipo"
          label="Tipo"
          values={values}
          errors={errors}
          placeholder="Escolha"
          options={QUESTION_TYPES.map((t) => ({ value: t.value, label: t.label }))}
        />
        <TextArea
          name="opcoes"
          label="Opções (para lista de opções)"
          values={values}
          errors={errors}
          hint="Uma por linha, da melhor para a pior. A escala de 0 a 10 cria as suas opções sozinha."
        />
        <Field name="ordem" label="Ordem" type="number" values={values} errors={errors} />
        <StaffCheckbox name="obrigatoria" label="Resposta obrigatória" values={values} />
        <p>
          <button type="submit">Criar pergunta</button>
        </p>
      </form>
    </StaffPage>
  );
}

export interface QuestionEditProps {
  staff: StaffProps;
  question: {
    id: number;
    texto: string;
    tipo: string;
    ativo: number;
    respostas: number;
    opcoes: { id: number; texto: string; valor: number | null; ordem: number; ativo: number; respostas: number }[];
  };
  values: FormValues;
  errors?: FieldErrors;
  optionValues: FormValues;
  optionErrors?: FieldErrors;
  /** the option whose edit failed, to show its errors next to it */
  optionEdit?: { id: number; values: FormValues; errors: FieldErrors };
  notice?: string;
}

export function QuestionEditPage(p: QuestionEditProps) {
  const q = p.question;
  const base = `/admin/conteudo/perguntas/${q.id}`;
  return (
    <StaffPage title="Editar pergunta" staff={p.staff} crumbs={CRUMBS} notice={p.notice}>
      <p class="actions">
        <ActiveBadge ativo={q.ativo} /> {typeLabel(q.tipo)} ·{' '}
        {q.respostas === 1 ? '1 resposta' : `${q.respostas} respostas`}{' '}
        <ToggleActive action={`${base}/ativo`} ativo={q.ativo} csrfToken={p.staff.csrfToken} label="a pergunta" />
      </p>
      <StaffErrorSummary errors={p.errors} />
      <form method="post" action={base} novalidate>
        <Csrf token={p.staff.csrfToken} />
        <Field name="texto" label="Texto da pergunta" values={p.values} errors={p.errors} required maxLength={500} />
        <Field name="ordem" label="Ordem" type="number" values={p.values} errors={p.errors} />
        <StaffCheckbox name="obrigatoria" label="Resposta obrigatória" values={p.values} />
        <p>
          <button type="submit">Salvar pergunta</button>
        </p>
      </form>
      <form
        method="post"
        action={`${base}/excluir`}
        data-confirmar={
          q.respostas > 0
            ? 'Desativar esta pergunta? As respostas antigas são mantidas.'
            : 'Excluir esta pergunta e as suas opções?'
        }
      >
        <Csrf token={p.staff.csrfToken} />
        <p>
          {q.respostas > 0 ? (
            <span class="hint">Esta pergunta já tem respostas: ela não pode ser excluída, só desativada. </span>
          ) : null}
          <button type="submit" class="danger">
            {q.respostas > 0 ? 'Desativar (tem respostas)' : 'Excluir pergunta'}
          </button>
        </p>
      </form>

      {q.tipo === 'texto' ? null : (
        <>
          <h2>Opções</h2>
          {q.opcoes.map((o) => {
            const edit = p.optionEdit?.id === o.id ? p.optionEdit : null;
            const values = edit?.values ?? {
              texto: o.texto,
              valor: o.valor === null ? '' : String(o.valor),
              ordem: String(o.ordem),
            };
            return (
              <div class="card option-card" key={o.id}>
                <form method="post" action={`${base}/opcoes/${o.id}`} novalidate>
                  <Csrf token={p.staff.csrfToken} />
                  <div class="grid grid-3">
                    <Field
                      idPrefix={`o${o.id}`}
                      name="texto"
                      label="Texto da opção"
                      values={values}
                      errors={edit?.errors}
                      required
                      maxLength={200}
                    />
                    <Field
                      idPrefix={`o${o.id}`}
                      name="valor"
                      label="Valor"
                      type="number"
                      values={values}
                      errors={edit?.errors}
                    />
                    <Field
                      idPrefix={`o${o.id}`}
                      name="ordem"
                      label="Ordem"
                      type="number"
                      values={values}
                      errors={edit?.errors}
                    />
                  </div>
                  <p>
                    <ActiveBadge ativo={o.ativo} /> <span class="muted">{o.respostas} respostas</span>{' '}
                    <button type="submit" class="secondary">
                      Salvar<span class="visually-hidden"> opção {o.texto}</span>
                    </button>
                  </p>
                </form>
                <ToggleActive
                  action={`${base}/opcoes/${o.id}/ativo`}
                  ativo={o.ativo}
                  csrfToken={p.staff.csrfToken}
                  label={`opção ${o.texto}`}
                />{' '}
                {q.tipo === 'opcoes' ? (
                  <form
                    method="post"
                    action={`${base}/opcoes/${o.id}/excluir`}
                    class="inline"
                    data-confirmar={o.respostas > 0 ? `Desativar a opção ${o.texto}?` : `Excluir a opção ${o.texto}?`}
                  >
                    <Csrf token={p.staff.csrfToken} />
                    <button type="submit" class="link-button">
                      {o.respostas > 0 ? 'Desativar' : 'Excluir'}
                      <span class="visually-hidden"> opção {o.texto}</span>
                    </button>
                  </form>
                ) : null}
              </div>
            );
          })}
          {q.tipo === 'opcoes' ? (
            <section class="card" aria-labelledby="nova-opcao">
              <h3 id="nova-opcao">Nova opção</h3>
              <StaffErrorSummary errors={p.optionErrors} />
              <form method="post" action={`${base}/opcoes`} novalidate>
                <Csrf token={p.staff.csrfToken} />
                <Field
                  idPrefix="nova"
                  name="texto"
                  label="Texto da opção"
                  values={p.optionValues}
                  errors={p.optionErrors}
                  required
                  maxLength={200}
                />
                <Field
                  idPrefix="nova"
                  name="valor"
                  label="Valor"
                  type="number"
                  values={p.optionValues}
                  errors={p.optionErrors}
                  hint="Pontuação da opção (maior = melhor)."
                />
                <Field
                  idPrefix="nova"
                  name="ordem"
                  label="Ordem"
                  type="number"
                  values={p.optionValues}
                  errors={p.optionErrors}
                />
                <p>
                  <button type="submit">Adicionar opção</button>
                </p>
              </form>
            </section>
          ) : null}
        </>
      )}
    </StaffPage>
  );
}

// Survey questions and their options.
import type { ComponentChildren } from 'preact';
import {
  ActiveBadge,
  bindStaffFields,
  ButtonForm,
  Field,
  PostForm,
  Select,
  StaffCheckbox,
  type StaffFieldBinder,
  StaffForm,
  StaffPage,
  type StaffProps,
  TextArea,
  ToggleActive,
} from '../../../staff/form.view';
import { ColumnTable, type Column, type ListPageProps, StaffListPage } from '../../../staff/list.view';
import { QUESTION_TYPES, type FieldErrors, type FormValues } from '../../../staff/validation';

const CRUMBS = [
  { href: '/admin/conteudo', label: 'Conteúdo' },
  { href: '/admin/conteudo/perguntas', label: 'Pesquisa' },
];
const typeLabel = (t: string) => QUESTION_TYPES.find((q) => q.value === t)?.label ?? t;

type QuestionRow = {
  id: number;
  texto: string;
  tipo: string;
  obrigatoria: number;
  ordem: number;
  ativo: number;
  respostas: number;
};
const QUESTION_COLUMNS: Column<QuestionRow>[] = [
  ['Ordem', (q) => q.ordem],
  ['Pergunta', (q) => <a href={`/admin/conteudo/perguntas/${q.id}`}>{q.texto}</a>],
  ['Tipo', (q) => typeLabel(q.tipo)],
  ['Obrigatória', (q) => (q.obrigatoria ? 'Sim' : 'Não')],
  ['Respostas', (q) => q.respostas],
  ['Situação', (q) => <ActiveBadge ativo={q.ativo} />],
];

export function QuestionsListPage({ questions, ...page }: ListPageProps & { questions: QuestionRow[] }) {
  return (
    <StaffListPage
      {...page}
      title="Perguntas da pesquisa"
      crumbs={CRUMBS.slice(0, 1)}
      newHref="/admin/conteudo/perguntas/nova"
      newLabel="Nova pergunta"
      filterLabel="Filtrar perguntas pelo texto"
    >
      <ColumnTable label="Tabela das perguntas" caption="Perguntas" rows={questions} columns={QUESTION_COLUMNS} />
    </StaffListPage>
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
  const field = bindStaffFields(values, errors);
  return (
    <StaffPage title="Nova pergunta" staff={staff} crumbs={CRUMBS}>
      <StaffForm
        action="/admin/conteudo/perguntas/nova"
        csrfToken={staff.csrfToken}
        errors={errors}
        submit="Criar pergunta"
      >
        <QuestionFields field={field} values={values}>
          <Select
            {...field('tipo')}
            label="Tipo"
            placeholder="Escolha"
            options={QUESTION_TYPES.map((t) => ({ value: t.value, label: t.label }))}
          />
          <TextArea
            {...field('opcoes')}
            label="Opções (para lista de opções)"
            hint="Uma por linha, da melhor para a pior. A escala de 0 a 10 cria as suas opções sozinha."
          />
        </QuestionFields>
      </StaffForm>
    </StaffPage>
  );
}

/** A question's text, order and "required" box; the type and options, only when creating, go between. */
function QuestionFields(p: { field: StaffFieldBinder; values: FormValues; children?: ComponentChildren }) {
  return (
    <>
      <Field {...p.field('texto')} label="Texto da pergunta" required maxLength={500} />
      {p.children}
      <Field {...p.field('ordem')} label="Ordem" type="number" />
      <StaffCheckbox name="obrigatoria" label="Resposta obrigatória" values={p.values} />
    </>
  );
}

/** An option's text, score and order (`scoreHint` explains the score on the "new option" form). */
function OptionFields({ field, scoreHint }: { field: StaffFieldBinder; scoreHint?: string }) {
  return (
    <>
      <Field {...field('texto')} label="Texto da opção" required maxLength={200} />
      <Field {...field('valor')} label="Valor" type="number" hint={scoreHint} />
      <Field {...field('ordem')} label="Ordem" type="number" />
    </>
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
      <StaffForm action={base} csrfToken={p.staff.csrfToken} errors={p.errors} submit="Salvar pergunta">
        <QuestionFields field={bindStaffFields(p.values, p.errors)} values={p.values} />
      </StaffForm>
      <PostForm
        action={`${base}/excluir`}
        csrfToken={p.staff.csrfToken}
        confirm={
          q.respostas > 0
            ? 'Desativar esta pergunta? As respostas antigas são mantidas.'
            : 'Excluir esta pergunta e as suas opções?'
        }
      >
        <p>
          {q.respostas > 0 ? (
            <span class="hint">Esta pergunta já tem respostas: ela não pode ser excluída, só desativada. </span>
          ) : null}
          <button type="submit" class="danger">
            {q.respostas > 0 ? 'Desativar (tem respostas)' : 'Excluir pergunta'}
          </button>
        </p>
      </PostForm>

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
                <PostForm action={`${base}/opcoes/${o.id}`} csrfToken={p.staff.csrfToken} novalidate>
                  <div class="grid grid-3">
                    <OptionFields field={bindStaffFields(values, edit?.errors, `o${o.id}`)} />
                  </div>
                  <p>
                    <ActiveBadge ativo={o.ativo} /> <span class="muted">{o.respostas} respostas</span>{' '}
                    <button type="submit" class="secondary">
                      Salvar<span class="visually-hidden"> opção {o.texto}</span>
                    </button>
                  </p>
                </PostForm>
                <ToggleActive
                  action={`${base}/opcoes/${o.id}/ativo`}
                  ativo={o.ativo}
                  csrfToken={p.staff.csrfToken}
                  label={`opção ${o.texto}`}
                />{' '}
                {q.tipo === 'opcoes' ? (
                  <ButtonForm
                    action={`${base}/opcoes/${o.id}/excluir`}
                    csrfToken={p.staff.csrfToken}
                    label={o.respostas > 0 ? 'Desativar' : 'Excluir'}
                    hidden={`opção ${o.texto}`}
                    buttonClass="link-button"
                    confirm={o.respostas > 0 ? `Desativar a opção ${o.texto}?` : `Excluir a opção ${o.texto}?`}
                  />
                ) : null}
              </div>
            );
          })}
          {q.tipo === 'opcoes' ? (
            <section class="card" aria-labelledby="nova-opcao">
              <h3 id="nova-opcao">Nova opção</h3>
              <StaffForm
                action={`${base}/opcoes`}
                csrfToken={p.staff.csrfToken}
                errors={p.optionErrors}
                submit="Adicionar opção"
              >
                <OptionFields
                  field={bindStaffFields(p.optionValues, p.optionErrors, 'nova')}
                  scoreHint="Pontuação da opção (maior = melhor)."
                />
              </StaffForm>
            </section>
          ) : null}
        </>
      )}
    </StaffPage>
  );
}

import type { ComponentChildren } from 'preact';
import { FieldError, Layout, siteName } from '../../../views/layout';
import { bindFields, ErrorSummary, errorId, fieldId, TextField } from '../../../views/form';
import { SubmitAndPrivacy } from '../parts.view';
import { ENVIO_FIELD, newEnvioId } from '../../../lib/form/index';
import type { SurveyQuestion, UnitRef } from './survey.repository';
import type { SurveyErrors, SurveyValues } from './survey.service';
import { LIMITS } from './survey.service';

export const SURVEY_PATH = '/NPS/nps_app_php/index.php';
export const SURVEY_POST_PATH = '/NPS/nps_app_php/salvar_resposta.php';
export const THANKS_PATH = '/NPS/nps_app_php/obrigado.php';

// The form kit's ids: "respostas[3]" → field "respostas-3", its message "respostas-3-erro".
const errId = (field: string) => errorId(fieldId(field));

function describedBy(errors: SurveyErrors, field: string, hint?: string) {
  const ids = [hint, errors[field] ? errId(field) : undefined].filter(Boolean).join(' ');
  return ids || undefined;
}

export interface SurveyFormProps {
  unit: UnitRef;
  questions: SurveyQuestion[];
  values: SurveyValues;
  errors: SurveyErrors;
  csrfToken: string;
}

export function SurveyFormPage({ unit, questions, values, errors, csrfToken }: SurveyFormProps) {
  const errorCount = Object.keys(errors).length;
  // Errors about keys no question on the page shows (tampered or stale form) go on top.
  const shown = new Set<string>(['unidade_id', 'nome_cliente', 'contato_cliente', 'comentario']);
  for (const q of questions) shown.add(q.tipo === 'texto' ? `textos[${q.id}]` : `respostas[${q.id}]`);
  const labels: Record<string, string> = { unidade_id: 'Unidade' };
  for (const q of questions) labels[q.tipo === 'texto' ? `textos[${q.id}]` : `respostas[${q.id}]`] = q.texto;
  Object.assign(labels, { comentario: 'Comentário', nome_cliente: 'Seu nome', contato_cliente: 'Telefone ou e-mail' });
  const field = bindFields(values, errors);
  return (
    <Layout
      title={`Pesquisa de satisfação · ${unit.nome}`}
      description={`Conte como foi sua experiência na ${siteName()}.`}
      canonical={`${SURVEY_PATH}?unidade_id=${unit.id}`}
      scripts={['envio-fresh.js']}
    >
      <h1>Como foi sua experiência?</h1>
      <p class="muted">
        Unidade <strong>{unit.nome}</strong> ({unit.cidade}). Leva menos de um minuto.{' '}
        <a href={SURVEY_PATH}>Trocar de unidade</a>
      </p>
      <ErrorSummary
        errors={errors}
        labels={labels}
        idFor={(k) => (shown.has(k) ? fieldId(k) : 'erros')}
        intro={
          <>
            Nada foi gravado ainda. Confira{' '}
            {errorCount === 1 ? 'o campo indicado' : `os ${errorCount} campos indicados`}:
          </>
        }
      />
      <form method="post" action={SURVEY_POST_PATH} class="survey-form" noValidate={false}>
        <input type="hidden" name="_token" value={csrfToken} />
        <input type="hidden" name="unidade_id" value={String(unit.id)} />
        <input type="hidden" name={ENVIO_FIELD} value={values.envio_id || newEnvioId()} />
        {values.origem !== 'site' ? <input type="hidden" name="origem" value={values.origem} /> : null}
        {questions.map((q) =>
          q.tipo === 'texto' ? (
            <TextQuestion q={q} values={values} errors={errors} />
          ) : (
            <ChoiceQuestion q={q} values={values} errors={errors} />
          ),
        )}

        <fieldset>
          <legend>Quer deixar algo mais? (opcional)</legend>
          <TextField {...field('comentario')} label="Comentário" type="textarea" maxLength={LIMITS.comentario} />
          <TextField {...field('nome_cliente')} label="Seu nome" autocomplete="name" maxLength={LIMITS.nome_cliente} />
          <TextField
            {...field('contato_cliente')}
            label={
              <>
                Telefone ou e-mail <span class="hint">(se quiser que a unidade fale com você)</span>
              </>
            }
            autocomplete="email"
            maxLength={LIMITS.contato_cliente}
          />
        </fieldset>
        <SubmitAndPrivacy label="Enviar avaliação" />
      </form>
    </Layout>
  );
}

function Required({ on }: { on: boolean }) {
  return on ? <span class="hint"> (obrigatória)</span> : <span class="hint"> (opcional)</span>;
}

export function ChoiceQuestion({
  q,
  values,
  errors,
}: {
  q: SurveyQuestion;
  values: SurveyValues;
  errors: SurveyErrors;
}) {
  const field = `respostas[${q.id}]`;
  const chosen = values.respostas[String(q.id)] ?? '';
  const invalid = errors[field] ? 'true' : undefined;
  const hintId = q.tipo === 'escala' ? `dica-${q.id}` : undefined;
  /** One option: its radio and its text, in the class of the question's kind. */
  const option = (o: SurveyQuestion['opcoes'][number], cls: string | undefined, text: ComponentChildren) => (
    <label class={cls} key={o.id}>
      <input
        type="radio"
        name={field}
        value={String(o.id)}
        checked={chosen === String(o.id)}
        required={q.obrigatoria}
        aria-invalid={invalid}
      />
      {text}
    </label>
  );
  return (
    <fieldset class="question" id={fieldId(field)} tabIndex={-1} aria-describedby={describedBy(errors, field, hintId)}>
      <legend>
        {q.texto}
        <Required on={q.obrigatoria} />
      </legend>
      {q.tipo === 'escala' ? (
        <>
          <p class="hint" id={hintId}>
            0 = nada provável, 10 = muito provável
          </p>
          <div class="scale">{q.opcoes.map((o) => option(o, undefined, <span>{o.texto}</span>))}</div>
        </>
      ) : (
        q.opcoes.map((o) => option(o, 'choice big-choice', o.texto))
      )}
      <FieldError id={errId(field)} message={errors[field]} />
    </fieldset>
  );
}

export function TextQuestion({ q, values, errors }: { q: SurveyQuestion; values: SurveyValues; errors: SurveyErrors }) {
  const field = `textos[${q.id}]`;
  const id = `textos-${q.id}`;
  return (
    <fieldset class="question" aria-describedby={describedBy(errors, field)}>
      <legend>
        {q.texto}
        <Required on={q.obrigatoria} />
      </legend>
      <label class="choice big-choice">
        <input type="checkbox" name={`texto_ok[${q.id}]`} value="1" checked={values.texto_ok[String(q.id)] === true} />
        Está tudo certo
      </label>
      <label for={id}>Ou conte o que precisa de atenção</label>
      <textarea
        id={id}
        name={field}
        maxLength={LIMITS.texto}
        aria-invalid={errors[field] ? 'true' : undefined}
        aria-describedby={describedBy(errors, field)}
      >
        {values.textos[String(q.id)] ?? ''}
      </textarea>
      <FieldError id={errId(field)} message={errors[field]} />
    </fieldset>
  );
}

export function UnitChooserPage({ units, error }: { units: UnitRef[]; error?: string }) {
  return (
    <Layout
      title="Pesquisa de satisfação"
      description="Escolha sua unidade e conte como foi sua experiência."
      canonical={SURVEY_PATH}
    >
      <h1>Pesquisa de satisfação</h1>
      {error ? (
        <div class="alert alert-error" role="alert">
          <p>{error}</p>
        </div>
      ) : null}
      <p>Em qual unidade você treina?</p>
      <ul class="unit-choices">
        {units.map((u) => (
          <li key={u.id}>
            <a class="button secondary big-button" href={`${SURVEY_PATH}?unidade_id=${u.id}`}>
              {u.nome} <span class="hint">· {u.cidade}</span>
            </a>
          </li>
        ))}
      </ul>
    </Layout>
  );
}

export function ThanksPage() {
  return (
    <Layout title="Obrigado!" description="Recebemos sua mensagem." canonical={THANKS_PATH}>
      <section class="thanks">
        <h1>Obrigado!</h1>
        <p>Recebemos o que você nos enviou. Cada resposta ajuda a equipe da sua unidade a melhorar.</p>
        <p>
          <a class="button" href="/">
            Voltar para a página inicial
          </a>
        </p>
        <p>
          <a href="/NPS/nps_app_php/fale_aqui.php">Quer contar mais alguma coisa? Fale aqui</a>
        </p>
      </section>
    </Layout>
  );
}

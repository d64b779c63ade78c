import { FieldError, Layout } from '../../../views/layout';
import { bindFields, ErrorSummary, errorId, fieldAria, TextField } from '../../../views/form';
import { SubmitAndPrivacy } from '../parts.view';
import { ENVIO_FIELD } from '../../../lib/form/index';
import type { MessageErrors, MessageValues } from './fale-aqui.service';
import { MESSAGE_MAX, NAME_MAX } from './fale-aqui.service';
import { EMAIL_MAX, PHONE_MAX } from './contact';
import { ConsentCheckbox } from '../../privacy/consent.view';

export const FALE_AQUI_PATH = '/NPS/nps_app_php/fale_aqui.php';
export const FALE_AQUI_POST_PATH = '/NPS/nps_app_php/salvar_fale_aqui.php';

// The form kit's ids: the field's id is its name, its message `<name>-erro`.
const aria = (errors: MessageErrors, field: string, hint?: string) => fieldAria(field, errors[field], hint);

const LABELS: Record<string, string> = {
  nome_completo: 'Seu nome',
  unidade_id: 'Unidade',
  unidade: 'Nome da unidade',
  mensagem: 'Mensagem',
  arquivos: 'Fotos',
};

export interface FaleAquiFormProps {
  units: { id: number; nome: string; cidade: string }[];
  values: MessageValues;
  errors: MessageErrors;
  csrfToken: string;
  /** the refused request carried photos: they must be chosen again */
  hadFiles: boolean;
}

export function FaleAquiPage({ units, values, errors, csrfToken, hadFiles }: FaleAquiFormProps) {
  const errorCount = Object.keys(errors).length;
  const field = bindFields(values, errors);
  return (
    <Layout
      title="Fale aqui"
      description="Mande uma mensagem para a equipe da sua unidade, com fotos se quiser."
      scripts={['feedback-fale-aqui.js', 'envio-fresh.js']}
      canonical={FALE_AQUI_PATH}
    >
      <h1>Fale aqui</h1>
      <p>Elogio, sugestão ou algo quebrado? Conte para a equipe. Se quiser, envie até 2 fotos.</p>
      <ErrorSummary
        errors={errors}
        labels={LABELS}
        idFor={(k) => k}
        intro={
          <>
            Nada foi gravado{hadFiles ? ': escolha as fotos de novo antes de enviar' : ''}. Confira{' '}
            {errorCount === 1 ? 'o campo indicado' : `os ${errorCount} campos indicados`}:
          </>
        }
      />
      <form
        method="post"
        action={FALE_AQUI_POST_PATH}
        enctype="multipart/form-data"
        class="fale-aqui-form"
        data-fale-aqui=""
      >
        <input type="hidden" name="_token" value={csrfToken} />
        <input type="hidden" name={ENVIO_FIELD} value={values.envio_id} />

        <TextField
          {...field('nome_completo')}
          label={
            <>
              Seu nome <span class="hint">(opcional: em branco, a mensagem chega como anônima)</span>
            </>
          }
          autocomplete="name"
          maxLength={NAME_MAX}
        />

        <label for="unidade_id">Unidade</label>
        <select id="unidade_id" name="unidade_id" {...aria(errors, 'unidade_id')}>
          <option value="">Escolha a unidade</option>
          {units.map((u) => (
            <option value={String(u.id)} data-nome={u.nome} selected={values.unidade_id === String(u.id)} key={u.id}>
              {u.nome} · {u.cidade}
            </option>
          ))}
        </select>
        <FieldError id={errorId('unidade_id')} message={errors.unidade_id} />

        {/* An old page's free-text unit is kept through a failed submission, never shown. */}
        {values.unidade && !values.unidade_id ? <input type="hidden" name="unidade" value={values.unidade} /> : null}
        <FieldError id={errorId('unidade')} message={errors.unidade} />

        <label for="mensagem">Mensagem</label>
        <textarea
          id="mensagem"
          name="mensagem"
          required
          maxLength={MESSAGE_MAX}
          {...aria(errors, 'mensagem', 'mensagem-limite')}
        >
          {values.mensagem}
        </textarea>
        <p class="hint" id="mensagem-limite">
          Até {MESSAGE_MAX} caracteres.{' '}
          <span data-counter="" hidden aria-live="polite">
            {[...values.mensagem].length}/{MESSAGE_MAX}
          </span>
        </p>
        <FieldError id={errorId('mensagem')} message={errors.mensagem} />

        <label for="arquivos">
          Fotos <span class="hint">(opcional)</span>
        </label>
        <input
          type="file"
          id="arquivos"
          name="arquivos[]"
          accept="image/jpeg,image/png,image/webp"
          multiple
          {...aria(errors, 'arquivos', 'arquivos-dica')}
        />
        <p class="hint" id="arquivos-dica">
          Até 2 fotos JPEG, PNG ou WebP (até 20 MB e 50 megapixels cada; fotos de celular servem). A localização e os
          dados da câmera são apagados.
        </p>
        <p class="field-error" data-files-error="" hidden aria-live="polite"></p>
        <FieldError id={errorId('arquivos')} message={errors.arquivos} />
        <div class="photo-previews" data-previews=""></div>

        <fieldset class="contact-fields">
          <legend>
            Quer uma resposta? <span class="hint">(opcional)</span>
          </legend>
          <p class="hint" id="contato-dica">
            Deixe um e-mail ou telefone para a equipe da unidade responder. Sem contato, a mensagem é lida, mas não pode
            ser respondida.
          </p>
          <TextField
            {...field('contato_email')}
            label="E-mail"
            type="email"
            autocomplete="email"
            inputMode="email"
            maxLength={EMAIL_MAX}
            describedBy="contato-dica"
          />
          <TextField
            {...field('contato_telefone')}
            label={
              <>
                Telefone ou WhatsApp <span class="hint">(com DDD)</span>
              </>
            }
            type="tel"
            autocomplete="tel"
            inputMode="tel"
            maxLength={PHONE_MAX}
            describedBy="contato-dica"
          />
          <ConsentCheckbox
            purpose="fale_aqui"
            name="aceite_contato"
            value="sim"
            values={values}
            error={errors.aceite_contato}
          />
        </fieldset>

        <SubmitAndPrivacy label="Enviar mensagem" />
      </form>
    </Layout>
  );
}

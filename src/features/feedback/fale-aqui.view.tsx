import { FieldError, Layout } from '../../views/layout';
import type { MessageErrors, MessageValues } from './fale-aqui.service';
import { MESSAGE_MAX, NAME_MAX, UNIT_TEXT_MAX } from './fale-aqui.service';

export const FALE_AQUI_PATH = '/NPS/nps_app_php/fale_aqui.php';
export const FALE_AQUI_POST_PATH = '/NPS/nps_app_php/salvar_fale_aqui.php';

const errId = (field: string) => `erro-${field}`;
const aria = (errors: MessageErrors, field: string, hint?: string) => ({
  'aria-invalid': errors[field] ? ('true' as const) : undefined,
  'aria-describedby': [hint, errors[field] ? errId(field) : undefined].filter(Boolean).join(' ') || undefined,
});

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
  return (
    <Layout
      title="Fale aqui"
      description="Mande uma mensagem para a equipe da sua unidade, com fotos se quiser."
      scripts={['feedback-fale-aqui.js']}
    >
      <h1>Fale aqui</h1>
      <p>Elogio, sugestão ou algo quebrado? Conte para a equipe. Se quiser, envie até 2 fotos.</p>
      {errorCount ? (
        <div class="alert alert-error" role="alert">
          <p>
            Confira {errorCount === 1 ? 'o campo indicado' : `os ${errorCount} campos indicados`} abaixo. Nada foi gravado
            {hadFiles ? ': escolha as fotos de novo antes de enviar' : ''}.
          </p>
        </div>
      ) : null}
      <form method="post" action={FALE_AQUI_POST_PATH} enctype="multipart/form-data" class="fale-aqui-form" data-fale-aqui="">
        <input type="hidden" name="_token" value={csrfToken} />

        <label for="nome_completo">
          Seu nome <span class="hint">(opcional: em branco, a mensagem chega como anônima)</span>
        </label>
        <input type="text" id="nome_completo" name="nome_completo" autoComplete="name" maxLength={NAME_MAX} value={values.nome_completo} {...aria(errors, 'nome_completo')} />
        <FieldError id={errId('nome_completo')} message={errors.nome_completo} />

        <label for="unidade_id">Unidade</label>
        <select id="unidade_id" name="unidade_id" {...aria(errors, 'unidade_id')}>
          <option value="">Escolha a unidade</option>
          {units.map((u) => (
            <option value={String(u.id)} data-nome={u.nome} selected={values.unidade_id === String(u.id)} key={u.id}>
              {u.nome} · {u.cidade}
            </option>
          ))}
        </select>
        <FieldError id={errId('unidade_id')} message={errors.unidade_id} />

        <label for="unidade">
          Nome da unidade <span class="hint">(preenchido ao escolher na lista; escreva se a sua não estiver nela)</span>
        </label>
        <input type="text" id="unidade" name="unidade" maxLength={UNIT_TEXT_MAX} value={values.unidade} {...aria(errors, 'unidade')} />
        <FieldError id={errId('unidade')} message={errors.unidade} />

        <label for="mensagem">Mensagem</label>
        <textarea id="mensagem" name="mensagem" required maxLength={MESSAGE_MAX} {...aria(errors, 'mensagem', 'mensagem-limite')}>
          {values.mensagem}
        </textarea>
        <p class="hint" id="mensagem-limite">
          Até {MESSAGE_MAX} caracteres.{' '}
          <span data-counter="" hidden aria-live="polite">
            {[...values.mensagem].length}/{MESSAGE_MAX}
          </span>
        </p>
        <FieldError id={errId('mensagem')} message={errors.mensagem} />

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
          Até 2 fotos JPEG, PNG ou WebP, com no máximo 10 MB cada. A localização e os dados da câmera são apagados.
        </p>
        <p class="field-error" data-files-error="" hidden aria-live="polite"></p>
        <FieldError id={errId('arquivos')} message={errors.arquivos} />
        <div class="photo-previews" data-previews=""></div>

        <p>
          <button type="submit" class="button big-button">
            Enviar mensagem
          </button>
        </p>
        <p class="hint">
          <a href="/privacidade">Aviso de privacidade</a>: o que guardamos, por quê e por quanto tempo.
        </p>
      </form>
    </Layout>
  );
}

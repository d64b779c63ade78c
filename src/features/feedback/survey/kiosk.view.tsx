// Kiosk mode: the unit's survey on a reception tablet. Large touch targets, no link out of
// the page, a thank-you for 5 s and a fresh form. src/client/kiosk.ts keeps it working for
// days: answers wait in IndexedDB (with their envio_id) while offline and the CSRF token is
// refreshed in the background. Without JavaScript it is still a plain working form.
import { siteName } from '../../../views/layout';
import type { SurveyQuestion, UnitRef } from './survey.repository';
import { emptyValues, LIMITS } from './survey.service';
import { ChoiceQuestion, SURVEY_POST_PATH, TextQuestion } from './survey.view';
import { StandaloneHead } from '../parts.view';

export const KIOSK_PATH = '/NPS/nps_app_php/quiosque.php';
export const TOKEN_PATH = '/NPS/nps_app_php/token.php';

export function KioskPage({
  unit,
  questions,
  csrfToken,
}: {
  unit: UnitRef;
  questions: SurveyQuestion[];
  csrfToken: string;
}) {
  const values = { ...emptyValues(unit.id), origem: 'quiosque' as const };
  return (
    <html lang="pt-BR">
      <StandaloneHead title={`Avalie a unidade ${unit.nome} · ${siteName()}`} stylesheet="/css/site.css">
        <script type="module" src="/assets/kiosk.js" />
        <script type="module" src="/assets/envio-fresh.js" />
      </StandaloneHead>
      <body class="kiosk">
        <main id="conteudo">
          <div data-kiosk-form-area="">
            <h1>Como foi seu treino hoje?</h1>
            <p class="kiosk-unit">
              Unidade <strong>{unit.nome}</strong>
            </p>
            <form
              method="post"
              action={SURVEY_POST_PATH}
              class="survey-form kiosk-form"
              data-kiosk=""
              data-token-url={TOKEN_PATH}
            >
              <input type="hidden" name="_token" value={csrfToken} />
              <input type="hidden" name="unidade_id" value={String(unit.id)} />
              <input type="hidden" name="envio_id" value={values.envio_id} />
              <input type="hidden" name="origem" value="quiosque" />
              {questions.map((q) =>
                q.tipo === 'texto' ? (
                  <TextQuestion q={q} values={values} errors={{}} />
                ) : (
                  <ChoiceQuestion q={q} values={values} errors={{}} />
                ),
              )}
              <fieldset>
                <legend>Quer deixar algo mais? (opcional)</legend>
                <label for="comentario">Comentário</label>
                <textarea id="comentario" name="comentario" maxLength={LIMITS.comentario} rows={3} />
                <label for="contato_cliente">
                  Telefone ou e-mail <span class="hint">(se quiser que a unidade fale com você)</span>
                </label>
                <input
                  type="text"
                  id="contato_cliente"
                  name="contato_cliente"
                  autoComplete="off"
                  maxLength={LIMITS.contato_cliente}
                />
              </fieldset>
              <p>
                <button type="submit" class="button big-button kiosk-submit">
                  Enviar avaliação
                </button>
              </p>
            </form>
          </div>
          <section class="kiosk-thanks" data-kiosk-thanks="" hidden aria-live="polite">
            <h2>Obrigado!</h2>
            <p>Sua avaliação foi registrada. Bom treino!</p>
          </section>
          <p class="kiosk-status hint" data-kiosk-status="" role="status"></p>
        </main>
      </body>
    </html>
  );
}

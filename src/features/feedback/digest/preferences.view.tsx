import { Layout } from '../../../views/layout';
import type { StaffProps } from '../filters.view';

export const PREFERENCES_PATH = '/admin/preferencias';

export function PreferencesPage({
  staff,
  csrfToken,
  digest,
  saved,
}: {
  staff: StaffProps;
  csrfToken: string;
  digest: boolean;
  saved: boolean;
}) {
  return (
    <Layout title="Preferências" staff={staff}>
      <h1>Preferências</h1>
      {saved ? (
        <p class="alert alert-ok" role="status">
          Preferências salvas.
        </p>
      ) : null}
      <form method="post" action={PREFERENCES_PATH} class="card">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <fieldset>
          <legend>E-mails</legend>
          <label class="choice">
            <input type="checkbox" name="resumo_semanal" value="sim" checked={digest} /> Receber o resumo semanal
            (segunda-feira, 8h): NPS das minhas unidades, mensagens novas e sem resposta
          </label>
        </fieldset>
        <p>
          <button type="submit">Salvar</button>
        </p>
      </form>
    </Layout>
  );
}

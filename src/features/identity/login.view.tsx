import { Layout } from '../../views/layout';

export interface LoginViewProps {
  csrfToken: string;
  email?: string;
  voltar?: string | null;
  /** a general message (wrong credentials, lockout, session ended) */
  error?: string | null;
  notice?: string | null;
  fieldErrors?: { email?: string; senha?: string };
}

export function LoginView({ csrfToken, email = '', voltar, error, notice, fieldErrors = {} }: LoginViewProps) {
  return (
    <Layout title="Acesso da equipe">
      <section class="card login-card">
        <h1>Acesso da equipe</h1>
        <p class="muted">Área restrita aos colaboradores da rede. Entre com o seu e-mail e senha.</p>
        {notice ? (
          <p class="alert alert-ok" role="status">
            {notice}
          </p>
        ) : null}
        {error ? (
          <p class="alert alert-error" role="alert" id="login-erro">
            {error}
          </p>
        ) : null}
        <form method="post" action="/pages/Franquia/admin.php" novalidate>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="acao" value="entrar" />
          {voltar ? <input type="hidden" name="voltar" value={voltar} /> : null}
          <label for="email">E-mail</label>
          <input
            id="email"
            name="email"
            type="email"
            autocomplete="username"
            required
            maxLength={254}
            value={email}
            aria-invalid={fieldErrors.email ? 'true' : undefined}
            aria-describedby={fieldErrors.email ? 'email-erro' : undefined}
          />
          {fieldErrors.email ? (
            <p class="field-error" id="email-erro">
              {fieldErrors.email}
            </p>
          ) : null}
          <label for="senha">Senha</label>
          <input
            id="senha"
            name="senha"
            type="password"
            autocomplete="current-password"
            required
            maxLength={256}
            aria-invalid={fieldErrors.senha ? 'true' : undefined}
            aria-describedby={fieldErrors.senha ? 'senha-erro' : undefined}
          />
          {fieldErrors.senha ? (
            <p class="field-error" id="senha-erro">
              {fieldErrors.senha}
            </p>
          ) : null}
          <p>
            <button type="submit">Entrar</button>
          </p>
        </form>
        <p>
          <a href="/pages/Franquia/senha.php">Esqueci minha senha</a>
        </p>
      </section>
    </Layout>
  );
}

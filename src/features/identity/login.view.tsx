import { ErrorSummary } from '../../views/form';
import { AuthAlert, AuthCard, EmailField, PasswordField } from './auth-card.view';

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
    <AuthCard title="Acesso da equipe">
      <p class="muted">Área restrita aos colaboradores da rede. Entre com o seu e-mail e senha.</p>
      {notice ? (
        <p class="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
      <AuthAlert message={error} id="login-erro" />
      <ErrorSummary errors={fieldErrors} labels={{ email: 'E-mail', senha: 'Senha' }} />
      <form method="post" action="/pages/Franquia/admin.php" novalidate>
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <input type="hidden" name="acao" value="entrar" />
        {voltar ? <input type="hidden" name="voltar" value={voltar} /> : null}
        <EmailField value={email} error={fieldErrors.email} />
        <PasswordField name="senha" label="Senha" autocomplete="current-password" error={fieldErrors.senha} />
        <p>
          <button type="submit">Entrar</button>
        </p>
      </form>
      <p>
        <a href="/pages/Franquia/senha.php">Esqueci minha senha</a>
      </p>
    </AuthCard>
  );
}

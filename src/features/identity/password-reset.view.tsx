// "Esqueci minha senha" pages: the e-mail form, the same answer for every address, the
// new-password form of a link, and the page of a link that no longer works.
import type { ComponentChildren } from 'preact';
import { Layout } from '../../views/layout';
import { MIN_PASSWORD_LENGTH } from './password';

const PATH = '/pages/Franquia/senha.php';

function Shell({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <Layout title={title}>
      <section class="card login-card">
        <h1>{title}</h1>
        {children}
      </section>
    </Layout>
  );
}

export function ResetRequestView(p: { csrfToken: string; email?: string; error?: string | null; fieldError?: string | null }) {
  return (
    <Shell title="Esqueci minha senha">
      <p class="muted">Informe o e-mail da sua conta da equipe. Se ele estiver cadastrado, enviaremos um link para você escolher uma nova senha.</p>
      {p.error ? (
        <p class="alert alert-error" role="alert">
          {p.error}
        </p>
      ) : null}
      <form method="post" action={PATH} novalidate>
        <input type="hidden" name="csrf_token" value={p.csrfToken} />
        <input type="hidden" name="acao" value="pedir" />
        <label for="email">E-mail</label>
        <input
          id="email"
          name="email"
          type="email"
          autocomplete="username"
          required
          maxLength={254}
          value={p.email ?? ''}
          aria-invalid={p.fieldError ? 'true' : undefined}
          aria-describedby={p.fieldError ? 'email-erro' : undefined}
        />
        {p.fieldError ? (
          <p class="field-error" id="email-erro">
            {p.fieldError}
          </p>
        ) : null}
        <p>
          <button type="submit">Enviar link</button>
        </p>
      </form>
      <p>
        <a href="/pages/Franquia/admin.php">Voltar para o login</a>
      </p>
    </Shell>
  );
}

export function ResetSentView() {
  return (
    <Shell title="Verifique o seu e-mail">
      <p role="status">
        Se o e-mail informado pertence a uma conta ativa da equipe, enviamos para ele um link para escolher uma nova senha. O link vale por
        30 minutos e pode ser usado uma única vez. Não recebeu? Verifique a caixa de spam ou peça de novo em alguns minutos.
      </p>
      <p>
        <a href="/pages/Franquia/admin.php">Voltar para o login</a>
      </p>
    </Shell>
  );
}

export function NewPasswordView(p: { csrfToken: string; token: string; errors?: { nova_senha?: string; confirmacao?: string }; error?: string | null }) {
  const e = p.errors ?? {};
  return (
    <Shell title="Escolha uma nova senha">
      <p class="muted">A nova senha precisa ter pelo menos {MIN_PASSWORD_LENGTH} caracteres. Ao salvar, todas as sessões abertas da conta são encerradas.</p>
      {p.error ? (
        <p class="alert alert-error" role="alert">
          {p.error}
        </p>
      ) : null}
      <form method="post" action={PATH} novalidate>
        <input type="hidden" name="csrf_token" value={p.csrfToken} />
        <input type="hidden" name="acao" value="redefinir" />
        <input type="hidden" name="token" value={p.token} />
        <label for="nova_senha">Nova senha</label>
        <input
          id="nova_senha"
          name="nova_senha"
          type="password"
          autocomplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={256}
          aria-invalid={e.nova_senha ? 'true' : undefined}
          aria-describedby={e.nova_senha ? 'nova_senha-erro' : undefined}
        />
        {e.nova_senha ? (
          <p class="field-error" id="nova_senha-erro">
            {e.nova_senha}
          </p>
        ) : null}
        <label for="confirmacao">Repita a nova senha</label>
        <input
          id="confirmacao"
          name="confirmacao"
          type="password"
          autocomplete="new-password"
          required
          maxLength={256}
          aria-invalid={e.confirmacao ? 'true' : undefined}
          aria-describedby={e.confirmacao ? 'confirmacao-erro' : undefined}
        />
        {e.confirmacao ? (
          <p class="field-error" id="confirmacao-erro">
            {e.confirmacao}
          </p>
        ) : null}
        <p>
          <button type="submit">Salvar nova senha</button>
        </p>
      </form>
    </Shell>
  );
}

export function InvalidLinkView() {
  return (
    <Shell title="Link inválido ou expirado">
      <p role="alert">Este link de redefinição de senha não vale mais: ele expira em 30 minutos e pode ser usado uma única vez.</p>
      <p>
        <a class="button" href={PATH}>
          Pedir um novo link
        </a>
      </p>
    </Shell>
  );
}

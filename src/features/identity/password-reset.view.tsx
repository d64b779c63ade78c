// "Esqueci minha senha" pages: the e-mail form, the same answer for every address, the
// new-password form of a link, and the page of a link that no longer works.
import type { ComponentChildren } from 'preact';
import { MIN_PASSWORD_LENGTH } from './password';
import { AuthAlert, AuthCard, EmailField, PasswordField } from './auth-card.view';

const PATH = '/pages/Franquia/senha.php';
const BACK_TO_LOGIN = { href: '/pages/Franquia/admin.php', label: 'Voltar para o login' };

export function ResetRequestView(p: {
  csrfToken: string;
  email?: string;
  error?: string | null;
  fieldError?: string | null;
}) {
  return (
    <AuthCard title="Esqueci minha senha">
      <p class="muted">
        Informe o e-mail da sua conta da equipe. Se ele estiver cadastrado, enviaremos um link para você escolher uma
        nova senha.
      </p>
      <AuthAlert message={p.error} />
      <form method="post" action={PATH} novalidate>
        <input type="hidden" name="csrf_token" value={p.csrfToken} />
        <input type="hidden" name="acao" value="pedir" />
        <EmailField value={p.email} error={p.fieldError} />
        <p>
          <button type="submit">Enviar link</button>
        </p>
      </form>
      <p>
        <a href={BACK_TO_LOGIN.href}>{BACK_TO_LOGIN.label}</a>
      </p>
    </AuthCard>
  );
}

export function ResetSentView() {
  return (
    <MessageCard title="Verifique o seu e-mail" role="status" link={BACK_TO_LOGIN}>
      Se o e-mail informado pertence a uma conta ativa da equipe, enviamos para ele um link para escolher uma nova
      senha. O link vale por 30 minutos e pode ser usado uma única vez. Não recebeu? Verifique a caixa de spam ou peça
      de novo em alguns minutos.
    </MessageCard>
  );
}

export function NewPasswordView(p: {
  csrfToken: string;
  token: string;
  errors?: { nova_senha?: string; confirmacao?: string };
  error?: string | null;
}) {
  const e = p.errors ?? {};
  return (
    <AuthCard title="Escolha uma nova senha">
      <p class="muted">
        A nova senha precisa ter pelo menos {MIN_PASSWORD_LENGTH} caracteres. Ao salvar, todas as sessões abertas da
        conta são encerradas.
      </p>
      <AuthAlert message={p.error} />
      <form method="post" action={PATH} novalidate>
        <input type="hidden" name="csrf_token" value={p.csrfToken} />
        <input type="hidden" name="acao" value="redefinir" />
        <input type="hidden" name="token" value={p.token} />
        <PasswordField
          name="nova_senha"
          label="Nova senha"
          autocomplete="new-password"
          minLength={MIN_PASSWORD_LENGTH}
          error={e.nova_senha}
        />
        <PasswordField
          name="confirmacao"
          label="Repita a nova senha"
          autocomplete="new-password"
          error={e.confirmacao}
        />
        <p>
          <button type="submit">Salvar nova senha</button>
        </p>
      </form>
    </AuthCard>
  );
}

export function InvalidLinkView() {
  return (
    <MessageCard
      title="Link inválido ou expirado"
      role="alert"
      link={{ href: PATH, label: 'Pedir um novo link', button: true }}
    >
      Este link de redefinição de senha não vale mais: ele expira em 30 minutos e pode ser usado uma única vez.
    </MessageCard>
  );
}

/** A card that only tells something (announced as `role`) and offers one link on. */
function MessageCard(p: {
  title: string;
  role: 'status' | 'alert';
  link: { href: string; label: string; button?: boolean };
  children: ComponentChildren;
}) {
  return (
    <AuthCard title={p.title}>
      <p role={p.role}>{p.children}</p>
      <p>
        <a class={p.link.button ? 'button' : undefined} href={p.link.href}>
          {p.link.label}
        </a>
      </p>
    </AuthCard>
  );
}

import { PostForm } from '../../staff/form.view';
import { fieldAria, FieldMessage } from '../../views/form';
import { Layout } from '../../views/layout';
import { formatDateTime } from '../../lib/time';
import type { SmtpTestResult, mailLibraryInfo, smtpSettings } from './diagnostic.service';

export const DIAGNOSTIC_PATH = '/pages/Franquia/smtp_test.php';

const SECURITY_LABEL: Record<string, string> = {
  tls: 'TLS direto (SMTP_SECURE=tls, normalmente porta 465)',
  starttls: 'STARTTLS obrigatório (SMTP_SECURE=starttls, normalmente porta 587)',
  none: 'Sem criptografia (SMTP_SECURE=none; só para servidores locais)',
};

export interface DiagnosticProps {
  staff: { name: string; csrfToken: string } | null;
  csrfToken: string;
  library: ReturnType<typeof mailLibraryInfo>;
  settings: ReturnType<typeof smtpSettings>;
  outbox: {
    counts: Record<string, number>;
    lastError: {
      id: number;
      destinatario: string;
      ultimo_erro: string | null;
      tentativas: number;
      status: string;
      origem: string | null;
      criado_em: string;
    } | null;
  };
  result?: SmtpTestResult | null;
  toValue?: string;
  toError?: string;
  status?: number;
}

export function DiagnosticPage({
  staff,
  csrfToken,
  library,
  settings,
  outbox,
  result,
  toValue,
  toError,
}: DiagnosticProps) {
  return (
    <Layout title="Diagnóstico de e-mail" staff={staff}>
      <h1>Diagnóstico de e-mail</h1>

      {result ? (
        <section class="card" aria-labelledby="resultado-titulo">
          <h2 id="resultado-titulo">Resultado</h2>
          {result.ok ? (
            <p class="alert alert-ok" role="status">
              {result.action === 'testar'
                ? `Conexão e autenticação bem-sucedidas em ${result.totalMs} ms.`
                : `Mensagem de teste aceita pelo servidor para ${result.to} em ${result.totalMs} ms.`}
            </p>
          ) : (
            <div class="alert alert-error" role="alert">
              <p>
                <strong>{result.action === 'testar' ? 'A conexão falhou.' : 'O envio falhou.'}</strong>{' '}
                {result.explanation}
              </p>
              <p>
                Erro informado: <code>{result.error}</code>
              </p>
            </div>
          )}
          <h3>Transcrição SMTP</h3>
          <p class="hint">
            S: servidor · C: este sistema · *: observação da biblioteca. A senha aparece sempre como {/* oculto */}.
          </p>
          <pre class="transcript" tabIndex={0} aria-label="Transcrição da conversa SMTP">
            {result.lines.length
              ? result.lines.map((l) => `[${String(l.ms).padStart(5, ' ')} ms] ${l.dir}: ${l.text}`).join('\n')
              : '(nenhuma resposta do servidor)'}
          </pre>
        </section>
      ) : null}

      <section class="card" aria-labelledby="config-titulo">
        <h2 id="config-titulo">Configuração</h2>
        <dl class="kv">
          <dt>Biblioteca</dt>
          <dd>
            {library.library} {library.version}
          </dd>
          <dt>TLS</dt>
          <dd>
            {library.tlsAvailable ? 'disponível' : 'indisponível'} · OpenSSL {library.openssl ?? 'desconhecido'} ·
            Node.js {library.node} · versões {library.tlsMin}–{library.tlsMax}
          </dd>
          <dt>Servidor</dt>
          <dd>{settings.configured ? settings.host : 'não configurado (defina SMTP_HOST)'}</dd>
          <dt>Porta</dt>
          <dd>{settings.port ?? '—'}</dd>
          <dt>Segurança</dt>
          <dd>{settings.secure ? SECURITY_LABEL[settings.secure] : '—'}</dd>
          <dt>Usuário</dt>
          <dd>{settings.user || 'sem autenticação'}</dd>
          <dt>Senha</dt>
          <dd>{settings.passwordSet ? 'definida (não exibida)' : 'não definida'}</dd>
          <dt>Remetente</dt>
          <dd>{settings.mailFrom}</dd>
          <dt>Avisos do Fale aqui</dt>
          <dd>{settings.notificationEmail ?? 'não configurado (NOTIFICATION_EMAIL)'}</dd>
          <dt>Avisos de leads</dt>
          <dd>{settings.franchiseNotificationEmail ?? 'não configurado (FRANCHISE_NOTIFICATION_EMAIL)'}</dd>
        </dl>
      </section>

      <section class="card" aria-labelledby="fila-titulo">
        <h2 id="fila-titulo">Fila de envio</h2>
        <dl class="kv">
          <dt>Pendentes</dt>
          <dd>{outbox.counts.pendente ?? 0}</dd>
          <dt>Enviando agora</dt>
          <dd>{outbox.counts.enviando ?? 0}</dd>
          <dt>Enviadas</dt>
          <dd>{outbox.counts.enviado ?? 0}</dd>
          <dt>Falharam</dt>
          <dd>{outbox.counts.falhou ?? 0}</dd>
          <dt>Último erro</dt>
          <dd>
            {outbox.lastError
              ? `${outbox.lastError.ultimo_erro} (mensagem ${outbox.lastError.id} para ` +
                `${outbox.lastError.destinatario}, ${outbox.lastError.tentativas} tentativa(s), criada em ` +
                `${formatDateTime(outbox.lastError.criado_em)})`
              : 'nenhum'}
          </dd>
        </dl>
      </section>

      <section class="card" aria-labelledby="testes-titulo">
        <h2 id="testes-titulo">Testes</h2>
        {settings.configured ? (
          <>
            <PostForm action={DIAGNOSTIC_PATH} csrfToken={csrfToken}>
              <input type="hidden" name="acao" value="testar" />
              <p>Abre uma conexão real com o servidor (saudação, EHLO, STARTTLS e autenticação) sem enviar nada.</p>
              <button type="submit">Testar conexão</button>
            </PostForm>
            <PostForm action={DIAGNOSTIC_PATH} csrfToken={csrfToken}>
              <input type="hidden" name="acao" value="enviar" />
              <label for="destinatario">Enviar uma mensagem de teste para</label>
              <input
                id="destinatario"
                name="destinatario"
                type="email"
                required
                maxLength={254}
                value={toValue ?? ''}
                autocomplete="email"
                {...fieldAria('destinatario', toError)}
              />
              <FieldMessage id="destinatario" message={toError} />
              <p>
                <button type="submit">Enviar teste</button>
              </p>
            </PostForm>
          </>
        ) : (
          <p>Configure SMTP_HOST (e, se o servidor exigir, SMTP_USER e SMTP_PASS) e reinicie o serviço para testar.</p>
        )}
      </section>
    </Layout>
  );
}

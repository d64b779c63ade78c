import type { ComponentChildren, VNode } from 'preact';

export const SITE_NAME = 'Academia Movimento';

export interface LayoutProps {
  title: string;
  description?: string;
  /** extra <head> content: Open Graph, JSON-LD */
  head?: VNode | VNode[];
  /** browser modules under /assets, e.g. "search.js" */
  scripts?: string[];
  /** staff pages get the staff navigation and are never indexed */
  staff?: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' } | null;
  children: ComponentChildren;
}

export function Layout({ title, description, head, scripts = [], staff, children }: LayoutProps) {
  const fullTitle = title === SITE_NAME ? title : `${title} · ${SITE_NAME}`;
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        {description ? <meta name="description" content={description} /> : null}
        {staff ? <meta name="robots" content="noindex, nofollow" /> : null}
        <meta name="theme-color" content="#0b6e4f" />
        <link rel="stylesheet" href="/css/site.css" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {head}
        {scripts.map((s) => (
          <script type="module" src={`/assets/${s}`} key={s} />
        ))}
      </head>
      <body>
        <a class="skip-link" href="#conteudo">
          Pular para o conteúdo
        </a>
        <header class="site-header">
          <a class="brand" href="/">
            {SITE_NAME}
          </a>
          {staff ? <StaffNav staff={staff} /> : <PublicNav />}
        </header>
        <main id="conteudo" tabIndex={-1}>
          {children}
        </main>
        <footer class="site-footer">
          <p>
            © {SITE_NAME} · <a href="/pages/Franquia/index.php">Seja um franqueado</a> ·{' '}
            <a href="/NPS/nps_app_php/fale_aqui.php">Fale aqui</a>
          </p>
        </footer>
      </body>
    </html>
  );
}

function PublicNav() {
  return (
    <nav aria-label="Principal">
      <ul class="nav">
        <li>
          <a href="/#unidades">Unidades</a>
        </li>
        <li>
          <a href="/NPS/nps_app_php/index.php">Avalie-nos</a>
        </li>
        <li>
          <a href="/pages/Franquia/index.php">Franquia</a>
        </li>
      </ul>
    </nav>
  );
}

/**
 * Staff navigation; logout is a POST with the CSRF token. With `papel` known, a unit
 * manager sees only the pages they may open (the server checks every route anyway).
 */
function StaffNav({ staff }: { staff: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' } }) {
  const manager = staff.papel === 'gerente';
  return (
    <nav aria-label="Equipe">
      <ul class="nav">
        {manager ? null : (
          <li>
            <a href="/pages/Franquia/admin.php">Leads</a>
          </li>
        )}
        <li>
          <a href="/admin/pesquisa">Pesquisa</a>
        </li>
        <li>
          <a href="/admin/mensagens">Mensagens</a>
        </li>
        <li>
          <a href="/admin/aulas-experimentais">Aulas experimentais</a>
        </li>
        {manager ? null : (
          <li>
            <a href="/pages/Franquia/smtp_test.php">E-mail</a>
          </li>
        )}
        <li>
          <a href="/admin/conteudo">{manager ? 'Grade de aulas' : 'Conteúdo'}</a>
        </li>
        {staff.papel === 'admin' ? (
          <>
            <li>
              <a href="/admin/contas">Contas</a>
            </li>
            <li>
              <a href="/admin/auditoria">Auditoria</a>
            </li>
          </>
        ) : null}
        <li>
          <form method="post" action="/pages/Franquia/admin.php" class="inline">
            <input type="hidden" name="csrf_token" value={staff.csrfToken} />
            <input type="hidden" name="acao" value="sair" />
            <button type="submit" class="link-button">
              Sair ({staff.name})
            </button>
          </form>
        </li>
      </ul>
    </nav>
  );
}

export interface ErrorPageProps {
  status: number;
  title: string;
  message: string;
  link?: { href: string; label: string };
}

export function ErrorPage({ status, title, message, link }: ErrorPageProps) {
  return (
    <Layout title={title}>
      <section class="error-page">
        <p class="error-code">Erro {status}</p>
        <h1>{title}</h1>
        <p>{message}</p>
        {link ? (
          <p>
            <a class="button" href={link.href}>
              {link.label}
            </a>
          </p>
        ) : null}
        <p>
          <a href="/">Voltar para a página inicial</a>
        </p>
      </section>
    </Layout>
  );
}

/** Inline message by a form field; `id` is referenced by the input's aria-describedby. */
export function FieldError({ id, message }: { id: string; message?: string }) {
  if (!message) return null;
  return (
    <p class="field-error" id={id}>
      {message}
    </p>
  );
}

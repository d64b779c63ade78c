import type { ComponentChildren, VNode } from 'preact';
import { absoluteUrl, brand } from '../brand/index';

/** The chain's name (BRAND_NAME). Kept as a function: the brand is set at start-up. */
export const siteName = (): string => brand().name;

export interface LayoutProps {
  title: string;
  description?: string;
  /** extra <head> content: JSON-LD */
  head?: VNode | VNode[];
  /** browser modules under /assets, e.g. "search.js" */
  scripts?: string[];
  /** staff pages get the staff navigation and are never indexed */
  staff?: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' } | null;
  /** public pages: their path ("/Detalhes.php?id=3") for the canonical link and Open Graph */
  canonical?: string;
  /** og:title when it should differ from the page title (default: the title) */
  ogTitle?: string;
  /** og:image (a path or absolute URL); the brand card by default */
  image?: string;
  /** something fixed at the bottom of a phone screen (the unit page's calls to action) */
  bottomBar?: ComponentChildren;
  children: ComponentChildren;
}

export function Layout({
  title,
  description,
  head,
  scripts = [],
  staff,
  canonical,
  ogTitle,
  image,
  bottomBar,
  children,
}: LayoutProps) {
  const b = brand();
  const fullTitle = title === b.name ? title : `${title} · ${b.name}`;
  return (
    <html lang="pt-BR">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        {description ? <meta name="description" content={description} /> : null}
        {staff ? <meta name="robots" content="noindex, nofollow" /> : null}
        <meta name="theme-color" content={b.colors.primary} />
        <link rel="stylesheet" href="/css/site.css" />
        <link rel="stylesheet" href={b.theme} />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {canonical && !staff ? (
          <>
            <link rel="canonical" href={absoluteUrl(canonical)} />
            <meta property="og:type" content="website" />
            <meta property="og:site_name" content={b.name} />
            <meta property="og:locale" content="pt_BR" />
            <meta property="og:url" content={absoluteUrl(canonical)} />
            <meta property="og:title" content={ogTitle ?? title} />
            {description ? <meta property="og:description" content={description} /> : null}
            <meta property="og:image" content={absoluteUrl(image ?? b.card)} />
            {image ? null : (
              <>
                <meta property="og:image:width" content="1200" />
                <meta property="og:image:height" content="630" />
              </>
            )}
            <meta name="twitter:card" content="summary_large_image" />
          </>
        ) : null}
        {head}
        {scripts.map((s) => (
          <script type="module" src={`/assets/${s}`} key={s} />
        ))}
      </head>
      <body class={[staff ? 'staff' : 'public', bottomBar ? 'has-bottom-bar' : ''].filter(Boolean).join(' ')}>
        <a class="skip-link" href="#conteudo">
          Pular para o conteúdo
        </a>
        <header class="site-header">
          <a class="brand" href="/">
            <img src={b.logo} alt="" width={36} height={36} class="brand-logo" />
            <span>{b.name}</span>
          </a>
          {staff ? <StaffNav staff={staff} /> : <PublicNav />}
        </header>
        <main id="conteudo" tabIndex={-1}>
          {children}
        </main>
        <footer class="site-footer">
          <div class="footer-inner">
            <p class="footer-brand">
              <strong>{b.name}</strong>
              <br />
              <span>{b.tagline}</span>
            </p>
            <ul class="footer-links">
              <li>
                <a href="/unidades">Unidades</a>
              </li>
              <li>
                <a href="/pages/Franquia/index.php">Seja um franqueado</a>
              </li>
              <li>
                <a href="/NPS/nps_app_php/fale_aqui.php">Fale aqui</a>
              </li>
              <li>
                <a href="/privacidade">Privacidade</a>
              </li>
              {b.whatsappDigits ? (
                <li>
                  <a href={`https://wa.me/${b.whatsappDigits}`} rel="noopener noreferrer">
                    WhatsApp da rede
                  </a>
                </li>
              ) : null}
              {b.instagram ? (
                <li>
                  <a href={b.instagram} rel="noopener noreferrer">
                    Instagram
                  </a>
                </li>
              ) : null}
              {b.facebook ? (
                <li>
                  <a href={b.facebook} rel="noopener noreferrer">
                    Facebook
                  </a>
                </li>
              ) : null}
            </ul>
            {b.dpo ? (
              <p class="footer-dpo">
                Encarregado de dados (LGPD): {b.dpo.name} · <a href={`mailto:${b.dpo.email}`}>{b.dpo.email}</a>
              </p>
            ) : null}
            <p class="footer-copy">© {b.name}</p>
          </div>
        </footer>
        {bottomBar}
      </body>
    </html>
  );
}

function PublicNav() {
  return (
    <nav aria-label="Principal">
      <ul class="nav">
        <li>
          <a href="/unidades">Unidades</a>
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
        <li>
          <a href="/admin">Início</a>
        </li>
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
        <li>
          <a href="/admin/matriculas">Matrículas</a>
        </li>
        <li>
          <a href="/admin/cliques">Cliques</a>
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
            <li>
              <a href="/admin/webhooks">Webhooks</a>
            </li>
            <li>
              <a href="/admin/privacidade">Privacidade</a>
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

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

/** The site's own pages in every public footer (the chain's social links follow them). */
const FOOTER_LINKS: ListLink[] = [
  { href: '/unidades', label: 'Unidades' },
  { href: '/pages/Franquia/index.php', label: 'Seja um franqueado' },
  { href: '/NPS/nps_app_php/fale_aqui.php', label: 'Fale aqui' },
  { href: '/privacidade', label: 'Privacidade' },
];

const PUBLIC_NAV_LINKS: ListLink[] = [
  { href: '/unidades', label: 'Unidades' },
  { href: '/NPS/nps_app_php/index.php', label: 'Avalie-nos' },
  { href: '/pages/Franquia/index.php', label: 'Franquia' },
];

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
            <LinkList
              class="footer-links"
              links={[
                ...FOOTER_LINKS,
                b.whatsappDigits
                  ? { href: `https://wa.me/${b.whatsappDigits}`, label: 'WhatsApp da rede', external: true }
                  : null,
                b.instagram ? { href: b.instagram, label: 'Instagram', external: true } : null,
                b.facebook ? { href: b.facebook, label: 'Facebook', external: true } : null,
              ]}
            />
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
      <LinkList class="nav" links={PUBLIC_NAV_LINKS} />
    </nav>
  );
}

/**
 * Staff navigation; logout is a POST with the CSRF token. With `papel` known, a unit
 * manager sees only the pages they may open (the server checks every route anyway).
 */
function StaffNav({ staff }: { staff: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' } }) {
  const manager = staff.papel === 'gerente';
  const admin = staff.papel === 'admin';
  const links = [
    { href: '/admin', label: 'Início' },
    manager ? null : { href: '/pages/Franquia/admin.php', label: 'Leads' },
    { href: '/admin/pesquisa', label: 'Pesquisa' },
    { href: '/admin/mensagens', label: 'Mensagens' },
    { href: '/admin/aulas-experimentais', label: 'Aulas experimentais' },
    { href: '/admin/matriculas', label: 'Matrículas' },
    { href: '/admin/cliques', label: 'Cliques' },
    manager ? null : { href: '/pages/Franquia/smtp_test.php', label: 'E-mail' },
    { href: '/admin/conteudo', label: manager ? 'Grade de aulas' : 'Conteúdo' },
    ...(admin
      ? [
          { href: '/admin/contas', label: 'Contas' },
          { href: '/admin/auditoria', label: 'Auditoria' },
          { href: '/admin/webhooks', label: 'Webhooks' },
          { href: '/admin/privacidade', label: 'Privacidade' },
        ]
      : []),
  ];
  return (
    <nav aria-label="Equipe">
      <LinkList class="nav" links={links}>
        <li>
          <form method="post" action="/pages/Franquia/admin.php" class="inline">
            <input type="hidden" name="csrf_token" value={staff.csrfToken} />
            <input type="hidden" name="acao" value="sair" />
            <button type="submit" class="link-button">
              Sair ({staff.name})
            </button>
          </form>
        </li>
      </LinkList>
    </nav>
  );
}

/** One link of a LinkList; `external` ones leave the site without telling it where from. */
export interface ListLink {
  href: string;
  label: ComponentChildren;
  external?: boolean;
  /** a file to save rather than a page to open (its file name) */
  download?: string;
}

/**
 * A list of links, one per item. Null entries (links a page shows only sometimes) are left
 * out; `children` are further items after the links.
 */
export function LinkList(p: { links: (ListLink | null)[]; class?: string; children?: ComponentChildren }) {
  return (
    <ul class={p.class}>
      {p.links.map((link) =>
        link ? (
          <li key={link.href}>
            <a href={link.href} rel={link.external ? 'noopener noreferrer' : undefined} download={link.download}>
              {link.label}
            </a>
          </li>
        ) : null,
      )}
      {p.children}
    </ul>
  );
}

/** The link back from a detail page to its list ("← Voltar para a pesquisa"). */
export function BackLink({ href, label }: { href: string; label: string }) {
  return (
    <p>
      <a href={href}>← {label}</a>
    </p>
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

// The brand in one place: name, contacts and social links from settings, look from
// ./brand.ts and public/brand/. Views read it through brand(); buildApp sets it once from
// the configuration (a process serves one chain).
import type { Config } from '../config';
import { BRAND_CARD_PATH, BRAND_COLORS, BRAND_FILES, BRAND_TAGLINE, BRAND_THEME_PATH } from './brand';

export { BRAND_CARD_PATH, BRAND_COLORS, BRAND_FILES, BRAND_TAGLINE, BRAND_THEME_PATH };

export interface Brand {
  name: string;
  tagline: string;
  /** origin for absolute links, no trailing slash */
  publicUrl: string;
  /** the chain's WhatsApp as digits for wa.me (55…), or null */
  whatsappDigits: string | null;
  instagram: string | null;
  facebook: string | null;
  /** the data-protection officer (DPO_NAME, DPO_EMAIL), shown in every page's footer */
  dpo: { name: string; email: string } | null;
  colors: typeof BRAND_COLORS;
  logo: string;
  placeholder: string;
  card: string;
  theme: string;
}

type BrandSettings = Pick<Config, 'brandName' | 'publicUrl'> &
  Partial<Pick<Config, 'brandWhatsapp' | 'brandInstagram' | 'brandFacebook' | 'privacy'>>;

function make(settings: BrandSettings): Brand {
  return {
    name: settings.brandName,
    tagline: BRAND_TAGLINE,
    publicUrl: settings.publicUrl.replace(/\/+$/, ''),
    whatsappDigits: settings.brandWhatsapp ? settings.brandWhatsapp.replace(/\D/g, '') : null,
    instagram: settings.brandInstagram ?? null,
    facebook: settings.brandFacebook ?? null,
    dpo: settings.privacy ? { name: settings.privacy.dpoName, email: settings.privacy.dpoEmail } : null,
    colors: BRAND_COLORS,
    logo: BRAND_FILES.logo,
    placeholder: BRAND_FILES.placeholder,
    card: BRAND_CARD_PATH,
    theme: BRAND_THEME_PATH,
  };
}

let current: Brand = make({ brandName: 'Academia Movimento', publicUrl: 'http://localhost:3000' });

/** The brand views render with. */
export function brand(): Brand {
  return current;
}

/** Called by buildApp with the parsed settings. */
export function configureBrand(settings: BrandSettings): Brand {
  current = make(settings);
  return current;
}

/** An absolute URL on the public site for a path ("/Detalhes.php?id=3"). */
export function absoluteUrl(path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  return `${current.publicUrl}${path.startsWith('/') ? path : `/${path}`}`;
}

/** A wa.me link, with a prefilled message when given. */
export function whatsappHref(digits: string, text?: string): string {
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
}

/** The theme stylesheet: brand colours as CSS custom properties (site.css uses only these). */
export function themeCss(colors: typeof BRAND_COLORS = BRAND_COLORS): string {
  return (
    `:root{--brand:${colors.primary};--brand-dark:${colors.primaryDark};--accent:${colors.accent};` +
    `--on-accent:${colors.onAccent};--tint:${colors.tint}}\n`
  );
}

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** SVG of the 1200×630 share card (rendered to PNG by sharp in the brand routes). */
export function cardSvg(b: Brand = current): string {
  const size = b.name.length > 22 ? Math.max(48, Math.floor(1900 / b.name.length)) : 88;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
<rect width="1200" height="630" fill="${b.colors.primary}"/>
<path d="M0 630 L1200 330 L1200 630 Z" fill="${b.colors.primaryDark}"/>
<rect x="80" y="120" width="120" height="120" rx="28" fill="${b.colors.accent}"/>
<path d="M104 214 L124 146 L142 190 L160 146 L178 214" fill="none" stroke="${b.colors.onAccent}" stroke-width="14" \
stroke-linecap="round" stroke-linejoin="round"/>
<text x="80" y="${330 + Math.round(size / 3)}" font-family="DejaVu Sans, Arial, sans-serif" font-size="${size}" \
font-weight="700" fill="#ffffff">${xml(b.name)}</text>
<text x="80" y="440" font-family="DejaVu Sans, Arial, sans-serif" font-size="40" fill="#ffffff">${xml(b.tagline)}</text>
<rect x="80" y="500" width="160" height="10" rx="5" fill="${b.colors.accent}"/>
</svg>`;
}

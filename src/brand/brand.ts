// The brand's look: the only file (with public/brand/) another chain edits to re-skin the
// site. Names and contacts come from settings (BRAND_*), see src/brand/index.ts.

/** Colours: served as /brand/theme.css (CSS custom properties) and used by the share card. */
export const BRAND_COLORS = {
  /** main colour: header, buttons (white text on it ≥ 4.5:1) */
  primary: '#0b6e4f',
  /** hover and dark surfaces */
  primaryDark: '#084c37',
  /** highlights: focus ring, price tags, the call-to-action bar (dark text on it) */
  accent: '#f2b705',
  /** text on the accent colour */
  onAccent: '#1b1f23',
  /** soft tint behind chips and selected rows */
  tint: '#e2ece8',
} as const;

/** One line under the name on the share card and the home page. */
export const BRAND_TAGLINE = 'Treine perto de casa, do seu jeito.';

/** Files under public/brand/ (the logo is a mark without the name, so BRAND_NAME is enough to rename). */
export const BRAND_FILES = {
  logo: '/brand/logo.svg',
  /** placeholder for a unit without photos */
  placeholder: '/brand/placeholder.svg',
} as const;

/** Generated at run time from the name and colours (1200×630, for og:image). */
export const BRAND_CARD_PATH = '/brand/card.png';
export const BRAND_THEME_PATH = '/brand/theme.css';

// The channel of a survey answer, read in this one place (the survey's form parsing may
// move to the shared form kit; this field moves with it as a unit).
export const ORIGINS = ['site', 'cartaz', 'quiosque'] as const;
export type Origin = (typeof ORIGINS)[number];
export const ORIGIN_LABEL: Record<Origin, string> = {
  site: 'Site',
  cartaz: 'Cartaz (QR code)',
  quiosque: 'Quiosque da recepção',
};

/** Anything unknown (an old page, a typo in a link) counts as the site: never an error. */
export function readOrigin(value: unknown): Origin {
  return typeof value === 'string' && (ORIGINS as readonly string[]).includes(value) ? (value as Origin) : 'site';
}

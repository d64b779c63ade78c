// Unit photos: limits, file names and public URLs. Pure: shared by the pipeline, the
// routes and the public views.
import type { Selectable } from 'kysely';
import type { UnidadeFotosTable } from '../../db/types';

export const MAX_UNIT_PHOTOS = 8;
/** a unit photo is a prepared picture, not a raw 48 MP capture */
export const MAX_UNIT_PHOTO_BYTES = 10 * 1024 * 1024;
export const ALT_MIN = 3;
export const ALT_MAX = 200;
/** srcset widths; a smaller original is never enlarged */
export const PHOTO_WIDTHS = [480, 960, 1440] as const;
export type PhotoFormat = 'avif' | 'webp' | 'jpg';
/** the copies a new photo gets, best first; JPEG is the fallback every browser shows (docs/decisions/150) */
export const PHOTO_FORMATS: PhotoFormat[] = ['avif', 'webp', 'jpg'];
export const PHOTO_MIME: Record<PhotoFormat, string> = { avif: 'image/avif', webp: 'image/webp', jpg: 'image/jpeg' };

/** A photo as the screen and the catalog read it: the row less its timestamps. */
export type UnitPhoto = Omit<Selectable<UnidadeFotosTable>, 'criado_em' | 'atualizado_em'>;

/** The widths a photo has copies in (each at most the original width), ascending. */
export function photoWidths(original: number): number[] {
  return [...new Set(PHOTO_WIDTHS.map((w) => Math.min(w, original)))].sort((a, b) => a - b);
}

/** Where a copy is kept in the storage (relative path). */
export function photoStoragePath(unitId: number, hash: string, width: number, format: PhotoFormat): string {
  return `unidade_fotos/${unitId}/${hash}-${width}.${format}`;
}

/** Its public, content-hashed URL (served with an immutable cache). */
export function photoUrl(unitId: number, hash: string, width: number, format: PhotoFormat): string {
  return `/fotos/unidades/${unitId}/${hash}-${width}.${format}`;
}

export const PHOTO_FILE = /^([a-f0-9]{16})-(\d{2,4})\.(avif|webp|jpg)$/;

/**
 * The formats a new photo keeps, given the bytes of all its copies per format. Browsers take
 * the AVIF first, so it is dropped when clearly larger than the WebP (fine noise can do
 * that): more than 10 % plus 2 KB, a margin that covers AVIF's fixed overhead on tiny files.
 */
export function formatsToKeep(bytes: Record<PhotoFormat, number>): PhotoFormat[] {
  return bytes.avif <= bytes.webp * 1.1 + 2048 ? PHOTO_FORMATS : PHOTO_FORMATS.filter((f) => f !== 'avif');
}

/** The formats a photo has copies in, in PHOTO_FORMATS order. */
export function photoFormats(photo: Pick<UnitPhoto, 'formatos'>): PhotoFormat[] {
  const listed = photo.formatos.split(',');
  return PHOTO_FORMATS.filter((f) => listed.includes(f));
}

/** Height of a copy `width` wide, keeping the proportions. */
export function heightAt(photo: Pick<UnitPhoto, 'largura' | 'altura'>, width: number): number {
  return Math.round((photo.altura * width) / photo.largura);
}

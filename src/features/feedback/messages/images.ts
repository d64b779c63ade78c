// Free-message photos: the rules of this form over the shared upload pipeline
// (src/platform/storage/images.ts, multipart.ts). See docs/decisions/030 and 072.
import type { ImageVariant } from '../../../platform/storage/images';

export { IMAGE_TYPES, ImageRejectedError, processImage } from '../../../platform/storage/images';
export type { ProcessedImage } from '../../../platform/storage/images';

export const MAX_IMAGES = 2;
/** a 48-megapixel phone photo is 8–20 MB */
export const MAX_IMAGE_BYTES = 20 * 1024 * 1024;
/** Stored copies are bounded: staff look at them on a screen. */
export const MAX_STORED_SIDE = 2048;
/** one stored copy per photo, in its own format */
export const MESSAGE_PHOTO_VARIANTS: ImageVariant[] = [{ name: '', maxSide: MAX_STORED_SIDE }];
export const IMAGE_FIELDS = ['arquivos[]', 'arquivos'] as const;

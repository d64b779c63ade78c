// Customer photos: judged by their content, decoded with a pixel limit, auto-rotated and
// re-encoded in the same format with NO metadata (GPS, camera, owner). The customer's
// original bytes are never written to disk. See docs/decisions/030.
import { createHash } from 'node:crypto';
import type { Metadata, OutputInfo } from 'sharp';

// sharp (libvips) is loaded on the first photo, not at start-up: it adds ~16 MB to every
// process, most of which never receives a photo.
let sharpModule: Promise<typeof import('sharp')> | undefined;
async function loadSharp() {
  sharpModule ??= import('sharp');
  return (await sharpModule).default;
}

export const MAX_IMAGES = 2;
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
/** 40 megapixels: every phone camera fits; a decompression bomb does not. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Stored copies are bounded too: staff look at them on a screen. */
export const MAX_STORED_SIDE = 4096;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export const IMAGE_TYPES: Record<ImageFormat, { mime: string; ext: string }> = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  webp: { mime: 'image/webp', ext: 'webp' },
};

/** The format announced by the first bytes, or null (SVG, text, anything else). */
export function sniffImageFormat(data: Buffer): ImageFormat | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') return 'webp';
  return null;
}

export interface ProcessedImage {
  data: Buffer;
  format: ImageFormat;
  mime: string;
  ext: string;
  width: number;
  height: number;
  size: number;
  sha256: string;
}

export class ImageRejectedError extends Error {
  constructor(
    public readonly reason: 'type' | 'decode' | 'pixels',
    message: string,
  ) {
    super(message);
    this.name = 'ImageRejectedError';
  }
}

/**
 * Validates and re-encodes one photo. Throws ImageRejectedError with a pt-BR message the
 * customer can act on; never returns the input bytes.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  const claimed = sniffImageFormat(input);
  if (!claimed) {
    throw new ImageRejectedError('type', 'Envie apenas fotos JPEG, PNG ou WebP.');
  }
  const sharp = await loadSharp();
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error).message))) {
      throw new ImageRejectedError('pixels', 'A imagem tem pixels demais (máximo de 40 megapixels).');
    }
    throw new ImageRejectedError('decode', 'Não conseguimos ler esta imagem. Envie uma foto JPEG, PNG ou WebP.');
  }
  // The magic bytes and the decoder must agree: a polyglot claiming to be a JPEG is refused.
  if (meta.format !== claimed) {
    throw new ImageRejectedError('type', 'Envie apenas fotos JPEG, PNG ou WebP.');
  }
  if (!meta.width || !meta.height || meta.width * meta.height > MAX_INPUT_PIXELS) {
    throw new ImageRejectedError('pixels', 'A imagem tem pixels demais (máximo de 40 megapixels).');
  }
  let output: { data: Buffer; info: OutputInfo };
  try {
    let pipeline = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS })
      // EXIF orientation applied to the pixels, since the tag itself is dropped below.
      .rotate()
      .resize({ width: MAX_STORED_SIDE, height: MAX_STORED_SIDE, fit: 'inside', withoutEnlargement: true });
    // No withMetadata()/keepMetadata(): sharp writes no EXIF, XMP, IPTC or ICC by default.
    if (claimed === 'jpeg') pipeline = pipeline.jpeg({ quality: 85 });
    else if (claimed === 'png') pipeline = pipeline.png({ compressionLevel: 9 });
    else pipeline = pipeline.webp({ quality: 85 });
    output = await pipeline.toBuffer({ resolveWithObject: true });
  } catch (err) {
    if (/pixel limit/i.test(String((err as Error).message))) {
      throw new ImageRejectedError('pixels', 'A imagem tem pixels demais (máximo de 40 megapixels).');
    }
    throw new ImageRejectedError('decode', 'Não conseguimos ler esta imagem. Envie uma foto JPEG, PNG ou WebP.');
  }
  const { data, info } = output;
  return {
    data,
    format: claimed,
    mime: IMAGE_TYPES[claimed].mime,
    ext: IMAGE_TYPES[claimed].ext,
    width: info.width,
    height: info.height,
    size: data.length,
    sha256: createHash('sha256').update(data).digest('hex'),
  };
}

/** The client's filename as bounded, printable metadata (never used as a path). */
export function sanitizeOriginalName(name: string | undefined | null): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean) return null;
  return [...clean].slice(0, 120).join('');
}

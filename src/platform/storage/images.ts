// The one image pipeline for every upload (docs/decisions/072): judged by content, the
// size read from the header BEFORE any decoding (a decompression bomb never gets
// decoded), at most two decodes at once, shrink-on-load where the format allows,
// auto-rotated and re-encoded with NO metadata (GPS, camera, owner). Callers choose their
// size variants (the free message keeps one; unit photos may ask for several).
import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Metadata, OutputInfo, Sharp } from 'sharp';

// sharp (libvips) is loaded on the first image, not at start-up: it adds ~25 MB to every
// process, most of which never receives a photo (docs/decisions/135). Every user of sharp
// (uploads, unit photos, the brand's share card, demo photos) loads it through here.
let sharpModule: Promise<typeof import('sharp')['default']> | undefined;
export async function loadSharp() {
  sharpModule ??= import('sharp').then(
    (m) => {
      const sharp = m.default;
      // libvips' operation cache would keep decoded images of past uploads in memory.
      sharp.cache(false);
      return sharp;
    },
    (err: unknown) => {
      // Not cached: the next image tries again (and fails with the same clear message).
      sharpModule = undefined;
      throw new Error(`sharp (libvips) could not be loaded; images cannot be processed: ${(err as Error).message}`, {
        cause: err,
      });
    },
  );
  return sharpModule;
}

/** 50 megapixels: every phone camera fits (12–48 MP, 50 MP sensors); a bomb does not. */
export const MAX_INPUT_PIXELS = 50_000_000;
/** at most this many images are decoded at once; the others wait their turn */
export const MAX_CONCURRENT_DECODES = 2;

export type ImageFormat = 'jpeg' | 'png' | 'webp';

export const IMAGE_TYPES: Record<ImageFormat, { mime: string; ext: string }> = {
  jpeg: { mime: 'image/jpeg', ext: 'jpg' },
  png: { mime: 'image/png', ext: 'png' },
  webp: { mime: 'image/webp', ext: 'webp' },
};

const FORMAT_LABEL: Record<ImageFormat, string> = { jpeg: 'JPEG', png: 'PNG', webp: 'WebP' };

/** What a file name's extension claims; null = no claim (no extension, or not an image name). */
const EXTENSION_CLAIMS: Record<string, ImageFormat | 'other'> = {
  jpg: 'jpeg',
  jpeg: 'jpeg',
  jpe: 'jpeg',
  jfif: 'jpeg',
  png: 'png',
  webp: 'webp',
  gif: 'other',
  heic: 'other',
  heif: 'other',
  avif: 'other',
  bmp: 'other',
  tif: 'other',
  tiff: 'other',
  svg: 'other',
  // not images at all
  txt: 'other',
  html: 'other',
  htm: 'other',
  pdf: 'other',
  exe: 'other',
  js: 'other',
  php: 'other',
  zip: 'other',
};

/** The format announced by the first bytes, or null (SVG, text, anything else). */
export function sniffImageFormat(data: Buffer): ImageFormat | null {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP')
    return 'webp';
  return null;
}

export interface ImageVariant {
  /** a name for the caller ("", "miniatura", …) */
  name: string;
  /** the longest side is at most this (never enlarged) */
  maxSide: number;
  /** output format; default the input's own */
  format?: ImageFormat;
  quality?: number;
}

export interface ProcessedImage {
  variant: string;
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
    public readonly reason: 'type' | 'mismatch' | 'decode' | 'pixels',
    message: string,
  ) {
    super(message);
    this.name = 'ImageRejectedError';
  }
}

const NOT_AN_IMAGE = 'Envie apenas fotos JPEG, PNG ou WebP.';
const UNREADABLE = 'Não conseguimos ler esta imagem. Envie uma foto JPEG, PNG ou WebP.';
const tooManyPixels = (mp: number) =>
  `A imagem tem ${mp.toLocaleString('pt-BR', { maximumFractionDigits: 0 })} megapixels; o máximo é \
${MAX_INPUT_PIXELS / 1_000_000} megapixels. Reduza a resolução e envie de novo.`;

/** A tiny FIFO semaphore: at most `max` holders, the rest wait in order. */
export class Semaphore {
  #active = 0;
  #peak = 0;
  readonly #waiting: (() => void)[] = [];
  constructor(readonly max: number) {}
  get active() {
    return this.#active;
  }
  get waiting() {
    return this.#waiting.length;
  }
  /** the most holders seen at once (tests check the cap) */
  get peak() {
    return this.#peak;
  }
  resetPeak() {
    this.#peak = this.#active;
  }
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.#active >= this.max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#active++;
    this.#peak = Math.max(this.#peak, this.#active);
    try {
      return await fn();
    } finally {
      const next = this.#waiting.shift();
      // The slot passes straight to the next in line (active stays the same).
      if (next) next();
      else this.#active--;
    }
  }
}

/** Every decode of the process goes through this gate. */
export const decodeGate = new Semaphore(MAX_CONCURRENT_DECODES);

function extensionOf(filename: string | null | undefined): string | null {
  const m = /\.([A-Za-z0-9]{1,8})$/.exec(filename ?? '');
  return m ? m[1]!.toLowerCase() : null;
}

/** The first bytes of a spool file (for the sniff), without reading the rest. */
async function firstBytes(file: string, n = 16): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await handle.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function readHeader(input: Buffer | string, sharp: Awaited<ReturnType<typeof loadSharp>>): Promise<Metadata> {
  try {
    // Header only: no pixel is decoded here. The pixel limit is checked by us below,
    // with a message naming the size, so it is off for this call.
    return await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejectedError('decode', UNREADABLE);
  }
}

/**
 * Checks and re-encodes one image into each variant. Throws ImageRejectedError with a
 * pt-BR message the customer can act on; never returns the input bytes.
 * `input` is the bytes or, better, the path of a spool file (decoded from disk in strips).
 * `filename` (the client's label) only matters when its extension contradicts the content.
 */
export async function processImage(
  input: Buffer | string,
  options: { variants: ImageVariant[]; filename?: string | null },
): Promise<ProcessedImage[]> {
  const claimed = sniffImageFormat(typeof input === 'string' ? await firstBytes(input) : input);
  if (!claimed) throw new ImageRejectedError('type', NOT_AN_IMAGE);
  const named = EXTENSION_CLAIMS[extensionOf(options.filename) ?? ''];
  if (named && named !== claimed) {
    throw new ImageRejectedError(
      'mismatch',
      named === 'other'
        ? `O nome do arquivo não é de uma foto JPEG, PNG ou WebP, mas o conteúdo é ${FORMAT_LABEL[claimed]}. Envie a ` +
            `foto original, sem renomear.`
        : `O nome diz ${FORMAT_LABEL[named]}, mas o conteúdo é ${FORMAT_LABEL[claimed]}. Envie a foto original, sem ` +
            `renomear.`,
    );
  }
  const sharp = await loadSharp();
  const meta = await readHeader(input, sharp);
  // The magic bytes and the decoder must agree: a polyglot claiming to be a JPEG is refused.
  if (meta.format !== claimed) throw new ImageRejectedError('type', NOT_AN_IMAGE);
  const pixels = (meta.width ?? 0) * (meta.height ?? 0);
  if (!pixels) throw new ImageRejectedError('decode', UNREADABLE);
  if (pixels > MAX_INPUT_PIXELS) throw new ImageRejectedError('pixels', tooManyPixels(pixels / 1_000_000));

  return decodeGate.run(async () => {
    const out: ProcessedImage[] = [];
    for (const variant of options.variants) {
      const format = variant.format ?? claimed;
      let pipeline: Sharp = sharp(input, {
        limitInputPixels: MAX_INPUT_PIXELS,
        // Top to bottom in strips: the whole decoded image is never held at once.
        sequentialRead: true,
        failOn: 'error',
      })
        // EXIF orientation applied to the pixels, since the tag itself is dropped below.
        .rotate()
        // fastShrinkOnLoad (the default) lets libjpeg/libwebp decode at 1/2, 1/4, 1/8 size.
        .resize({
          width: variant.maxSide,
          height: variant.maxSide,
          fit: 'inside',
          withoutEnlargement: true,
          fastShrinkOnLoad: true,
        });
      // No withMetadata()/keepMetadata(): sharp writes no EXIF, XMP, IPTC or ICC by default.
      if (format === 'jpeg') pipeline = pipeline.jpeg({ quality: variant.quality ?? 85, mozjpeg: false });
      else if (format === 'png') pipeline = pipeline.png({ compressionLevel: 6 });
      else pipeline = pipeline.webp({ quality: variant.quality ?? 85 });
      let result: { data: Buffer; info: OutputInfo };
      try {
        result = await pipeline.toBuffer({ resolveWithObject: true });
      } catch (err) {
        if (/pixel limit/i.test(String((err as Error).message)))
          throw new ImageRejectedError('pixels', tooManyPixels(pixels / 1_000_000));
        throw new ImageRejectedError('decode', UNREADABLE);
      }
      out.push({
        variant: variant.name,
        data: result.data,
        format,
        mime: IMAGE_TYPES[format].mime,
        ext: IMAGE_TYPES[format].ext,
        width: result.info.width,
        height: result.info.height,
        size: result.data.length,
        sha256: createHash('sha256').update(result.data).digest('hex'),
      });
    }
    return out;
  });
}

/** The client's file name as a label only (never a path): last path part, printable, ≤ 255 characters. */
export function sanitizeOriginalName(name: string | undefined | null): string | null {
  if (!name) return null;
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    .normalize('NFC')
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  if (!clean || clean === '.' || clean === '..') return null;
  return [...clean].slice(0, 255).join('');
}

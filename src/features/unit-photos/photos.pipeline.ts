// A staff photo goes through the shared upload pipeline (processImage: judged by content,
// pixel limit, auto-rotated, re-encoded without metadata), then is resized into the copies
// the public pages serve. Files go through the storage interface: put (temporary) here,
// commit inside the transaction that inserts the row, delete on failure.
import type { FileStorage } from '../../platform/storage/index';
import { loadSharp, processImage } from '../../platform/storage/images';
import { formatsToKeep, PHOTO_FORMATS, PHOTO_MIME, photoStoragePath, photoWidths, type PhotoFormat } from './photos';

/** The cleaned original is kept at most this long on its longest side before the copies are made. */
const BASE_MAX_SIDE = 2880;

export interface PreparedPhoto {
  hash: string;
  largura: number;
  altura: number;
  formatos: string;
  /** every copy, encoded in memory (a few hundred KB in all), not stored yet */
  files: { key: string; data: Buffer; type: string }[];
}

export interface StoredPhoto {
  hash: string;
  largura: number;
  altura: number;
  formatos: string;
  /** temporary until committed with the row (and recorded in unidade_fotos_arquivos) */
  keys: string[];
}

/**
 * AVIF at effort 1: sharp's default effort (4) took ~30 s for the three widths of a 12 MP
 * photo here; effort 1 costs about 0.3–0.7 s of CPU, for files ~40 % smaller than the WebP
 * on real photos (docs/decisions/150).
 */
function encode(pipeline: import('sharp').Sharp, format: PhotoFormat) {
  if (format === 'avif') return pipeline.avif({ quality: 50, effort: 1 });
  if (format === 'webp') return pipeline.webp({ quality: 72 });
  return pipeline.jpeg({ quality: 78, mozjpeg: true, progressive: true });
}

/** Validates, re-encodes and makes every copy, storing nothing. Throws ImageRejectedError for a bad image. */
export async function prepareUnitPhoto(
  unitId: number,
  input: Buffer,
  filename?: string | null,
): Promise<PreparedPhoto> {
  const [clean] = await processImage(input, {
    variants: [{ name: 'base', maxSide: BASE_MAX_SIDE, format: 'jpeg', quality: 90 }],
    filename,
  });
  const sharp = await loadSharp();
  const hash = clean!.sha256.slice(0, 16);
  const files: (PreparedPhoto['files'][number] & { format: PhotoFormat })[] = [];
  for (const width of photoWidths(clean!.width)) {
    for (const format of PHOTO_FORMATS) {
      const pipeline = sharp(clean!.data).resize({ width, withoutEnlargement: true });
      const data = await encode(pipeline, format).toBuffer();
      files.push({ key: photoStoragePath(unitId, hash, width, format), data, type: PHOTO_MIME[format], format });
    }
  }
  const bytes = (format: PhotoFormat) =>
    files.filter((f) => f.format === format).reduce((n, f) => n + f.data.length, 0);
  const formats = formatsToKeep({ avif: bytes('avif'), webp: bytes('webp'), jpg: bytes('jpg') });
  return {
    hash,
    largura: clean!.width,
    altura: clean!.height,
    formatos: formats.join(','),
    files: files.filter((f) => formats.includes(f.format)).map(({ key, data, type }) => ({ key, data, type })),
  };
}

/** Puts every copy (temporary); on failure removes what it put and throws. */
export async function putUnitPhoto(storage: FileStorage, photo: PreparedPhoto): Promise<StoredPhoto> {
  const keys: string[] = [];
  try {
    for (const file of photo.files) {
      await storage.put(file.key, file.data, file.type);
      keys.push(file.key);
    }
  } catch (err) {
    await Promise.all(keys.map((k) => storage.delete(k)));
    throw err;
  }
  return { hash: photo.hash, largura: photo.largura, altura: photo.altura, formatos: photo.formatos, keys };
}

/** prepareUnitPhoto + putUnitPhoto (the demo seed). */
export async function storeUnitPhoto(
  storage: FileStorage,
  unitId: number,
  input: Buffer,
  filename?: string | null,
): Promise<StoredPhoto> {
  return putUnitPhoto(storage, await prepareUnitPhoto(unitId, input, filename));
}

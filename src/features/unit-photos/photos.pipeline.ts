// A staff photo goes through the shared upload pipeline (processImage: judged by content,
// pixel limit, auto-rotated, re-encoded without metadata), then is resized into the copies
// the public pages serve. Files go through the storage interface: put (temporary) here,
// commit inside the transaction that inserts the row, delete on failure.
import type { FileStorage } from '../storage/index';
import { loadSharp, processImage } from '../storage/images';
import { PHOTO_FORMATS, PHOTO_MIME, photoStoragePath, photoWidths } from './photos';

/** The cleaned original is kept at most this long on its longest side before the copies are made. */
const BASE_MAX_SIDE = 2880;

export interface StoredPhoto {
  hash: string;
  largura: number;
  altura: number;
  /** temporary until committed with the row */
  keys: string[];
}

/** Validates, re-encodes and puts every copy (temporary). Throws ImageRejectedError for a bad image. */
export async function storeUnitPhoto(storage: FileStorage, unitId: number, input: Buffer, filename?: string | null): Promise<StoredPhoto> {
  const [clean] = await processImage(input, { variants: [{ name: 'base', maxSide: BASE_MAX_SIDE, format: 'jpeg', quality: 90 }], filename });
  const sharp = await loadSharp();
  const hash = clean!.sha256.slice(0, 16);
  const keys: string[] = [];
  try {
    for (const width of photoWidths(clean!.width)) {
      for (const format of PHOTO_FORMATS) {
        const pipeline = sharp(clean!.data).resize({ width, withoutEnlargement: true });
        const data = await (format === 'webp' ? pipeline.webp({ quality: 72 }) : pipeline.jpeg({ quality: 78, mozjpeg: true, progressive: true })).toBuffer();
        const key = photoStoragePath(unitId, hash, width, format);
        await storage.put(key, data, PHOTO_MIME[format]);
        keys.push(key);
      }
    }
  } catch (err) {
    await Promise.all(keys.map((k) => storage.delete(k)));
    throw err;
  }
  return { hash, largura: clean!.width, altura: clean!.height, keys };
}

/** Every copy's key of a photo. */
export function unitPhotoKeys(unitId: number, photo: { hash: string; largura: number }): string[] {
  return photoWidths(photo.largura).flatMap((w) => PHOTO_FORMATS.map((f) => photoStoragePath(unitId, photo.hash, w, f)));
}

/** Removes every copy of a photo (missing files are fine). */
export async function removeUnitPhotoFiles(storage: FileStorage, unitId: number, photo: { hash: string; largura: number }): Promise<void> {
  await Promise.all(unitPhotoKeys(unitId, photo).map((k) => storage.delete(k)));
}

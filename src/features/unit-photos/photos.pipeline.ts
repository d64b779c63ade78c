// A staff photo goes through the same safe pipeline as customer photos (processImage:
// judged by content, pixel limit, auto-rotated, re-encoded without metadata), then is
// resized into the copies the public pages serve. Files go through the storage interface.
import type { FileStorage } from '../storage/index';
import { processImage } from '../feedback/images';
import { PHOTO_FORMATS, photoStoragePath, photoWidths, type PhotoFormat } from './photos';

let sharpModule: Promise<typeof import('sharp')> | undefined;
async function loadSharp() {
  sharpModule ??= import('sharp');
  return (await sharpModule).default;
}

export interface StoredPhoto {
  hash: string;
  largura: number;
  altura: number;
  paths: string[];
}

/** Validates, re-encodes and stores every copy. Throws ImageRejectedError for a bad image. */
export async function storeUnitPhoto(storage: FileStorage, unitId: number, input: Buffer): Promise<StoredPhoto> {
  const clean = await processImage(input);
  const sharp = await loadSharp();
  const hash = clean.sha256.slice(0, 16);
  const paths: string[] = [];
  try {
    for (const width of photoWidths(clean.width)) {
      for (const format of PHOTO_FORMATS) {
        const pipeline = sharp(clean.data).resize({ width, withoutEnlargement: true });
        const data = await (format === 'webp' ? pipeline.webp({ quality: 72 }) : pipeline.jpeg({ quality: 78, mozjpeg: true, progressive: true })).toBuffer();
        const file = photoStoragePath(unitId, hash, width, format as PhotoFormat);
        // The same photo uploaded twice has the same names: the copy is already there.
        if ((await storage.size(file)) === null) await storage.write(file, data);
        paths.push(file);
      }
    }
  } catch (err) {
    await Promise.all(paths.map((p) => storage.remove(p)));
    throw err;
  }
  return { hash, largura: clean.width, altura: clean.height, paths };
}

/** Removes every copy of a photo (missing files are fine). */
export async function removeUnitPhotoFiles(storage: FileStorage, unitId: number, photo: { hash: string; largura: number }): Promise<void> {
  const files = photoWidths(photo.largura).flatMap((w) => PHOTO_FORMATS.map((f) => photoStoragePath(unitId, photo.hash, w, f)));
  await Promise.all(files.map((f) => storage.remove(f)));
}

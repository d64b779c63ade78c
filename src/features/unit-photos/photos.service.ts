// Rules for unit photos: at most 8 per unit, an alt text for each, order, removal.
import { nowIso } from '../../db/index';
import type { Transactional } from '../../db/transactional';
import { cleanText } from '../../lib/text';
import type { FileStorage } from '../../platform/storage/index';
import { ImageRejectedError } from '../../platform/storage/images';
import { ALT_MAX, ALT_MIN, MAX_UNIT_PHOTOS } from './photos';
import { prepareUnitPhoto, putUnitPhoto } from './photos.pipeline';
import type { PhotosRepository } from './photos.repository';

export interface PhotoErrors {
  foto?: string;
  alt?: string;
}

export type PhotoOutcome = { ok: true } | { ok: false; status: 413 | 422 | 404; errors: PhotoErrors };

export function checkAlt(raw: unknown): { alt: string } | { error: string } {
  const alt = cleanText(raw).replace(/\s+/g, ' ');
  const length = [...alt].length;
  if (length < ALT_MIN)
    return { error: 'Descreva a foto em poucas palavras, por exemplo “Sala de musculação com janelas amplas”.' };
  if (length > ALT_MAX) return { error: `Use no máximo ${ALT_MAX} caracteres.` };
  return { alt };
}

export function createPhotosService(repo: Transactional<PhotosRepository>, storage: FileStorage, onChange: () => void) {
  return {
    unit: (id: number) => repo.unit(id),
    list: (unitId: number) => repo.list(unitId),

    async upload(
      unitId: number,
      usuarioId: number | null,
      input: { alt: unknown; file: Buffer | null; filename?: string | null; tooLarge: boolean },
    ): Promise<PhotoOutcome> {
      const errors: PhotoErrors = {};
      const alt = checkAlt(input.alt);
      if ('error' in alt) errors.alt = alt.error;
      if (input.tooLarge)
        return {
          ok: false,
          status: 413,
          errors: { ...errors, foto: 'A foto passa de 10 MB. Envie uma versão menor.' },
        };
      if (!input.file || input.file.length === 0) errors.foto = 'Escolha uma foto JPEG, PNG ou WebP.';
      const current = await repo.list(unitId);
      if (current.length >= MAX_UNIT_PHOTOS) {
        errors.foto = `Cada unidade pode ter até ${MAX_UNIT_PHOTOS} fotos. Remova uma antes de enviar outra.`;
      }
      if (errors.alt || errors.foto) return { ok: false, status: 422, errors };
      let prepared;
      try {
        prepared = await prepareUnitPhoto(unitId, input.file!, input.filename);
      } catch (err) {
        if (err instanceof ImageRejectedError) return { ok: false, status: 422, errors: { foto: err.message } };
        throw err;
      }
      const duplicate: PhotoOutcome = {
        ok: false,
        status: 422,
        errors: { foto: 'Esta foto já está entre as fotos da unidade.' },
      };
      // Checked before anything is stored: the copies would have the same keys as the photo already there.
      if (await repo.hashInUse(unitId, prepared.hash)) return duplicate;
      const stored = await putUnitPhoto(storage, prepared);
      const text = (alt as { alt: string }).alt;
      // Never removes a key some row holds (the same photo committed meanwhile by another
      // request); a temporary copy left that way is the sweep's.
      const discard = async () => {
        const used = await repo.keysInUse(stored.keys);
        await Promise.all(stored.keys.filter((k) => !used.has(k)).map((k) => storage.delete(k)));
      };
      const id = await repo
        .transaction(async (trx, tx) => {
          // counted again inside the transaction: two uploads at once cannot make nine
          await trx.lockUnit(unitId);
          const rows = await trx.list(unitId);
          if (rows.length >= MAX_UNIT_PHOTOS) return 'full' as const;
          if (rows.some((r) => r.hash === stored.hash)) return 'duplicate' as const;
          const now = nowIso();
          const ordem = rows.reduce((m, r) => Math.max(m, r.ordem), 0) + 1;
          const newId = await trx.insert(
            {
              unidade_id: unitId,
              ordem,
              alt: text,
              hash: stored.hash,
              largura: stored.largura,
              altura: stored.altura,
              formatos: stored.formatos,
            },
            now,
          );
          await trx.insertFiles(newId, stored.keys);
          await trx.audit(usuarioId, 'criar', newId, null, { unidade_id: unitId, alt: text, hash: stored.hash }, now);
          // the files become final exactly with the row that records their keys
          await storage.commit(tx, stored.keys);
          return newId;
        })
        .catch(async (err) => {
          await discard();
          throw err;
        });
      if (id === 'duplicate' || id === 'full') {
        await discard();
        return id === 'duplicate'
          ? duplicate
          : {
              ok: false,
              status: 422,
              errors: { foto: `Cada unidade pode ter até ${MAX_UNIT_PHOTOS} fotos. Remova uma antes de enviar outra.` },
            };
      }
      onChange();
      return { ok: true };
    },

    async setAlt(unitId: number, photoId: number, usuarioId: number | null, raw: unknown): Promise<PhotoOutcome> {
      const alt = checkAlt(raw);
      if ('error' in alt) return { ok: false, status: 422, errors: { alt: alt.error } };
      const found = await repo.transaction(async (trx) => {
        const before = await trx.find(unitId, photoId);
        if (!before) return false;
        const now = nowIso();
        await trx.setAlt(photoId, alt.alt, now);
        await trx.audit(usuarioId, 'editar', photoId, { alt: before.alt }, { alt: alt.alt }, now);
        return true;
      });
      if (!found) return { ok: false, status: 404, errors: {} };
      onChange();
      return { ok: true };
    },

    /** Moves a photo one place up (towards the cover) or down. */
    async move(
      unitId: number,
      photoId: number,
      usuarioId: number | null,
      direction: 'subir' | 'descer',
    ): Promise<PhotoOutcome> {
      const ids = (await repo.list(unitId)).map((p) => p.id);
      const i = ids.indexOf(photoId);
      if (i < 0) return { ok: false, status: 404, errors: {} };
      const j = direction === 'subir' ? i - 1 : i + 1;
      if (j < 0 || j >= ids.length) return { ok: true };
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
      await repo.transaction(async (trx) => {
        const now = nowIso();
        for (const [k, id] of ids.entries()) await trx.setOrder(unitId, id, k + 1, now);
        await trx.audit(usuarioId, 'ordenar', photoId, null, { ordem: ids }, now);
      });
      onChange();
      return { ok: true };
    },

    async remove(unitId: number, photoId: number, usuarioId: number | null): Promise<PhotoOutcome> {
      const keys = await repo.transaction(async (trx) => {
        const found = await trx.find(unitId, photoId);
        if (!found) return undefined;
        const fileKeys = await trx.fileKeys(photoId);
        const now = nowIso();
        await trx.delete(photoId);
        await trx.audit(usuarioId, 'excluir', photoId, { alt: found.alt, hash: found.hash }, null, now);
        return fileKeys;
      });
      if (!keys) return { ok: false, status: 404, errors: {} };
      // After the commit: a crash before this line leaves files no row records, which the sweep removes.
      await Promise.all(keys.map((k) => storage.delete(k)));
      onChange();
      return { ok: true };
    },
  };
}

export type PhotosService = ReturnType<typeof createPhotosService>;

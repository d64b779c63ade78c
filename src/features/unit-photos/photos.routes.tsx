// Unit photos over HTTP: the staff screen (admins) and the public, content-hashed files.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { invalidBody, sendError, wantsJson } from '../../http/errors';
import { staffOf } from '../../staff/scope';
import type { FileStorage } from '../../platform/storage/index';
import { MAX_UNIT_PHOTO_BYTES, PHOTO_FILE, PHOTO_MIME, photoStoragePath, type PhotoFormat } from './photos';
import type { PhotoErrors, PhotosService } from './photos.service';
import { PhotosPage, photosPath } from './photos.view';
import { uploadRoutes } from '../../http/forms';
import { IdParam } from '../../http/params';
import { toId } from '../../lib/form/index';

const UnitParams = Type.Object({ id: IdParam });
const PhotoParams = Type.Object({ id: IdParam, foto: IdParam });

interface PhotoUpload {
  fields: Record<string, string>;
  file: Buffer | null;
  filename?: string;
  tooLarge: boolean;
}
const uploads = new WeakMap<FastifyRequest, PhotoUpload>();

/** Reads one photo (≤ 10 MB) and the text fields of the upload form; the CSRF check runs next. */
async function readPhotoUpload(request: FastifyRequest): Promise<void> {
  const parsed: PhotoUpload = { fields: {}, file: null, tooLarge: false };
  uploads.set(request, parsed);
  if (!request.isMultipart()) return;
  try {
    const options = { limits: { files: 1, fileSize: MAX_UNIT_PHOTO_BYTES }, throwFileSizeLimit: false };
    for await (const part of request.parts(options as Parameters<typeof request.parts>[0])) {
      if (part.type === 'file') {
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.file.truncated) parsed.tooLarge = true;
        const data = Buffer.concat(chunks);
        if (part.fieldname === 'foto' && data.length > 0) {
          parsed.file = data;
          parsed.filename = part.filename;
        }
      } else if (typeof part.value === 'string' && !(part.fieldname in parsed.fields)) {
        parsed.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') parsed.tooLarge = true;
    else if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT')
      parsed.tooLarge = true;
    else throw Object.assign(err as Error, { statusCode: (err as { statusCode?: number }).statusCode ?? 400 });
  }
  request.body = parsed.fields;
}

/** Staff routes, for a staff scope of admins (index.ts), like the other unit screens. */
export function photosStaffRoutes(service: PhotosService) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<TypeBoxTypeProvider>();

    async function render(
      request: FastifyRequest,
      reply: FastifyReply,
      unitId: number,
      status = 200,
      extra: { errors?: PhotoErrors & { foto_id?: number }; values?: { alt?: string }; saved?: boolean } = {},
    ) {
      const unit = await service.unit(unitId);
      if (!unit) return sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe.');
      reply.header('cache-control', 'private, no-store');
      return reply.page(
        h(PhotosPage, { staff: request.staffPage, unit, photos: await service.list(unitId), ...extra }),
        status,
      );
    }

    r.get(
      photosPath(0).replace('/0/', '/:id/'),
      {
        schema: { params: UnitParams, querystring: Type.Object({ salvo: Type.Optional(Type.String()) }) },
      },
      async (request, reply) =>
        render(request, reply, Number(request.params.id), 200, { saved: request.query.salvo === '1' }),
    );

    // Takes a file: multipart is parsed in this route's scope only (forms.ts); the staff scope
    // checks the CSRF token after readPhotoUpload.
    await app.register(
      uploadRoutes((scope) => {
        scope.withTypeProvider<TypeBoxTypeProvider>().post(
          photosPath(0).replace('/0/', '/:id/'),
          {
            preHandler: readPhotoUpload,
            schema: { params: UnitParams },
            config: { formPath: '/admin/conteudo/unidades' },
          },
          async (request, reply) => {
            const unitId = Number(request.params.id);
            if (!(await service.unit(unitId)))
              return sendError(request, reply, 404, 'Unidade não encontrada', 'Esta unidade não existe.');
            const upload = uploads.get(request) ?? { fields: {}, file: null, tooLarge: false };
            const result = await service.upload(unitId, staffOf(request).id, {
              alt: upload.fields.alt,
              file: upload.file,
              filename: upload.filename,
              tooLarge: upload.tooLarge,
            });
            if (result.ok) return reply.redirect(`${photosPath(unitId)}?salvo=1`, 303);
            if (wantsJson(request)) return reply.code(result.status).send(invalidBody(result.errors));
            return render(request, reply, unitId, result.status, {
              errors: result.errors,
              values: { alt: upload.fields.alt },
            });
          },
        );
      }),
    );

    r.post(
      `${photosPath(0).replace('/0/', '/:id/')}/:foto`,
      {
        schema: { params: PhotoParams, body: Type.Object({ acao: Type.String(), alt: Type.Optional(Type.String()) }) },
        attachValidation: true,
      },
      async (request, reply) => {
        const unitId = Number(request.params.id);
        const photoId = Number(request.params.foto);
        if (request.validationError)
          return sendError(request, reply, 400, 'Pedido inválido', 'Escolha uma ação na tela de fotos.');
        const { acao, alt } = request.body;
        const userId = staffOf(request).id;
        const result =
          acao === 'alt'
            ? await service.setAlt(unitId, photoId, userId, alt)
            : acao === 'subir' || acao === 'descer'
              ? await service.move(unitId, photoId, userId, acao)
              : acao === 'remover'
                ? await service.remove(unitId, photoId, userId)
                : null;
        if (!result) return sendError(request, reply, 400, 'Pedido inválido', 'Escolha uma ação na tela de fotos.');
        if (result.ok) return reply.redirect(`${photosPath(unitId)}?salvo=1`, 303);
        if (result.status === 404)
          return sendError(request, reply, 404, 'Foto não encontrada', 'Esta foto não existe mais.');
        if (wantsJson(request)) return reply.code(result.status).send(invalidBody(result.errors));
        return render(request, reply, unitId, result.status, {
          errors: { ...result.errors, foto_id: photoId },
          values: { alt },
        });
      },
    );
  };
}

/** Public: the photo copies, only while the photo is on an active unit (per the catalog snapshot). */
export function photoFileRoutes(app: FastifyInstance, storage: FileStorage) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  r.get(
    '/fotos/unidades/:unit/:file',
    { schema: { params: Type.Object({ unit: Type.String(), file: Type.String() }) } },
    async (request, reply) => {
      const unitId = toId(request.params.unit);
      const match = PHOTO_FILE.exec(request.params.file);
      const notFound = () => sendError(request, reply, 404, 'Foto não encontrada', 'Esta foto não existe mais.');
      if (unitId === null || !match) return notFound();
      const [, hash, width, format] = match as unknown as [string, string, string, PhotoFormat];
      const snap = await app.catalog.snapshot();
      if (!snap.photosByUnit.get(unitId)?.some((p) => p.hash === hash)) return notFound();
      const file = await storage.get(photoStoragePath(unitId, hash, Number(width), format));
      if (!file) return notFound();
      // The name changes with the content: a copy never changes, so caches may keep it forever.
      reply
        .type(PHOTO_MIME[format])
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('content-length', file.size);
      return reply.send(file.open());
    },
  );
}

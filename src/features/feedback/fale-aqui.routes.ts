import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { h } from 'preact';
import { wantsJson } from '../../http/errors';
import { readMessageFields, type Upload, type UploadProblems } from './fale-aqui.service';
import { FALE_AQUI_PATH, FALE_AQUI_POST_PATH, FaleAquiPage } from './fale-aqui.view';
import { MAX_IMAGE_BYTES, MAX_IMAGES } from './images';
import type { FeedbackServices } from './services';
import { THANKS_PATH } from './survey.view';

interface ParsedUpload {
  files: Upload[];
  problems: UploadProblems;
}

// The files of a request, kept aside: request.body holds only the text fields, so the
// CSRF check (which reads request.body._token) runs on them before anything is stored.
const uploadsOf = new WeakMap<FastifyRequest, ParsedUpload>();

/**
 * Reads the whole multipart body into memory (at most 3 files × 10 MB: the third is read
 * only to refuse it with a clear message instead of a broken connection).
 */
async function readMultipart(request: FastifyRequest): Promise<void> {
  const parsed: ParsedUpload = { files: [], problems: { tooLarge: false, tooMany: false } };
  uploadsOf.set(request, parsed);
  if (!request.isMultipart()) return; // urlencoded or JSON: formbody/JSON already parsed the body
  const fields: Record<string, string> = {};
  try {
    // throwFileSizeLimit is read at run time though the parts() type omits it: an oversized
    // file is then marked `truncated` and reported with a clear message.
    const options = { limits: { files: MAX_IMAGES + 1, fileSize: MAX_IMAGE_BYTES }, throwFileSizeLimit: false };
    const parts = request.parts(options as Parameters<typeof request.parts>[0]);
    for await (const part of parts) {
      if (part.type === 'file') {
        if (part.fieldname !== 'arquivos[]' && part.fieldname !== 'arquivos') {
          // A file under another field name is not a photo of this form: read and dropped.
          for await (const _chunk of part.file) void _chunk;
          continue;
        }
        const chunks: Buffer[] = [];
        for await (const chunk of part.file) chunks.push(chunk as Buffer);
        if (part.file.truncated) parsed.problems.tooLarge = true;
        const data = Buffer.concat(chunks);
        // An empty file input is sent as a part with no name and no bytes.
        if (!part.filename && data.length === 0) continue;
        parsed.files.push({ filename: part.filename, mimetype: part.mimetype, data });
      } else if (typeof part.value === 'string' && !(part.fieldname in fields)) {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'FST_FILES_LIMIT') parsed.problems.tooMany = true;
    else if (code === 'FST_REQ_FILE_TOO_LARGE') parsed.problems.tooLarge = true;
    else if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') parsed.problems.tooMany = true;
    else throw Object.assign(err as Error, { statusCode: (err as { statusCode?: number }).statusCode ?? 400 });
  }
  request.body = fields;
}

export async function faleAquiRoutes(app: FastifyInstance, services: FeedbackServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const service = services.faleAqui;
  const repo = service.repo;

  async function renderForm(reply: FastifyReply, props: Omit<Parameters<typeof FaleAquiPage>[0], 'units' | 'csrfToken'>, status = 200) {
    reply.header('cache-control', 'no-store');
    return reply.page(h(FaleAquiPage, { ...props, units: await repo.activeUnits(), csrfToken: reply.generateCsrf() }), status);
  }

  r.get(
    FALE_AQUI_PATH,
    // `unidade` (from the unit page's link) preselects the unit like `unidade_id`.
    { schema: { querystring: Type.Object({ unidade_id: Type.Optional(Type.String({ maxLength: 30 })), unidade: Type.Optional(Type.String({ maxLength: 30 })) }) } },
    async (request, reply) => {
      const values = readMessageFields({ unidade_id: request.query.unidade_id || request.query.unidade || '' });
      if (!/^\d{1,9}$/.test(values.unidade_id)) values.unidade_id = '';
      return renderForm(reply, { values, errors: {}, hadFiles: false });
    },
  );

  r.post(
    FALE_AQUI_POST_PATH,
    {
      // The multipart body is a stream: read by readMultipart, checked by the service.
      preHandler: [readMultipart, app.csrfProtection],
      // Each request may hold up to 30 MB in memory while it is checked: a per-address
      // limit keeps one client from filling the memory (a gym's wi-fi stays far below it).
      config: { formPath: FALE_AQUI_PATH, rateLimit: { max: 10, timeWindow: 60_000 } },
    },
    async (request, reply) => {
      const upload = uploadsOf.get(request) ?? { files: [], problems: { tooLarge: false, tooMany: false } };
      const body = (request.body ?? {}) as Record<string, unknown>;
      const result = await service.submit(body, upload.files, upload.problems);
      if (result.status === 'stored') return reply.redirect(THANKS_PATH, 303);
      if (wantsJson(request)) return reply.code(result.httpStatus).send({ errors: result.errors });
      return renderForm(reply, { values: result.values, errors: result.errors, hadFiles: upload.files.length > 0 || upload.problems.tooLarge || upload.problems.tooMany }, result.httpStatus);
    },
  );
}

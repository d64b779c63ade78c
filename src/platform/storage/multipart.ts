// The one reader of multipart bodies (docs/decisions/072). A route puts it BEFORE the CSRF
// check: request.body then holds the text fields only (so the check finds the token), and
// the files wait aside in spool files (UPLOADS_DIR/.spool), bounded by the route's rules,
// until the service judges them. The spool files are removed when the response is done.
import { readFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from '../../http/errors';
import { sanitizeOriginalName } from './images';
import type { Spool } from './spool';

export interface MultipartRules {
  /** field names whose files are kept; a file under another name is read and dropped */
  fileFields: readonly string[];
  /** more files than this is a problem ("tooManyFiles"); one extra part is read to say so politely */
  maxFiles: number;
  /** a bigger file is a problem ("fileTooLarge"); the rest of the body is still read */
  maxFileBytes: number;
  /** text fields (default 40) and bytes per text field (default 64 KB) */
  maxFields?: number;
  maxFieldBytes?: number;
  /** also take urlencoded bodies (no files) — old pages and scripts (default true) */
  allowUrlencoded?: boolean;
}

export type UploadProblem = 'fileTooLarge' | 'tooManyFiles';

export interface ReceivedFile {
  field: string;
  /** the client's file name as a label only: no path parts, printable, ≤ 255 characters */
  label: string | null;
  /** the spool file holding the bytes (removed when the response is done) */
  path: string;
  size: number;
  read(): Promise<Buffer>;
}

export interface ReceivedUpload {
  files: ReceivedFile[];
  /** the first problem met; the files read so far are dropped then */
  problem: UploadProblem | null;
}

const received = new WeakMap<FastifyRequest, ReceivedUpload>();
const releases = new WeakMap<FastifyRequest, () => Promise<void>>();

/**
 * Route-level onSend hook: the spool files of the request are removed before the answer
 * leaves, so a client that got its answer never finds one left (refusals included).
 */
export async function releaseUpload(request: FastifyRequest, _reply: FastifyReply, payload: unknown) {
  await releases.get(request)?.();
  return payload;
}

/** The files the reader kept for this request (none for urlencoded bodies). */
export function receivedUpload(request: FastifyRequest): ReceivedUpload {
  return received.get(request) ?? { files: [], problem: null };
}

const MALFORMED =
  'O formulário chegou incompleto ou corrompido, e nada foi gravado. Abra a página de novo e envie mais uma vez.';

/** A preHandler that reads the body by `rules` (see MultipartRules), spooling files to `spool()`. */
export function multipartReader(rules: MultipartRules, spool: () => Spool) {
  const maxFields = rules.maxFields ?? 40;
  const maxFieldBytes = rules.maxFieldBytes ?? 64 * 1024;

  return async function readMultipart(request: FastifyRequest, reply: FastifyReply) {
    const upload: ReceivedUpload = { files: [], problem: null };
    received.set(request, upload);
    if (!request.isMultipart()) {
      const type = String(request.headers['content-type'] ?? '')
        .split(';')[0]!
        .trim()
        .toLowerCase();
      if (rules.allowUrlencoded !== false && type === 'application/x-www-form-urlencoded') return; // formbody parsed it
      // A JSON (or any other) body to a form: refused before anything else looks at it.
      return sendError(
        request,
        reply,
        415,
        'Formato não aceito',
        'Envie o formulário pela página: este endereço aceita apenas formulários (multipart/form-data).',
      );
    }
    const fields: Record<string, string> = {};
    // Every spool file of this request goes when the answer is sent (or the client leaves).
    const spooled: string[] = [];
    let released: Promise<void> | null = null;
    const release = () =>
      (released ??= Promise.all(spooled.map((file) => spool().remove(file))).then(
        () => undefined,
        (err) => request.log.warn({ err }, 'spool file not removed'),
      ));
    releases.set(request, release);
    // Backstop when no onSend runs (the client went away mid-body).
    reply.raw.once('close', () => void release());
    const drop = () => {
      for (const f of upload.files)
        void spool()
          .remove(f.path)
          .catch(() => {});
      upload.files = [];
    };
    try {
      // throwFileSizeLimit is read at run time though the parts() type omits it: an oversized
      // file is then marked `truncated` and the body is still read to its end.
      const options = {
        limits: {
          files: rules.maxFiles + 1,
          fileSize: rules.maxFileBytes,
          fields: maxFields,
          fieldSize: maxFieldBytes,
          parts: maxFields + rules.maxFiles + 2,
        },
        throwFileSizeLimit: false,
      };
      for await (const part of request.parts(options as Parameters<typeof request.parts>[0])) {
        if (part.type === 'file') {
          const keep = upload.problem === null && rules.fileFields.includes(part.fieldname);
          if (!keep) {
            for await (const _chunk of part.file) void _chunk;
            continue;
          }
          const target = await spool().create();
          spooled.push(target.path);
          let size = 0;
          part.file.on('data', (chunk: Buffer) => (size += chunk.length));
          await pipeline(part.file, target.stream);
          if (part.file.truncated) {
            upload.problem = 'fileTooLarge';
            void spool()
              .remove(target.path)
              .catch(() => {});
            drop();
            continue;
          }
          // An empty file input is sent as a part with no name and no bytes.
          if (!part.filename && size === 0) {
            void spool()
              .remove(target.path)
              .catch(() => {});
            continue;
          }
          const file = target.path;
          upload.files.push({
            field: part.fieldname,
            label: sanitizeOriginalName(part.filename),
            path: file,
            size,
            read: () => readFile(file),
          });
          if (upload.files.length > rules.maxFiles) {
            upload.problem = 'tooManyFiles';
            drop();
          }
        } else {
          if (part.valueTruncated || part.fieldnameTruncated) {
            return sendError(
              request,
              reply,
              413,
              'Campo grande demais',
              `Um dos campos passou de ${Math.floor(maxFieldBytes / 1024)} KB. Nada foi gravado.`,
            );
          }
          // The first value of a name counts (as the urlencoded parser does for our forms).
          if (typeof part.value === 'string' && !Object.hasOwn(fields, part.fieldname))
            fields[part.fieldname] = part.value;
        }
      }
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'FST_FILES_LIMIT') {
        upload.problem ??= 'tooManyFiles';
        drop();
      } else if (code === 'FST_REQ_FILE_TOO_LARGE') {
        upload.problem ??= 'fileTooLarge';
        drop();
      } else if (code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
        return sendError(
          request,
          reply,
          413,
          'Campos demais',
          `O formulário tem mais de ${maxFields} campos. Nada foi gravado.`,
        );
      } else if (code === 'FST_PROTO_VIOLATION') {
        return sendError(request, reply, 400, 'Envio inválido', MALFORMED);
      } else {
        drop();
        // Our own disk failing (spool: ENOSPC, EACCES…) is our fault, not the client's.
        if ((err as NodeJS.ErrnoException).syscall && (err as NodeJS.ErrnoException).code !== 'ECONNRESET') throw err;
        // busboy's "Unexpected end of form", "Malformed part header", a missing boundary…
        const status = (err as { statusCode?: number }).statusCode;
        if (status && status >= 500) throw err;
        request.log.info({ err: { code, message: (err as Error).message } }, 'malformed multipart body refused');
        return sendError(request, reply, 400, 'Envio inválido', MALFORMED);
      }
    }
    request.body = fields;
  };
}

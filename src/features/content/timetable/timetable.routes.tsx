// A unit's timetable: admins for any unit, managers for their own units only.
import { invalidBody } from '../../../http/errors';
import { uploadRoutes } from '../../../http/forms';
import { toId } from '../../../lib/form/index';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Type from 'typebox';
import { canAccessUnit } from '../../identity/access';
import {
  done,
  FormBody,
  formValues,
  IdParams,
  IdSubParams,
  NoticeQuery,
  notFound,
  requireUnitAccess,
  sendInvalid,
  staffProps,
} from '../../../staff/http';
import type { ContentServices } from '../services';
import { multipartReader, receivedUpload, releaseUpload } from '../../../platform/storage/multipart';
import { parseTimetableCsv } from './timetable-csv';
import { ClassEditPage, CsvPreviewPage, TimetablePage } from './timetable.view';
import type { FieldErrors, FormValues } from '../../../staff/validation';

const MAX_CSV_BYTES = 256 * 1024;

// The CSV upload goes through the shared multipart reader (before the CSRF check, so the
// check finds csrf_token in request.body). The file is kept in memory: it is small text.
let readCsv: ReturnType<typeof multipartReader> | undefined;

async function readUpload(request: FastifyRequest, reply: FastifyReply) {
  readCsv ??= multipartReader(
    { fileFields: ['arquivo'], maxFiles: 1, maxFileBytes: MAX_CSV_BYTES, allowUrlencoded: false },
    () => request.server.uploadSpool,
  );
  await readCsv(request, reply);
  if (reply.sent) return reply;
  const upload = receivedUpload(request);
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (upload.problem) body.arquivo = { tooLarge: true };
  else if (upload.files[0])
    body.arquivo = { filename: upload.files[0].label, data: await upload.files[0].read(), truncated: false };
  request.body = body;
}

export function timetableRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const guard = { preHandler: [app.requireStaff, requireUnitAccess] };
  const guardPost = { preHandler: [app.requireStaff, requireUnitAccess, app.csrfProtection] };
  const base = (id: number) => `/admin/conteudo/unidades/${id}/aulas`;

  async function sources(request: FastifyRequest) {
    // The week of any active unit is public on the site; managers may copy it into their own units.
    const all = await s.units.list();
    return all.filter((u) => u.ativo === 1 || canAccessUnit(request.staff!, u.id));
  }

  async function renderPage(
    request: FastifyRequest,
    reply: FastifyReply,
    unitId: number,
    extra: {
      values?: FormValues;
      errors?: FieldErrors;
      copyErrors?: FieldErrors;
      uploadErrors?: FieldErrors;
      notice?: string;
    } = {},
    status = 200,
  ) {
    const data = await s.timetable.page(unitId);
    if (!data) return notFound(request, reply, 'Unidade não encontrada');
    return reply.page(
      <TimetablePage
        staff={staffProps(request, reply)}
        unit={data.unit}
        classes={data.classes}
        modalities={data.modalities}
        sources={await sources(request)}
        values={extra.values ?? {}}
        errors={extra.errors}
        copyErrors={extra.copyErrors}
        uploadErrors={extra.uploadErrors}
        notice={extra.notice}
      />,
      status,
    );
  }

  r.get(
    '/admin/conteudo/unidades/:id/aulas',
    { ...guard, schema: { params: IdParams, querystring: NoticeQuery } },
    async (request, reply) => renderPage(request, reply, request.params.id, { notice: request.query.ok }),
  );

  r.post(
    '/admin/conteudo/unidades/:id/aulas',
    { ...guardPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await s.timetable.page(id))) return notFound(request, reply, 'Unidade não encontrada');
      const result = await s.timetable.add({ id: request.staff!.id }, id, request.body);
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return renderPage(request, reply, id, { values: formValues(request.body), errors: result.errors }, 422);
      }
      return done(request, reply, `${base(id)}?ok=aula_adicionada`, { id: result.value.id });
    },
  );

  r.post(
    '/admin/conteudo/unidades/:id/aulas/copiar',
    { ...guardPost, schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      if (!(await s.timetable.page(id))) return notFound(request, reply, 'Unidade não encontrada');
      const sourceId = toId(request.body.origem_id);
      const allowed = sourceId !== null && (await sources(request)).some((u) => u.id === sourceId);
      const result =
        allowed && sourceId !== null
          ? await s.timetable.copyFrom({ id: request.staff!.id }, id, sourceId)
          : ({ ok: false, errors: { origem_id: 'Escolha outra unidade para copiar a grade.' } } as const);
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return renderPage(request, reply, id, { copyErrors: result.errors }, 422);
      }
      return done(request, reply, `${base(id)}?ok=grade_copiada`, { aulas: result.value.count });
    },
  );

  // Takes a file: multipart is parsed in this route's scope only (forms.ts).
  app.register(
    uploadRoutes((scope) => {
      scope.withTypeProvider<TypeBoxTypeProvider>().post(
        '/admin/conteudo/unidades/:id/aulas/csv',
        {
          preHandler: [app.requireStaff, requireUnitAccess, readUpload, app.csrfProtection],
          onSend: releaseUpload,
          schema: { params: IdParams },
        },
        async (request, reply) => {
          const id = request.params.id;
          const data = await s.timetable.page(id);
          if (!data) return notFound(request, reply, 'Unidade não encontrada');
          const file = (request.body as { arquivo?: { data?: Buffer; truncated?: boolean; tooLarge?: boolean } })
            .arquivo;
          let problem: string | null = null;
          if (!file) problem = 'Escolha um arquivo CSV.';
          else if (file.tooLarge || file.truncated) problem = 'O arquivo é grande demais (máximo 256 KB).';
          else if (!file.data?.length) problem = 'O arquivo está vazio.';
          else if (file.data.includes(0)) problem = 'O arquivo não é um CSV de texto.';
          if (problem) {
            if (request.headers.accept?.includes('application/json'))
              return reply.code(422).send(invalidBody({ arquivo: problem }));
            return renderPage(request, reply, id, { uploadErrors: { arquivo: problem } }, 422);
          }
          const parsed = parseTimetableCsv(file!.data!.toString('utf8'));
          const rows = await s.timetable.preview(parsed.rows);
          const ok = !parsed.problems.length && rows.length > 0 && rows.every((row) => !row.problems.length);
          if (request.headers.accept?.includes('application/json')) {
            return reply.code(ok ? 200 : 422).send({
              ok,
              problemas: parsed.problems,
              linhas: rows.map((x) => ({ linha: x.line, valores: x.values, problemas: x.problems })),
            });
          }
          const payload = JSON.stringify(parsed.rows);
          return reply.page(
            <CsvPreviewPage
              staff={staffProps(request, reply)}
              unit={data.unit}
              rows={rows}
              fileProblems={parsed.problems}
              replacing={data.classes.length}
              payload={payload}
            />,
            ok ? 200 : 422,
          );
        },
      );
    }),
  );

  const RowsBody = Type.Record(Type.String(), Type.Unknown());
  r.post(
    '/admin/conteudo/unidades/:id/aulas/csv/aplicar',
    { ...guardPost, schema: { params: IdParams, body: RowsBody } },
    async (request, reply) => {
      const id = request.params.id;
      const data = await s.timetable.page(id);
      if (!data) return notFound(request, reply, 'Unidade não encontrada');
      let rows: { line: number; values: Record<string, string> }[] = [];
      try {
        const raw = JSON.parse(String(request.body.linhas ?? '[]')) as unknown;
        if (Array.isArray(raw)) {
          rows = raw.slice(0, 500).map((x, i) => {
            const o = (x && typeof x === 'object' ? x : {}) as { line?: unknown; values?: unknown };
            const values: Record<string, string> = {};
            if (o.values && typeof o.values === 'object')
              for (const [k, v] of Object.entries(o.values)) if (typeof v === 'string') values[k] = v.slice(0, 200);
            return { line: Number.isInteger(o.line) ? (o.line as number) : i + 2, values };
          });
        }
      } catch {
        rows = [];
      }
      const result = await s.timetable.replaceWeek({ id: request.staff!.id }, id, rows);
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return reply.page(
          <CsvPreviewPage
            staff={staffProps(request, reply)}
            unit={data.unit}
            rows={result.checked ?? []}
            fileProblems={[result.errors.arquivo ?? 'Arquivo inválido.']}
            replacing={data.classes.length}
            payload="[]"
          />,
          422,
        );
      }
      return done(request, reply, `${base(id)}?ok=grade_importada`, { aulas: result.value.count });
    },
  );

  r.get(
    '/admin/conteudo/unidades/:id/aulas/:sub',
    { ...guard, schema: { params: IdSubParams } },
    async (request, reply) => {
      const { id, sub } = request.params;
      const data = await s.timetable.page(id);
      const aula = data ? await s.timetable.findClass(id, sub) : undefined;
      if (!data || !aula) return notFound(request, reply, 'Aula não encontrada');
      const values = {
        modalidade_id: String(aula.modalidade_id),
        dia_semana: String(aula.dia_semana),
        inicio: aula.inicio,
        fim: aula.fim,
        professor: aula.professor ?? '',
        sala: aula.sala ?? '',
      };
      return reply.page(
        <ClassEditPage
          staff={staffProps(request, reply)}
          unit={data.unit}
          classId={sub}
          values={values}
          modalities={data.modalities}
        />,
      );
    },
  );

  r.post(
    '/admin/conteudo/unidades/:id/aulas/:sub',
    { ...guardPost, schema: { params: IdSubParams, body: FormBody } },
    async (request, reply) => {
      const { id, sub } = request.params;
      const data = await s.timetable.page(id);
      if (!data || !(await s.timetable.findClass(id, sub))) return notFound(request, reply, 'Aula não encontrada');
      const result = await s.timetable.update({ id: request.staff!.id }, id, sub, request.body);
      if (!result.ok) {
        return sendInvalid(request, reply, result.errors, () => (
          <ClassEditPage
            staff={staffProps(request, reply)}
            unit={data.unit}
            classId={sub}
            values={formValues(request.body)}
            errors={result.errors}
            modalities={data.modalities}
          />
        ));
      }
      return done(request, reply, `${base(id)}?ok=salvo`, { id: sub });
    },
  );

  r.post(
    '/admin/conteudo/unidades/:id/aulas/:sub/remover',
    { ...guardPost, schema: { params: IdSubParams, body: FormBody } },
    async (request, reply) => {
      const { id, sub } = request.params;
      if (!(await s.timetable.findClass(id, sub))) return notFound(request, reply, 'Aula não encontrada');
      await s.timetable.remove({ id: request.staff!.id }, id, sub);
      return done(request, reply, `${base(id)}?ok=aula_removida`);
    },
  );
}

// A unit's timetable: admins for any unit, managers for their own units only (the staff
// scope's `perUnit`: every `:id` here is a unit). Guards and CSRF: src/staff/scope.ts.
import { invalidBody } from '../../../http/errors';
import { uploadRoutes } from '../../../http/forms';
import { toId } from '../../../lib/form/index';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { canAccessUnit } from '../../../staff/access';
import { done, FormBody, formValues, IdParams, IdSubParams, NoticeQuery, notFound } from '../../../staff/http';
import { actorOf, staffOf } from '../../../staff/scope';
import { actionPost, formPost, refuse } from '../../../staff/screens';
import type { ContentServices } from '../services';
import { multipartReader, receivedUpload, releaseUpload } from '../../../platform/storage/multipart';
import { parseTimetableCsv } from './timetable-csv';
import { ClassEditPage, CsvPreviewPage, TimetablePage, type TimetablePageProps } from './timetable.view';
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

/** What the week page shows of its forms: one form's values and errors, or the notice after a save. */
type WeekForms = Partial<Pick<TimetablePageProps, 'values' | 'errors' | 'copyErrors' | 'uploadErrors' | 'notice'>>;

export function timetableRoutes(app: FastifyInstance, s: ContentServices) {
  const r = app.withTypeProvider<TypeBoxTypeProvider>();
  const base = (id: number) => `/admin/conteudo/unidades/${id}/aulas`;
  const missingUnit = 'Unidade não encontrada';
  type Week = NonNullable<Awaited<ReturnType<typeof s.timetable.page>>>;
  const week = ({ id }: { id: number }) => s.timetable.page(id);

  async function sources(request: FastifyRequest) {
    // The week of any active unit is public on the site; managers may copy it into their own units.
    const all = await s.units.list();
    const staff = staffOf(request);
    return all.filter((u) => u.ativo === 1 || canAccessUnit(staff, u.id));
  }

  /** The unit's week with its three forms (add, copy, upload); `extra`: one form's values and errors. */
  async function weekPage(request: FastifyRequest, data: Week, extra: WeekForms = {}) {
    return (
      <TimetablePage {...data} staff={request.staffPage} sources={await sources(request)} values={{}} {...extra} />
    );
  }

  r.get(
    '/admin/conteudo/unidades/:id/aulas',
    { schema: { params: IdParams, querystring: NoticeQuery } },
    async (request, reply) => {
      const data = await week(request.params);
      if (!data) return notFound(request, reply, missingUnit);
      return reply.page(await weekPage(request, data, { notice: request.query.ok }));
    },
  );

  formPost(app, '/admin/conteudo/unidades/:id/aulas', {
    load: week,
    missing: missingUnit,
    save: ({ actor, params, body }) => s.timetable.add(actor, params.id, body),
    refused: ({ request, record, body }, errors) => weekPage(request, record, { values: formValues(body), errors }),
    saved: (value, { params: { id } }) => ({ to: `${base(id)}?ok=aula_adicionada`, data: { id: value.id } }),
  });

  formPost(app, '/admin/conteudo/unidades/:id/aulas/copiar', {
    load: week,
    missing: missingUnit,
    save: async ({ actor, params, body, request }) => {
      const sourceId = toId(body.origem_id);
      const allowed = sourceId !== null && (await sources(request)).some((u) => u.id === sourceId);
      return allowed && sourceId !== null
        ? s.timetable.copyFrom(actor, params.id, sourceId)
        : { ok: false, errors: { origem_id: 'Escolha outra unidade para copiar a grade.' } };
    },
    refused: ({ request, record }, errors) => weekPage(request, record, { copyErrors: errors }),
    saved: (value, { params: { id } }) => ({ to: `${base(id)}?ok=grade_copiada`, data: { aulas: value.count } }),
  });

  // Takes a file: multipart is parsed in this route's scope only (forms.ts); the staff scope
  // checks the CSRF token after readUpload has put the form's fields in the body.
  app.register(
    uploadRoutes((scope) => {
      scope
        .withTypeProvider<TypeBoxTypeProvider>()
        .post(
          '/admin/conteudo/unidades/:id/aulas/csv',
          { preHandler: readUpload, onSend: releaseUpload, schema: { params: IdParams } },
          async (request, reply) => {
            const data = await week(request.params);
            if (!data) return notFound(request, reply, missingUnit);
            const file = (request.body as { arquivo?: { data?: Buffer; truncated?: boolean; tooLarge?: boolean } })
              .arquivo;
            let problem: string | null = null;
            if (!file) problem = 'Escolha um arquivo CSV.';
            else if (file.tooLarge || file.truncated) problem = 'O arquivo é grande demais (máximo 256 KB).';
            else if (!file.data?.length) problem = 'O arquivo está vazio.';
            else if (file.data.includes(0)) problem = 'O arquivo não é um CSV de texto.';
            if (problem) {
              const errors = { arquivo: problem };
              return refuse(request, reply, errors, () => weekPage(request, data, { uploadErrors: errors }));
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
                staff={request.staffPage}
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

  r.post(
    '/admin/conteudo/unidades/:id/aulas/csv/aplicar',
    { schema: { params: IdParams, body: FormBody } },
    async (request, reply) => {
      const id = request.params.id;
      const data = await week(request.params);
      if (!data) return notFound(request, reply, missingUnit);
      const result = await s.timetable.replaceWeek(actorOf(request), id, checkedRows(request.body.linhas));
      if (!result.ok) {
        if (request.headers.accept?.includes('application/json'))
          return reply.code(422).send(invalidBody(result.errors));
        return reply.page(
          <CsvPreviewPage
            staff={request.staffPage}
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

  // ---------- one class ----------
  const aula = async ({ id, sub }: { id: number; sub: number }) => {
    const data = await s.timetable.page(id);
    const found = data ? await s.timetable.findClass(id, sub) : undefined;
    return data && found ? { ...data, aula: found } : null;
  };
  const missingClass = 'Aula não encontrada';
  const classPage = (
    request: FastifyRequest,
    data: NonNullable<Awaited<ReturnType<typeof aula>>>,
    values: FormValues,
    errors?: FieldErrors,
  ) => (
    <ClassEditPage
      staff={request.staffPage}
      unit={data.unit}
      classId={data.aula.id}
      values={values}
      errors={errors}
      modalities={data.modalities}
    />
  );

  r.get('/admin/conteudo/unidades/:id/aulas/:sub', { schema: { params: IdSubParams } }, async (request, reply) => {
    const data = await aula(request.params);
    if (!data) return notFound(request, reply, missingClass);
    const { aula: c } = data;
    const values = {
      modalidade_id: String(c.modalidade_id),
      dia_semana: String(c.dia_semana),
      inicio: c.inicio,
      fim: c.fim,
      professor: c.professor ?? '',
      sala: c.sala ?? '',
    };
    return reply.page(classPage(request, data, values));
  });

  formPost(app, '/admin/conteudo/unidades/:id/aulas/:sub', {
    params: 'sub',
    load: aula,
    missing: missingClass,
    save: ({ actor, params, body }) => s.timetable.update(actor, params.id, params.sub, body),
    refused: ({ request, record, body }, errors) => classPage(request, record, formValues(body), errors),
    saved: (_value, { params: { id, sub } }) => ({ to: `${base(id)}?ok=salvo`, data: { id: sub } }),
  });

  actionPost(app, '/admin/conteudo/unidades/:id/aulas/:sub/remover', {
    params: 'sub',
    load: ({ id, sub }) => s.timetable.findClass(id, sub),
    missing: missingClass,
    act: ({ actor, params }) => s.timetable.remove(actor, params.id, params.sub),
    saved: (_value, { params: { id } }) => ({ to: `${base(id)}?ok=aula_removida` }),
  });
}

/** The rows of a previewed CSV as the preview page sent them back (hidden field `linhas`). */
function checkedRows(linhas: unknown): { line: number; values: Record<string, string> }[] {
  try {
    const raw = JSON.parse(String(linhas ?? '[]')) as unknown;
    if (!Array.isArray(raw)) return [];
    return raw.slice(0, 500).map((x, i) => {
      const o = (x && typeof x === 'object' ? x : {}) as { line?: unknown; values?: unknown };
      const values: Record<string, string> = {};
      if (o.values && typeof o.values === 'object')
        for (const [k, v] of Object.entries(o.values)) if (typeof v === 'string') values[k] = v.slice(0, 200);
      return { line: Number.isInteger(o.line) ? (o.line as number) : i + 2, values };
    });
  } catch {
    return [];
  }
}

// The staff area's common screens, registered inside a staffScope (scope.ts), so each feature
// writes only what is its own: paths, services, views. For a record kept under `base`:
//
//   GET  base                 list: the `q` filter and pages (staff/list.ts)
//   GET  base/nova            new form (`newSegment`: 'nova' or 'novo')
//   POST base/nova            create → 303 base/:id?ok=criado, or 422 with the values kept
//   GET  base/:id             edit form (404 page `missing` when the id names nothing)
//   POST base/:id             update → 303 base/:id?ok=salvo, or 422 with the values kept
//   POST base/:id/ativo       activate/deactivate (`ativo=1|0`, audited by the service)
//                             → 303 base/:id?ok=ativado|desativado, or 422 (activeErrors)
//
// JSON clients get `{ ok: true, … }` or the 422 `{ error, message, errors }`. The services
// take `(actor, …)` and write their own audit rows; the pt-BR messages are theirs. Use:
//
//   await staffScope(app, { role: 'admin', noStore: true }, (scope) => {
//     const screens = recordScreens(scope, {
//       base: '/admin/matriculas', missing: 'Matrícula não encontrada',
//       service, // list, get, create(actor, body), update(actor, id, body), setActive?(actor, id, on)
//       list: { text: (m) => m.nome, page: (p) => <ListPage {...p} /> },
//       values: (m) => ({ nome: m.nome }),
//       form: (p) => <FormPage {...p} />,
//     });
//     // the screen's other forms: formPost(scope, `${base}/:id/…`, { load, save, refused, saved });
//     // screens.page(request, reply, id, extra, 422) shows the edit form with their errors
//   });
//
// formPost() is the POST half alone (404 / a search shown again / 422 / 303), refuse() the 422.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { sendInvalid, wantsJson } from '../http/errors';
import type { StaffProps } from './form.view';
import { done, FormBody, formValues, IdParams, IdSubParams, NoticeQuery, notFound } from './http';
import { ListQuery, listPage } from './list';
import type { ListPageProps } from './list.view';
import { actorOf } from './scope';
import type { FieldErrors, FormFields, FormValues, Result } from './validation';

export type Actor = { id: number };
type Page = VNode<any> | Promise<VNode<any>>;
type ParamsOf<P> = P extends 'sub' ? { id: number; sub: number } : P extends 'none' ? object : { id: number };

/** 422: the page again with the values kept (rendered for browsers only), or the JSON errors. */
export async function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  errors: FieldErrors,
  render: () => Page,
  status = 422,
) {
  const page = wantsJson(request) ? null : await render();
  return sendInvalid(request, reply, errors, () => page!, status);
}

/** What a form POST's callbacks are given. */
export interface Sent<P, R> {
  request: FastifyRequest;
  actor: Actor;
  params: ParamsOf<P>;
  /** what `load` found (undefined without `load`) */
  record: R;
  body: FormFields;
}

export interface FormPost<T, P, R> {
  /** the path's ids: `:id` (default), `:id` and `:sub`, or none */
  params?: P;
  /** where the form lives, for the link on a CSRF refusal (default: this path) */
  formPath?: string;
  /** the record the path names; null answers the 404 page titled `missing` */
  load?: (params: ParamsOf<P>) => Promise<R | null | undefined>;
  missing?: string;
  /** a POST that only shows a page again (a search inside the form): answered 200, nothing saved */
  show?: (sent: Sent<P, R>) => Page | null;
  /** the service's change; null when the record went away meanwhile (the 404 page `missing`) */
  save: (sent: Sent<P, R>) => Promise<Result<T> | null>;
  /** the page shown again after a refusal, values kept */
  refused: (sent: Sent<P, R>, errors: FieldErrors) => Page;
  /** where to go after a save, and what JSON clients get */
  saved: (value: T, sent: Sent<P, R>) => { to: string; data?: Record<string, unknown> };
}

/** A form POST at `path`: 404 when `load` finds nothing, the service's `save`, then 303 or 422. */
export function formPost<T, P extends 'id' | 'sub' | 'none' = 'id', R = undefined>(
  scope: FastifyInstance,
  path: string,
  spec: FormPost<T, P, R>,
) {
  const params = spec.params === 'sub' ? IdSubParams : spec.params === 'none' ? null : IdParams;
  // A route without ids declares no params schema at all (an undefined one makes Fastify warn).
  const schema = params ? { params, body: FormBody } : { body: FormBody };
  const config = spec.formPath ? { formPath: spec.formPath } : undefined;
  scope.withTypeProvider<TypeBoxTypeProvider>().post(path, { schema, config }, async (request, reply) => {
    const ids = request.params as ParamsOf<P>;
    const record = spec.load ? await spec.load(ids) : undefined;
    if (spec.load && !record) return notFound(request, reply, spec.missing);
    const sent: Sent<P, R> = {
      request,
      actor: actorOf(request),
      params: ids,
      record: record as R,
      body: request.body,
    };
    const shown = spec.show?.(sent);
    if (shown) return reply.page(await shown);
    const result = await spec.save(sent);
    if (result === null) return notFound(request, reply, spec.missing);
    if (!result.ok) return refuse(request, reply, result.errors, () => spec.refused(sent, result.errors));
    const { to, data } = spec.saved(result.value, sent);
    return done(request, reply, to, data);
  });
}

/** A POST that acts without a form to refuse (delete, resend, test): 404 when there is nothing to act on, else 303. */
export function actionPost<T, P extends 'id' | 'sub' | 'none' = 'id', R = undefined>(
  scope: FastifyInstance,
  path: string,
  spec: Omit<FormPost<T, P, R>, 'save' | 'refused' | 'show'> & {
    /** the change; null when there was nothing to change (the 404 page `missing`) */
    act: (sent: Sent<P, R>) => Promise<T | null>;
  },
) {
  formPost(scope, path, {
    ...spec,
    save: async (sent) => {
      const value = await spec.act(sent);
      return value === null ? null : { ok: true, value };
    },
    refused: () => {
      throw new Error(`${path}: an action has no form to show again`);
    },
  });
}

/** The activate button's `ativo=1` (activate) or `0`. */
export const isActivation = (body: FormFields) => body.ativo === '1';

/** After activate/deactivate: back to the record's page saying which, `{ ativo }` for JSON clients. */
export function activated(page: string, body: FormFields) {
  const active = isActivation(body);
  return { to: `${page}?ok=${active ? 'ativado' : 'desativado'}`, data: { ativo: active } };
}

/** What the form page of a record is given. */
export interface ScreenForm<Item> {
  staff: StaffProps;
  /** the record; null on the new page */
  item: Item | null;
  values: FormValues;
  errors?: FieldErrors;
  /** a refused activate/deactivate (e.g. the only active admin) */
  activeErrors?: FieldErrors;
  /** `?ok=` after a save */
  notice?: string;
  /** the form was sent to search inside it (`search`), not to save */
  searched?: boolean;
  /** what a refused or searching POST sent; null on a GET */
  body: FormFields | null;
}

export interface RecordScreens<Item extends { id: number }, Row, Extra extends object = object> {
  /** the list's path; the others hang from it */
  base: string;
  /** the new page's last segment: 'nova' (default) or 'novo' */
  newSegment?: string;
  /** the 404 title when `:id` names no record, e.g. 'Plano não encontrado' */
  missing: string;
  /** the record's service: its rules, pt-BR messages and audit rows */
  service: {
    list: () => Promise<readonly Row[]>;
    get: (id: number) => Promise<Item | null | undefined>;
    create: (actor: Actor, body: FormFields) => Promise<Result<{ id: number }>>;
    update: (actor: Actor, id: number, body: FormFields) => Promise<Result<unknown>>;
    /** without it there is no `/:id/ativo` route */
    setActive?: (actor: Actor, id: number, active: boolean) => Promise<Result<unknown> | undefined> | Promise<void>;
  };
  list: {
    /** the text the `q` filter searches in a row */
    text: (row: Row) => string;
    page: (p: ListPageProps & { items: Row[] }) => Page;
  };
  /** the edit form's values from the stored record */
  values: (item: Item) => FormValues;
  /** the new form's first values */
  blank?: FormValues;
  form: (p: ScreenForm<Item> & Partial<Extra>) => Page;
  /** a POST that only shows the form again (the unit form's plan search): nothing is saved */
  search?: (body: FormFields) => boolean;
}

/** The list, new, edit and activate screens of one kind of record (see the top of this file). */
export function recordScreens<Item extends { id: number }, Row, Extra extends object = object>(
  scope: FastifyInstance,
  spec: RecordScreens<Item, Row, Extra>,
) {
  type Extras = Partial<ScreenForm<Item> & Extra>;
  type AsSent = { request: FastifyRequest; record: Item | null; body: FormFields };
  const { base, missing, service } = spec;
  const newPath = `${base}/${spec.newSegment ?? 'nova'}`;

  /** The form page of `item` (null: the new one) with what is given in `extra`. */
  const form = (request: FastifyRequest, item: Item | null, extra: Extras = {}) =>
    spec.form({
      staff: request.staffPage,
      item,
      values: item ? spec.values(item) : { ...spec.blank },
      body: null,
      ...extra,
    } as ScreenForm<Item> & Partial<Extra>);
  /** The form as it was sent (values kept): after a refusal or a search inside it. */
  const asSent = ({ request, record, body }: AsSent, extra: Extras) =>
    form(request, record, { values: formValues(body), body, ...extra });
  const show = (sent: AsSent) => (spec.search?.(sent.body) ? asSent(sent, { searched: true } as Extras) : null);
  const refused = (sent: AsSent, errors: FieldErrors) => asSent(sent, { errors } as Extras);

  const r = scope.withTypeProvider<TypeBoxTypeProvider>();
  r.get(base, { schema: { querystring: ListQuery } }, async (request, reply) => {
    const { items, list } = listPage(await service.list(), request.query, base, spec.list.text);
    return reply.page(await spec.list.page({ staff: request.staffPage, items, list, notice: request.query.ok }));
  });
  r.get(newPath, async (request, reply) => reply.page(await form(request, null)));
  r.get(`${base}/:id`, { schema: { params: IdParams, querystring: NoticeQuery } }, async (request, reply) => {
    const item = await service.get(request.params.id);
    if (!item) return notFound(request, reply, missing);
    return reply.page(await form(request, item, { notice: request.query.ok } as Extras));
  });
  formPost(scope, newPath, {
    params: 'none',
    formPath: newPath,
    show: (sent) => show({ ...sent, record: null }),
    save: ({ actor, body }) => service.create(actor, body),
    refused: (sent, errors) => refused({ ...sent, record: null }, errors),
    saved: ({ id }) => ({ to: `${base}/${id}?ok=criado`, data: { id } }),
  });
  formPost(scope, `${base}/:id`, {
    load: ({ id }) => service.get(id),
    missing,
    show,
    save: ({ actor, record, body }) => service.update(actor, record.id, body),
    refused,
    saved: (_value, { record: { id } }) => ({ to: `${base}/${id}?ok=salvo`, data: { id } }),
  });
  const setActive = service.setActive;
  if (setActive)
    formPost(scope, `${base}/:id/ativo`, {
      formPath: base,
      load: ({ id }) => service.get(id),
      missing,
      save: async ({ actor, record, body }) =>
        (await setActive(actor, record.id, isActivation(body))) ?? { ok: true, value: undefined },
      refused: ({ request, record }, errors) => form(request, record, { activeErrors: errors } as Extras),
      saved: (_value, { record: { id }, body }) => activated(`${base}/${id}`, body),
    });

  return {
    form,
    /** The edit form of the record `id` with `extra` (another form's errors), or its 404 page. */
    async page(request: FastifyRequest, reply: FastifyReply, id: number, extra: Extras, status = 200) {
      const item = await service.get(id);
      if (!item) return notFound(request, reply, missing);
      return reply.page(await form(request, item, extra), status);
    },
  };
}

// The staff screens of privacy requests: the queue (overdue first), the search of one
// person across the site with the form that opens a request, and one request with its
// actions (conclude, refuse with a reason, carry out an erasure).
import type { ComponentChildren } from 'preact';
import { formatDateTime } from '../../lib/time';
import { ENVIO_FIELD } from '../../lib/form/index';
import {
  bindStaffFields,
  Field,
  Select,
  StaffErrorSummary,
  StaffForm,
  StaffPage,
  type StaffProps,
  TextArea,
} from '../../staff/form.view';
import { type Column, ColumnTable, Pagination } from '../../staff/list.view';
import type { FieldErrors, FormValues } from '../../staff/validation';
import { fieldAria, FieldMessage } from '../../views/form';
import { EnrolmentKept, KindTables } from './meus-dados.view';
import type { KindSummary } from './person-data.service';
import { maskSubject, type Subject } from './registry';
import { REQUEST_KINDS, REQUEST_STATUSES, type RequestKind, STAFF_REQUEST_KINDS } from './requests';
import type { PrivacyRequest } from './requests.repository';

export const ADMIN_PRIVACY_PATH = '/admin/privacidade';
const crumbs = [{ href: ADMIN_PRIVACY_PATH, label: 'Privacidade' }];

const kindLabel = (t: string) => REQUEST_KINDS[t as RequestKind] ?? t;
const statusLabel = (s: string) => REQUEST_STATUSES[s as keyof typeof REQUEST_STATUSES] ?? s;
const overdue = (r: { status: string; prazo_em: string }, now: string) => r.status === 'aberta' && r.prazo_em < now;

function SearchForm({ q }: { q: string }) {
  return (
    <form method="get" action={`${ADMIN_PRIVACY_PATH}/busca`} role="search" class="list-filter">
      <label for="busca-q">Buscar uma pessoa em todo o site (e-mail ou WhatsApp)</label>
      <input id="busca-q" name="q" type="search" value={q} maxLength={254} />
      <button type="submit">Buscar</button>
    </form>
  );
}

type QueueRow = Pick<PrivacyRequest, 'id' | 'tipo' | 'status' | 'canal' | 'titular' | 'criado_em' | 'prazo_em'>;

/** The queue's columns; `now` says which open requests are overdue. */
const queueColumns = (now: string): Column<QueueRow>[] => [
  ['Pedido', (r) => <a href={`${ADMIN_PRIVACY_PATH}/${r.id}`}>#{r.id}</a>],
  ['Tipo', (r) => kindLabel(r.tipo)],
  ['Pessoa', (r) => r.titular],
  ['Chegou em', (r) => formatDateTime(r.criado_em)],
  ['Prazo', (r) => <Deadline request={r} now={now} />],
  ['Situação', (r) => statusLabel(r.status)],
];

function Deadline({ request, now }: { request: { status: string; prazo_em: string }; now: string }) {
  return (
    <>
      {formatDateTime(request.prazo_em)}
      {overdue(request, now) ? <strong> (atrasado)</strong> : null}
    </>
  );
}

export function QueuePage(p: {
  staff: StaffProps;
  rows: QueueRow[];
  info: { page: number; pages: number; total: number };
  status: string | null;
  now: string;
}) {
  const params: Record<string, string> = p.status ? { status: p.status } : {};
  return (
    <StaffPage title="Pedidos sobre dados pessoais" staff={p.staff}>
      <p>
        Pedidos das pessoas sobre os seus dados (LGPD): a resposta deve sair em até 15 dias. Os abertos vêm primeiro, os
        atrasados no topo.
      </p>
      <SearchForm q="" />
      <form method="get" action={ADMIN_PRIVACY_PATH} class="list-filter">
        <label for="f-status">Situação</label>
        <select id="f-status" name="status">
          <option value="">Todas</option>
          {Object.entries(REQUEST_STATUSES).map(([v, l]) => (
            <option value={v} selected={p.status === v} key={v}>
              {l}
            </option>
          ))}
        </select>
        <button type="submit">Filtrar</button>
        <p class="muted">{p.info.total === 1 ? '1 pedido' : `${p.info.total} pedidos`}</p>
      </form>
      <ColumnTable
        label="Pedidos"
        rows={p.rows}
        empty="Nenhum pedido."
        columns={queueColumns(p.now)}
        rowClass={(r) => (overdue(r, p.now) ? 'overdue' : undefined)}
      />
      <Pagination list={{ path: ADMIN_PRIVACY_PATH, q: '', params, ...p.info }} />
    </StaffPage>
  );
}

const kindOptions = STAFF_REQUEST_KINDS.map((value) => ({ value, label: REQUEST_KINDS[value] }));

export function SearchPage(p: {
  staff: StaffProps;
  q: string;
  error?: string;
  subject?: Subject;
  overview?: KindSummary[];
  values?: FormValues;
  errors?: FieldErrors;
  envioId: string;
}) {
  const values: FormValues = p.values ?? {
    email: p.subject?.email ?? '',
    telefone: p.subject?.phones[0] ?? '',
  };
  const field = bindStaffFields(values, p.errors);
  return (
    <StaffPage title="Buscar uma pessoa" staff={p.staff} crumbs={crumbs}>
      <SearchForm q={p.q} />
      {p.error ? (
        <p class="alert alert-error" role="alert">
          {p.error}
        </p>
      ) : null}
      {p.subject ? (
        <section aria-labelledby="encontrado">
          <h2 id="encontrado">O que o site guarda: {maskSubject(p.subject)}</h2>
          <KindTables overview={p.overview ?? []} />
        </section>
      ) : null}
      {p.subject || p.errors ? (
        <section class="card" aria-labelledby="abrir">
          <h2 id="abrir">Abrir um pedido para esta pessoa</h2>
          <p class="muted">Para quem ligou ou veio à recepção. O prazo de 15 dias conta a partir de agora.</p>
          <StaffForm action={ADMIN_PRIVACY_PATH} csrfToken={p.staff.csrfToken} errors={p.errors} submit="Abrir pedido">
            <input type="hidden" name={ENVIO_FIELD} value={p.envioId} />
            <Select {...field('tipo')} label="Tipo do pedido" options={kindOptions} placeholder="Escolha…" />
            <Field {...field('email')} label="E-mail" type="email" maxLength={254} />
            <Field {...field('telefone')} label="WhatsApp" type="tel" maxLength={30} />
            <TextArea {...field('texto')} label="Observação" maxLength={1000} />
          </StaffForm>
        </section>
      ) : null}
    </StaffPage>
  );
}

const NOTICES: Record<string, string> = {
  aberto: 'Pedido aberto.',
  concluida: 'Pedido concluído.',
  recusada: 'Pedido recusado.',
  eliminado: 'Dados eliminados em todo o site e pedido concluído.',
};

/** One step on an open request (erase, conclude, refuse): a card whose form posts to `${base}/${step}`. */
function StepCard(p: {
  step: 'eliminar' | 'concluir' | 'recusar';
  title: string;
  base: string;
  csrfToken: string;
  submit: string;
  submitClass?: string;
  intro?: ComponentChildren;
  children: ComponentChildren;
}) {
  return (
    <section class="card" aria-labelledby={p.step}>
      <h2 id={p.step}>{p.title}</h2>
      {p.intro}
      <StaffForm action={`${p.base}/${p.step}`} csrfToken={p.csrfToken} submit={p.submit} submitClass={p.submitClass}>
        {p.children}
      </StaffForm>
    </section>
  );
}

export function RequestPage(p: {
  staff: StaffProps;
  request: PrivacyRequest & { aberta_por_nome: string | null; concluida_por_nome: string | null };
  subject: Subject | null;
  overview: KindSummary[];
  now: string;
  notice?: string;
  errors?: FieldErrors;
}) {
  const r = p.request;
  const result = r.resultado
    ? (JSON.parse(r.resultado) as { tabelas: Record<string, number>; arquivos: number })
    : null;
  const open = r.status === 'aberta';
  const base = `${ADMIN_PRIVACY_PATH}/${r.id}`;
  const values: FormValues = {};
  return (
    <StaffPage
      title={`Pedido #${r.id}: ${kindLabel(r.tipo)}`}
      staff={p.staff}
      crumbs={crumbs}
      notice={p.notice}
      notices={NOTICES}
    >
      <StaffErrorSummary errors={p.errors} />
      <dl class="details">
        <dt>Pessoa</dt>
        <dd>{p.subject ? [p.subject.email, ...p.subject.phones].filter(Boolean).join(' · ') : r.titular}</dd>
        <dt>Chegou em</dt>
        <dd>
          {formatDateTime(r.criado_em)} (
          {r.canal === 'site' ? 'pelo site' : `aberto por ${r.aberta_por_nome ?? 'equipe'}`})
        </dd>
        <dt>Prazo</dt>
        <dd>
          <Deadline request={r} now={p.now} />
        </dd>
        <dt>Situação</dt>
        <dd>
          {statusLabel(r.status)}
          {r.concluida_em
            ? ` em ${formatDateTime(r.concluida_em)}` +
              (r.concluida_por_nome ? ` por ${r.concluida_por_nome}` : ' pelo site')
            : ''}
        </dd>
        {r.texto ? (
          <>
            <dt>Pedido</dt>
            <dd class="pre-wrap">{r.texto}</dd>
          </>
        ) : null}
        {r.motivo ? (
          <>
            <dt>{r.status === 'recusada' ? 'Motivo da recusa' : 'Observação'}</dt>
            <dd>{r.motivo}</dd>
          </>
        ) : null}
        {result ? (
          <>
            <dt>Eliminação</dt>
            <dd>
              {Object.entries(result.tabelas)
                .map(([t, n]) => `${t}: ${n}`)
                .join(', ') || 'nenhuma linha'}
              ; arquivos: {result.arquivos}
            </dd>
          </>
        ) : null}
      </dl>

      {p.subject ? (
        <section aria-labelledby="dados">
          <h2 id="dados">O que o site guarda desta pessoa</h2>
          <KindTables overview={p.overview} />
          {p.overview.length ? (
            <p>
              <a href={`${base}/dados.zip`}>Baixar os dados (ZIP)</a>
            </p>
          ) : null}
        </section>
      ) : null}

      {open && r.tipo === 'eliminacao' && p.subject ? (
        <StepCard
          step="eliminar"
          title="Eliminar os dados"
          base={base}
          csrfToken={p.staff.csrfToken}
          submit="Eliminar e concluir"
          submitClass="danger"
          intro={
            <>
              <p>
                Apaga nome, e-mail, telefone, textos e fotos desta pessoa em todas as tabelas e na fila de e-mails;
                notas de pesquisa e números de agendamento ficam para as estatísticas. Não pode ser desfeito.
              </p>
              <EnrolmentKept overview={p.overview} />
            </>
          }
        >
          <div class="field">
            <FieldMessage id="f-confirmar" message={p.errors?.confirmar} />
            <label class="choice">
              <input
                type="checkbox"
                id="f-confirmar"
                name="confirmar"
                value="sim"
                {...fieldAria('f-confirmar', p.errors?.confirmar)}
              />
              Confirmo a eliminação dos dados desta pessoa
            </label>
          </div>
          <Field name="motivo" label="Observação" values={values} maxLength={1000} idPrefix="eliminar" />
        </StepCard>
      ) : null}

      {open ? (
        <div class="grid grid-2">
          <StepCard step="concluir" title="Concluir" base={base} csrfToken={p.staff.csrfToken} submit="Concluir pedido">
            <Field name="motivo" label="Observação" values={values} maxLength={1000} idPrefix="concluir" />
          </StepCard>
          <StepCard step="recusar" title="Recusar" base={base} csrfToken={p.staff.csrfToken} submit="Recusar pedido">
            <Field name="motivo" label="Motivo da recusa" values={values} errors={p.errors} required maxLength={1000} />
          </StepCard>
        </div>
      ) : null}
    </StaffPage>
  );
}

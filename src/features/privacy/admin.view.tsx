// The staff screens of privacy requests: the queue (overdue first), the search of one
// person across the site with the form that opens a request, and one request with its
// actions (conclude, refuse with a reason, carry out an erasure).
import { formatDateTime } from '../../lib/time';
import { ENVIO_FIELD } from '../../lib/form/index';
import { Csrf, Field, Select, StaffErrorSummary, StaffPage, type StaffProps, TextArea } from '../../staff/form.view';
import type { FieldErrors, FormValues } from '../../staff/validation';
import { FieldError } from '../../views/layout';
import { DataTable, PageLinks } from '../../views/table';
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

export function QueuePage(p: {
  staff: StaffProps;
  rows: Pick<PrivacyRequest, 'id' | 'tipo' | 'status' | 'canal' | 'titular' | 'criado_em' | 'prazo_em'>[];
  info: { page: number; pages: number; total: number };
  status: string | null;
  now: string;
}) {
  const href = (page: number) => {
    const params = new URLSearchParams();
    if (p.status) params.set('status', p.status);
    if (page > 1) params.set('pagina', String(page));
    const qs = params.toString();
    return qs ? `${ADMIN_PRIVACY_PATH}?${qs}` : ADMIN_PRIVACY_PATH;
  };
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
      <DataTable
        label="Pedidos"
        columns={['Pedido', 'Tipo', 'Pessoa', 'Chegou em', 'Prazo', 'Situação']}
        rows={p.rows}
        empty="Nenhum pedido."
        row={(r) => (
          <tr key={r.id} class={overdue(r, p.now) ? 'overdue' : undefined}>
            <td>
              <a href={`${ADMIN_PRIVACY_PATH}/${r.id}`}>#{r.id}</a>
            </td>
            <td>{kindLabel(r.tipo)}</td>
            <td>{r.titular}</td>
            <td>{formatDateTime(r.criado_em)}</td>
            <td>
              {formatDateTime(r.prazo_em)}
              {overdue(r, p.now) ? <strong> (atrasado)</strong> : null}
            </td>
            <td>{statusLabel(r.status)}</td>
          </tr>
        )}
      />
      <PageLinks page={p.info.page} pages={p.info.pages} href={href} />
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
          <StaffErrorSummary errors={p.errors} />
          <form method="post" action={ADMIN_PRIVACY_PATH} novalidate>
            <Csrf token={p.staff.csrfToken} />
            <input type="hidden" name={ENVIO_FIELD} value={p.envioId} />
            <Select
              name="tipo"
              label="Tipo do pedido"
              values={values}
              errors={p.errors}
              options={kindOptions}
              placeholder="Escolha…"
            />
            <Field name="email" label="E-mail" type="email" values={values} errors={p.errors} maxLength={254} />
            <Field name="telefone" label="WhatsApp" type="tel" values={values} errors={p.errors} maxLength={30} />
            <TextArea name="texto" label="Observação" values={values} errors={p.errors} maxLength={1000} />
            <p>
              <button type="submit">Abrir pedido</button>
            </p>
          </form>
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
  const notice = p.notice ? NOTICES[p.notice] : undefined;
  const result = r.resultado
    ? (JSON.parse(r.resultado) as { tabelas: Record<string, number>; arquivos: number })
    : null;
  const open = r.status === 'aberta';
  const values: FormValues = {};
  return (
    <StaffPage title={`Pedido #${r.id}: ${kindLabel(r.tipo)}`} staff={p.staff} crumbs={crumbs}>
      {notice ? (
        <p class="alert alert-ok" role="status">
          {notice}
        </p>
      ) : null}
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
          {formatDateTime(r.prazo_em)}
          {overdue(r, p.now) ? <strong> (atrasado)</strong> : null}
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
              <a href={`${ADMIN_PRIVACY_PATH}/${r.id}/dados.zip`}>Baixar os dados (ZIP)</a>
            </p>
          ) : null}
        </section>
      ) : null}

      {open && r.tipo === 'eliminacao' && p.subject ? (
        <section class="card" aria-labelledby="eliminar">
          <h2 id="eliminar">Eliminar os dados</h2>
          <p>
            Apaga nome, e-mail, telefone, textos e fotos desta pessoa em todas as tabelas e na fila de e-mails; notas de
            pesquisa e números de agendamento ficam para as estatísticas. Não pode ser desfeito.
          </p>
          <EnrolmentKept overview={p.overview} />
          <form method="post" action={`${ADMIN_PRIVACY_PATH}/${r.id}/eliminar`} novalidate>
            <Csrf token={p.staff.csrfToken} />
            <div class="field">
              <FieldError id="f-confirmar-erro" message={p.errors?.confirmar} />
              <label class="choice">
                <input
                  type="checkbox"
                  id="f-confirmar"
                  name="confirmar"
                  value="sim"
                  aria-invalid={p.errors?.confirmar ? 'true' : undefined}
                  aria-describedby={p.errors?.confirmar ? 'f-confirmar-erro' : undefined}
                />
                Confirmo a eliminação dos dados desta pessoa
              </label>
            </div>
            <Field name="motivo" label="Observação" values={values} maxLength={1000} idPrefix="eliminar" />
            <p>
              <button type="submit" class="danger">
                Eliminar e concluir
              </button>
            </p>
          </form>
        </section>
      ) : null}

      {open ? (
        <div class="grid grid-2">
          <section class="card" aria-labelledby="concluir">
            <h2 id="concluir">Concluir</h2>
            <form method="post" action={`${ADMIN_PRIVACY_PATH}/${r.id}/concluir`} novalidate>
              <Csrf token={p.staff.csrfToken} />
              <Field name="motivo" label="Observação" values={values} maxLength={1000} idPrefix="concluir" />
              <p>
                <button type="submit">Concluir pedido</button>
              </p>
            </form>
          </section>
          <section class="card" aria-labelledby="recusar">
            <h2 id="recusar">Recusar</h2>
            <form method="post" action={`${ADMIN_PRIVACY_PATH}/${r.id}/recusar`} novalidate>
              <Csrf token={p.staff.csrfToken} />
              <Field
                name="motivo"
                label="Motivo da recusa"
                values={values}
                errors={p.errors}
                required
                maxLength={1000}
              />
              <p>
                <button type="submit">Recusar pedido</button>
              </p>
            </form>
          </section>
        </div>
      ) : null}
    </StaffPage>
  );
}

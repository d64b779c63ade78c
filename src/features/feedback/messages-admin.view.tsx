import { Layout } from '../../views/layout';
import { formatDateTime } from '../../lib/time';
import { UnitFilter, type StaffProps } from './filters.view';
import { MESSAGE_STATUSES, type MessageStatus } from './fale-aqui.repository';
import { STATUS_LABEL, type createMessagesAdminService } from './messages-admin.service';

type Service = ReturnType<typeof createMessagesAdminService>;
type Inbox = Awaited<ReturnType<Service['inbox']>>;
type Detail = NonNullable<Awaited<ReturnType<Service['message']>>>;

export const INBOX_PATH = '/admin/mensagens';

export interface InboxFilters {
  unidade_id: string;
  status: string;
}

function query(filters: InboxFilters, extra: Record<string, string | number> = {}) {
  const p = new URLSearchParams();
  if (filters.unidade_id) p.set('unidade_id', filters.unidade_id);
  if (filters.status) p.set('status', filters.status);
  for (const [k, v] of Object.entries(extra)) p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function InboxPage({ staff, units, filters, inbox }: { staff: StaffProps; units: { id: number; nome: string }[]; filters: InboxFilters; inbox: Inbox }) {
  return (
    <Layout title="Mensagens" staff={staff}>
      <h1>Mensagens “Fale aqui”</h1>
      <p class="status-counts">
        {MESSAGE_STATUSES.map((s) => (
          <span class={`badge status-${s}`} key={s}>
            {STATUS_LABEL[s]}: {inbox.counts[s] ?? 0}
          </span>
        ))}
      </p>
      <form method="get" action={INBOX_PATH} class="card report-filters">
        <div class="grid filter-grid">
          <UnitFilter units={units} selected={filters.unidade_id} />
          <div>
            <label for="f-status">Situação</label>
            <select id="f-status" name="status">
              <option value="">Todas</option>
              {MESSAGE_STATUSES.map((s) => (
                <option value={s} selected={filters.status === s} key={s}>
                  {STATUS_LABEL[s]}
                </option>
              ))}
            </select>
          </div>
        </div>
        <p>
          <button type="submit">Filtrar</button> <a href={`${INBOX_PATH}/exportar.csv${query(filters)}`}>Exportar CSV</a>
        </p>
      </form>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Tabela das mensagens">
        <table>
          <caption class="visually-hidden">Mensagens recebidas</caption>
          <thead>
            <tr>
              <th scope="col">Data</th>
              <th scope="col">Unidade</th>
              <th scope="col">De</th>
              <th scope="col">Mensagem</th>
              <th scope="col">Fotos</th>
              <th scope="col">Situação</th>
            </tr>
          </thead>
          <tbody>
            {inbox.rows.length === 0 ? (
              <tr>
                <td colSpan={6}>Nenhuma mensagem com estes filtros.</td>
              </tr>
            ) : (
              inbox.rows.map((m) => (
                <tr key={m.id} class={m.status === 'novo' ? 'unread' : undefined}>
                  <td>
                    <a href={`${INBOX_PATH}/${m.id}`}>{formatDateTime(m.criado_em)}</a>
                  </td>
                  <td>{m.unidade}</td>
                  <td>{m.anonimo ? <span class="muted">Anônimo</span> : m.nome_completo}</td>
                  <td>{m.mensagem.length > 120 ? `${m.mensagem.slice(0, 120)}…` : m.mensagem}</td>
                  <td>{m.fotos}</td>
                  <td>
                    <span class={`badge status-${m.status}`}>{STATUS_LABEL[m.status as MessageStatus] ?? m.status}</span>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
      {inbox.pages > 1 ? (
        <nav class="pagination" aria-label="Páginas">
          {inbox.page > 1 ? <a href={`${INBOX_PATH}${query(filters, { pagina: inbox.page - 1 })}`}>Anterior</a> : null}
          <span>
            Página {inbox.page} de {inbox.pages}
          </span>
          {inbox.page < inbox.pages ? <a href={`${INBOX_PATH}${query(filters, { pagina: inbox.page + 1 })}`}>Próxima</a> : null}
        </nav>
      ) : null}
    </Layout>
  );
}

export function MessagePage({ staff, detail, csrfToken, saved }: { staff: StaffProps; detail: Detail; csrfToken: string; saved: boolean }) {
  const { message: m, files } = detail;
  return (
    <Layout title={`Mensagem #${m.id}`} staff={staff}>
      <p>
        <a href={INBOX_PATH}>← Voltar para as mensagens</a>
      </p>
      <h1>Mensagem #{m.id}</h1>
      {saved ? (
        <p class="alert alert-ok" role="status">
          Situação atualizada.
        </p>
      ) : null}
      <dl class="card details">
        <dt>Data</dt>
        <dd>{formatDateTime(m.criado_em)}</dd>
        <dt>Unidade</dt>
        <dd>{m.unidade}</dd>
        <dt>De</dt>
        <dd>{m.anonimo ? 'Anônimo (não se identificou)' : m.nome_completo}</dd>
        <dt>Situação</dt>
        <dd>
          <span class={`badge status-${m.status}`}>{STATUS_LABEL[m.status as MessageStatus] ?? m.status}</span>
        </dd>
      </dl>
      <h2>Mensagem</h2>
      <p class="card pre-line">{m.mensagem}</p>
      {files.length ? (
        <>
          <h2>Fotos</h2>
          <div class="photo-grid">
            {files.map((f, i) => (
              <figure key={f.id}>
                <a href={`${INBOX_PATH}/foto/${f.id}`}>
                  <img src={`${INBOX_PATH}/foto/${f.id}`} alt={`Foto ${i + 1} enviada com a mensagem`} width={f.largura} height={f.altura} loading="lazy" />
                </a>
                <figcaption class="hint">
                  {f.largura}×{f.altura} · {Math.ceil(f.tamanho / 1024)} KB
                </figcaption>
              </figure>
            ))}
          </div>
        </>
      ) : null}
      <form method="post" action={`${INBOX_PATH}/${m.id}/status`} class="card">
        <input type="hidden" name="csrf_token" value={csrfToken} />
        <label for="status">Mudar a situação</label>
        <select id="status" name="status">
          {MESSAGE_STATUSES.map((s) => (
            <option value={s} selected={m.status === s} key={s}>
              {STATUS_LABEL[s]}
            </option>
          ))}
        </select>
        <p>
          <button type="submit">Salvar</button>
        </p>
      </form>
    </Layout>
  );
}

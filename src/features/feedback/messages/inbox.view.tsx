import { FieldError, Layout } from '../../../views/layout';
import { DataTable, PageLinks } from '../../../views/table';
import { PostForm, StatusNotice } from '../../../staff/form.view';
import { type Column, ColumnTable } from '../../../staff/list.view';
import { formatDateTime } from '../../../lib/time';
import { ChoiceFilter, FilterActions, UnitFilter, type StaffProps } from '../filters.view';
import { MESSAGE_STATUSES, type MessageStatus } from './fale-aqui.repository';
import {
  formatDuration,
  REPLY_MAX,
  STATUS_LABEL,
  whatsappLink,
  type createMessagesAdminService,
  type StaffRef,
} from './inbox.service';

type Service = ReturnType<typeof createMessagesAdminService>;
type Inbox = Awaited<ReturnType<Service['inbox']>>;
type Detail = NonNullable<Awaited<ReturnType<Service['message']>>>;
type ReplyTimes = Awaited<ReturnType<Service['replyTimes']>>;

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

const statusLabel = (s: string) => STATUS_LABEL[s as MessageStatus] ?? s;

const MESSAGE_COLUMNS: Column<Inbox['rows'][number]>[] = [
  ['Data', (m) => <a href={`${INBOX_PATH}/${m.id}`}>{formatDateTime(m.criado_em)}</a>],
  ['Unidade', (m) => m.unidade],
  ['De', (m) => (m.anonimo ? <span class="muted">Anônimo</span> : m.nome_completo)],
  ['Mensagem', (m) => (m.mensagem.length > 120 ? `${m.mensagem.slice(0, 120)}…` : m.mensagem)],
  ['Fotos', (m) => m.fotos],
  ['Situação', (m) => <span class={`badge status-${m.status}`}>{statusLabel(m.status)}</span>],
];

export function InboxPage({
  staff,
  units,
  filters,
  inbox,
  replyTimes,
}: {
  staff: StaffProps;
  units: { id: number; nome: string }[];
  filters: InboxFilters;
  inbox: Inbox;
  replyTimes: ReplyTimes;
}) {
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
          <ChoiceFilter
            name="status"
            label="Situação"
            options={MESSAGE_STATUSES.map((s) => ({ value: s, label: STATUS_LABEL[s] }))}
            selected={filters.status}
          />
        </div>
        <FilterActions csvHref={`${INBOX_PATH}/exportar.csv${query(filters)}`} />
      </form>
      <ColumnTable
        label="Tabela das mensagens"
        caption="Mensagens recebidas"
        rows={inbox.rows}
        empty="Nenhuma mensagem com estes filtros."
        columns={MESSAGE_COLUMNS}
        rowClass={(m) => (m.status === 'nova' ? 'unread' : undefined)}
      />
      <PageLinks
        page={inbox.page}
        pages={inbox.pages}
        href={(pagina) => `${INBOX_PATH}${query(filters, { pagina })}`}
      />
      <section aria-labelledby="tempo-resposta">
        <h2 id="tempo-resposta">Tempo até a primeira resposta (últimos 90 dias)</h2>
        <DataTable
          label="Tabela do tempo até a primeira resposta"
          columns={['Unidade', 'Recebidas', 'Respondidas', 'Aguardando', 'Mediana até a 1ª resposta']}
          rows={replyTimes}
          empty="Nenhuma mensagem no período."
          row={(u) => (
            <tr key={u.unidade}>
              <th scope="row">{u.unidade}</th>
              <td>{u.recebidas}</td>
              <td>{u.respondidas}</td>
              <td>{u.abertas}</td>
              <td data-tempo-resposta="">{u.mediana === null ? '—' : formatDuration(u.mediana)}</td>
            </tr>
          )}
        />
      </section>
    </Layout>
  );
}

export interface ReplyFormState {
  canal: 'email' | 'whatsapp';
  texto: string;
  errors: Record<string, string>;
}

export interface MessagePageProps {
  staff: StaffProps;
  detail: Detail;
  csrfToken: string;
  notice: string | null;
  me: StaffRef;
  brandName: string;
  mailConfigured: boolean;
  replyForm?: ReplyFormState;
}

export function MessagePage({
  staff,
  detail,
  csrfToken,
  notice,
  me,
  brandName,
  mailConfigured,
  replyForm,
}: MessagePageProps) {
  const { message: m, files, replies, history } = detail;
  const wa = whatsappLink(m, me, brandName);
  const errors = replyForm?.errors ?? {};
  const canal = replyForm?.canal ?? (m.contato_email ? 'email' : 'whatsapp');
  return (
    <Layout title={`Mensagem #${m.id}`} staff={staff}>
      <p>
        <a href={INBOX_PATH}>← Voltar para as mensagens</a>
      </p>
      <h1>Mensagem #{m.id}</h1>
      <StatusNotice text={notice ?? undefined} />
      {Object.keys(errors).length ? (
        <div class="alert alert-error" role="alert">
          <p>A resposta não foi registrada: confira o campo indicado.</p>
        </div>
      ) : null}
      <dl class="card details">
        <dt>Data</dt>
        <dd>{formatDateTime(m.criado_em)}</dd>
        <dt>Unidade</dt>
        <dd>{m.unidade}</dd>
        <dt>De</dt>
        <dd>{m.anonimo ? 'Anônimo (não se identificou)' : m.nome_completo}</dd>
        <dt>Contato</dt>
        <dd>
          {m.contato_email || m.contato_telefone ? (
            <>
              {m.contato_email ? <a href={`mailto:${m.contato_email}`}>{m.contato_email}</a> : null}
              {m.contato_email && m.contato_telefone ? ' · ' : null}
              {m.contato_telefone ? <a href={`tel:${m.contato_telefone}`}>{m.telefone_formatado}</a> : null}
              {m.aceite_contato ? <span class="hint"> (aceitou ser contatado)</span> : null}
            </>
          ) : (
            <span class="muted">Não deixou contato: a mensagem não pode ser respondida.</span>
          )}
        </dd>
        <dt>Situação</dt>
        <dd>
          <span class={`badge status-${m.status}`} data-status={m.status}>
            {statusLabel(m.status)}
          </span>
          {m.lida_em ? (
            <span class="hint">
              {' '}
              · lida em {formatDateTime(m.lida_em)}
              {m.lida_por_nome ? ` por ${m.lida_por_nome}` : ''}
            </span>
          ) : null}
        </dd>
      </dl>
      <h2>Conversa</h2>
      <ol class="thread">
        <li class="card thread-item thread-customer">
          <p class="hint">
            {m.anonimo ? 'Anônimo' : m.nome_completo} · {formatDateTime(m.criado_em)}
          </p>
          <p class="pre-line">{m.mensagem}</p>
        </li>
        {replies.map((r) => (
          <li class="card thread-item thread-staff" key={r.id}>
            <p class="hint">
              {r.usuario ?? 'Equipe'} · {formatDateTime(r.criado_em)} ·{' '}
              {r.canal === 'email' ? `e-mail para ${r.destinatario}` : `WhatsApp/telefone ${r.destinatario ?? ''}`}
            </p>
            <p class="pre-line">{r.texto}</p>
          </li>
        ))}
      </ol>
      {files.length ? (
        <>
          <h2>Fotos</h2>
          <div class="photo-grid">
            {files.map((f, i) => (
              <figure key={f.id}>
                <a href={`${INBOX_PATH}/foto/${f.id}`}>
                  <img
                    src={`${INBOX_PATH}/foto/${f.id}`}
                    alt={`Foto ${i + 1} enviada com a mensagem`}
                    width={f.largura}
                    height={f.altura}
                    loading="lazy"
                  />
                </a>
                <figcaption class="hint">
                  {f.largura}×{f.altura} · {Math.ceil(f.tamanho / 1024)} KB
                </figcaption>
              </figure>
            ))}
          </div>
        </>
      ) : null}
      {detail.consentimentoRevogadoEm ? (
        <section aria-labelledby="responder-titulo">
          <h2 id="responder-titulo">Responder</h2>
          <p class="alert alert-error" role="status">
            A pessoa revogou o consentimento de contato em {formatDateTime(detail.consentimentoRevogadoEm)}: não
            responda por e-mail, WhatsApp ou telefone.
          </p>
        </section>
      ) : m.contato_email || m.contato_telefone ? (
        <section aria-labelledby="responder-titulo">
          <h2 id="responder-titulo">Responder</h2>
          {wa ? (
            <p>
              <a class="button secondary" href={wa} target="_blank" rel="noopener noreferrer">
                Abrir conversa no WhatsApp
              </a>{' '}
              <span class="hint">(abre com uma saudação pronta; depois registre aqui o que foi dito)</span>
            </p>
          ) : null}
          <PostForm action={`${INBOX_PATH}/${m.id}/responder`} csrfToken={csrfToken} class="card reply-form">
            {m.contato_email && m.contato_telefone ? (
              <fieldset>
                <legend>Como responder</legend>
                {/* biome-ignore format: its fill leaves a line over 120 columns */}
                <label class="choice">
                  <input type="radio" name="canal" value="email" checked={canal === 'email'} />{' '}
                  Enviar por e-mail para{' '}
                  {m.contato_email}
                </label>
                <label class="choice">
                  <input type="radio" name="canal" value="whatsapp" checked={canal === 'whatsapp'} /> Registrar resposta
                  dada por WhatsApp/telefone
                </label>
              </fieldset>
            ) : (
              <input type="hidden" name="canal" value={m.contato_email ? 'email' : 'whatsapp'} />
            )}
            <label for="texto">{m.contato_email ? 'Resposta' : 'O que foi dito ao cliente'}</label>
            <textarea
              id="texto"
              name="texto"
              maxLength={REPLY_MAX}
              rows={6}
              aria-invalid={errors.texto ? 'true' : undefined}
              aria-describedby={['resposta-dica', errors.texto ? 'erro-texto' : ''].filter(Boolean).join(' ')}
            >
              {replyForm?.texto ?? ''}
            </textarea>
            <p class="hint" id="resposta-dica">
              {m.contato_email
                ? `O e-mail sai em nome da ${brandName}${
                    m.unidade_email ? `; se o cliente responder, a resposta vai para ${m.unidade_email}` : ''
                  }.${mailConfigured ? '' : ' O envio de e-mail não está configurado neste servidor.'}`
                : 'Sem e-mail: use o WhatsApp e registre aqui a resposta.'}
            </p>
            <FieldError id="erro-texto" message={errors.texto} />
            <FieldError id="erro-canal" message={errors.canal} />
            <p>
              <button type="submit">{m.contato_email ? 'Enviar resposta' : 'Registrar resposta'}</button>
            </p>
          </PostForm>
        </section>
      ) : null}
      <PostForm action={`${INBOX_PATH}/${m.id}/status`} csrfToken={csrfToken} class="card">
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
      </PostForm>
      {history.length ? (
        <section aria-labelledby="historico-titulo">
          <h2 id="historico-titulo">Histórico</h2>
          <ul class="history">
            {history.map((h) => (
              <li key={h.id}>
                {formatDateTime(h.criado_em)}: {h.status_de ? `${statusLabel(h.status_de)} → ` : ''}
                {statusLabel(h.status_para)}
                {h.usuario ? ` por ${h.usuario}` : ''}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </Layout>
  );
}

import { Layout } from '../../views/layout';
import { PageLinks } from '../../views/table';
import { formatPhone as formatBrazilianPhone, phoneDigits } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import type { FranquiaLead } from '../../db/types';
import {
  LEAD_STATUSES,
  LIMITS,
  OPTION_FIELD_NAMES,
  OPTION_FIELDS,
  type Option,
  optionLabel,
  statusLabel,
  TEXT_FIELD_LABELS,
} from './options';
import type { PanelFilters } from './panel.service';

export const PANEL_PATH = '/pages/Franquia/admin.php';
type Staff = { name: string; csrfToken: string } | null;

export function panelUrl(pairs: [string, string][]): string {
  const qs = new URLSearchParams(pairs).toString();
  return qs ? `${PANEL_PATH}?${qs}` : PANEL_PATH;
}

const FLASH: Record<string, string> = {
  status: 'Status atualizado.',
  nota: 'Anotação salva.',
  excluido: 'Lead excluído definitivamente, com o histórico e as anotações.',
};

export interface LeadListProps {
  staff: Staff;
  filters: PanelFilters;
  filterPairs: [string, string][];
  rows: FranquiaLead[];
  total: number;
  page: number;
  pages: number;
  /** the page's first row (0-based) and size, from src/lib/pagination.ts's pageWindow */
  offset: number;
  limit: number;
  outOfRange: boolean;
  flash?: string;
}

export function LeadListPage({
  staff,
  filters,
  filterPairs,
  rows,
  total,
  page,
  pages,
  offset,
  limit,
  outOfRange,
  flash,
}: LeadListProps) {
  const first = total ? offset + 1 : 0;
  const last = Math.min(total, offset + limit);
  const moreOpen = Boolean(filters.de || filters.ate || Object.keys(filters.options).length);
  const pageLink = (p: number) =>
    panelUrl([...filterPairs, ...(p > 1 ? ([['pagina', String(p)]] as [string, string][]) : [])]);
  return (
    <Layout title="Leads de franquia" staff={staff}>
      <h1>Leads de franquia</h1>
      {flash && FLASH[flash] ? (
        <p class="alert alert-ok" role="status">
          {FLASH[flash]}
        </p>
      ) : null}
      <form method="get" action={PANEL_PATH} class="card" aria-labelledby="filtros-titulo">
        <h2 id="filtros-titulo">Filtros</h2>
        <div class="filters">
          <div>
            <label for="f-q">Busca</label>
            <input id="f-q" name="q" type="search" value={filters.q} maxLength={100} aria-describedby="f-q-dica" />
            <p class="hint" id="f-q-dica">
              Nome, e-mail, WhatsApp ou cidade; acentos não importam.
            </p>
          </div>
          <div>
            <label for="f-status">Status</label>
            <select id="f-status" name="status">
              <option value="">Todos</option>
              {LEAD_STATUSES.map((s) => (
                <option value={s.value} selected={filters.status === s.value} key={s.value}>
                  {s.label}
                </option>
              ))}
            </select>
          </div>
        </div>
        <details class="more-filters" open={moreOpen}>
          <summary>Mais filtros: respostas do formulário e datas</summary>
          <div class="filters">
            {OPTION_FIELD_NAMES.map((f) => (
              <div key={f}>
                <label for={`f-${f}`}>{OPTION_FIELDS[f].label}</label>
                <select id={`f-${f}`} name={f}>
                  <option value="">Todas as respostas</option>
                  {(OPTION_FIELDS[f].options as readonly Option[]).map((o) => (
                    <option value={o.value} selected={filters.options[f] === o.value} key={o.value}>
                      {o.label}
                    </option>
                  ))}
                </select>
              </div>
            ))}
            <div>
              <label for="f-de">Recebidos de</label>
              <input id="f-de" name="de" type="date" value={filters.de} />
            </div>
            <div>
              <label for="f-ate">até</label>
              <input id="f-ate" name="ate" type="date" value={filters.ate} />
            </div>
          </div>
        </details>
        <div class="filters actions">
          <button type="submit">Filtrar</button>
          <a class="button secondary" href={PANEL_PATH}>
            Limpar filtros
          </a>
          <a class="button secondary" href={panelUrl([...filterPairs, ['export', 'csv']])} download>
            Exportar CSV ({total})
          </a>
        </div>
      </form>

      <p role="status" id="resultado">
        {total === 0
          ? 'Nenhum lead encontrado com estes filtros.'
          : `${total} lead${total === 1 ? '' : 's'} · mostrando ${first}–${last}`}
        {outOfRange ? ` (a página pedida não existe; esta é a última, ${pages}).` : ''}
      </p>

      {rows.length ? (
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">Leads de franquia, mais recentes primeiro</caption>
            <thead>
              <tr>
                <th scope="col">Nome</th>
                <th scope="col">Status</th>
                <th scope="col">Cidade/região</th>
                <th scope="col">Recebido em</th>
                <th scope="col" class="wide-only">
                  Investimento
                </th>
                <th scope="col" class="wide-only">
                  Prazo
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((l) => (
                <tr key={l.id}>
                  <td>
                    <a href={`${PANEL_PATH}?lead=${l.id}`}>{l.nome_completo}</a>
                  </td>
                  <td>
                    <span class="badge">{statusLabel(l.status)}</span>
                  </td>
                  <td>{l.cidade_regiao}</td>
                  <td>{formatDateTime(l.criado_em)}</td>
                  <td class="wide-only">{optionLabel('faixa_investimento', l.faixa_investimento)}</td>
                  <td class="wide-only">{optionLabel('prazo_proximo_passo', l.prazo_proximo_passo)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}

      <PageLinks page={page} pages={pages} href={pageLink} linkClass="button secondary" />
    </Layout>
  );
}

export interface LeadDetailProps {
  staff: Staff;
  csrfToken: string;
  lead: FranquiaLead;
  history: {
    id: number;
    status_de: string | null;
    status_para: string;
    criado_em: string;
    usuario_id: number | null;
    usuario_nome: string | null;
  }[];
  notes: { id: number; texto: string; criado_em: string; usuario_id: number | null; usuario_nome: string | null }[];
  flash?: string;
  noteError?: string;
  noteValue?: string;
}

const who = (userId: number | null, name: string | null) =>
  name ? name : userId === null ? 'Formulário do site' : 'Conta removida';

export function LeadDetailPage({
  staff,
  csrfToken,
  lead,
  history,
  notes,
  flash,
  noteError,
  noteValue,
}: LeadDetailProps) {
  const wa = `https://wa.me/${phoneDigits(lead.whatsapp)}`;
  return (
    <Layout title={`Lead: ${lead.nome_completo}`} staff={staff}>
      <p>
        <a href={PANEL_PATH}>← Todos os leads</a>
      </p>
      <h1>{lead.nome_completo}</h1>
      {flash && FLASH[flash] ? (
        <p class="alert alert-ok" role="status">
          {FLASH[flash]}
        </p>
      ) : null}

      <section class="card" aria-labelledby="dados-titulo">
        <h2 id="dados-titulo">Dados do lead</h2>
        <dl class="lead-fields">
          <dt>Recebido em</dt>
          <dd>{formatDateTime(lead.criado_em)}</dd>
          <dt>{TEXT_FIELD_LABELS.nome_completo}</dt>
          <dd>{lead.nome_completo}</dd>
          <dt>{TEXT_FIELD_LABELS.whatsapp}</dt>
          <dd>
            {formatBrazilianPhone(lead.whatsapp)} ·{' '}
            <a href={wa} rel="noopener noreferrer" target="_blank">
              Conversar no WhatsApp
            </a>
          </dd>
          <dt>{TEXT_FIELD_LABELS.email}</dt>
          <dd>
            <a href={`mailto:${lead.email}`}>{lead.email}</a>
          </dd>
          <dt>{TEXT_FIELD_LABELS.cidade_regiao}</dt>
          <dd>{lead.cidade_regiao}</dd>
          {OPTION_FIELD_NAMES.map((f) => [
            <dt key={`${f}-t`}>{OPTION_FIELDS[f].label}</dt>,
            <dd key={`${f}-d`}>{optionLabel(f, lead[f])}</dd>,
          ])}
        </dl>
      </section>

      <section class="card" aria-labelledby="status-titulo">
        <h2 id="status-titulo">Status</h2>
        <ol class="pipeline" aria-label="Etapas do atendimento">
          {LEAD_STATUSES.map((s) => (
            <li key={s.value} aria-current={lead.status === s.value ? 'step' : undefined}>
              {s.label}
            </li>
          ))}
        </ol>
        <form method="post" action={PANEL_PATH}>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="acao" value="status" />
          <input type="hidden" name="lead_id" value={String(lead.id)} />
          <label for="novo-status">Mudar para</label>
          <select id="novo-status" name="status">
            {LEAD_STATUSES.map((s) => (
              <option value={s.value} selected={lead.status === s.value} key={s.value}>
                {s.label}
              </option>
            ))}
          </select>
          <p>
            <button type="submit">Salvar status</button>
          </p>
        </form>
        <h3>Histórico</h3>
        <ol class="timeline">
          {history.map((e) => (
            <li key={e.id}>
              {formatDateTime(e.criado_em)} · {who(e.usuario_id, e.usuario_nome)}:{' '}
              {e.status_de
                ? `${statusLabel(e.status_de)} → ${statusLabel(e.status_para)}`
                : `criado como ${statusLabel(e.status_para)}`}
            </li>
          ))}
        </ol>
      </section>

      <section class="card" aria-labelledby="notas-titulo">
        <h2 id="notas-titulo">Anotações da equipe</h2>
        {notes.length ? (
          <ol class="timeline">
            {notes.map((n) => (
              <li key={n.id}>
                <p class="muted">
                  {formatDateTime(n.criado_em)} · {who(n.usuario_id, n.usuario_nome)}
                </p>
                <p class="note-text">{n.texto}</p>
              </li>
            ))}
          </ol>
        ) : (
          <p class="muted">Nenhuma anotação ainda.</p>
        )}
        <form method="post" action={PANEL_PATH}>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="acao" value="nota" />
          <input type="hidden" name="lead_id" value={String(lead.id)} />
          <label for="nota-texto">Nova anotação</label>
          <textarea
            id="nota-texto"
            name="texto"
            maxLength={LIMITS.nota}
            required
            aria-invalid={noteError ? 'true' : undefined}
            aria-describedby={noteError ? 'nota-erro' : undefined}
          >
            {noteValue ?? ''}
          </textarea>
          {noteError ? (
            <p class="field-error" id="nota-erro">
              {noteError}
            </p>
          ) : null}
          <p>
            <button type="submit">Salvar anotação</button>
          </p>
        </form>
      </section>

      <section class="card" aria-labelledby="excluir-titulo">
        <h2 id="excluir-titulo">Excluir (LGPD)</h2>
        <p>
          Use quando a pessoa pedir a exclusão dos seus dados. O lead, o histórico e as anotações são apagados
          definitivamente.
        </p>
        <p>
          <a class="button danger" href={`${PANEL_PATH}?lead=${lead.id}&excluir=1`}>
            Excluir este lead…
          </a>
        </p>
      </section>
    </Layout>
  );
}

export function DeleteConfirmPage({ staff, csrfToken, lead }: { staff: Staff; csrfToken: string; lead: FranquiaLead }) {
  return (
    <Layout title="Confirmar exclusão" staff={staff}>
      <section class="card">
        <h1>Excluir o lead de {lead.nome_completo}?</h1>
        <p>
          Os dados de {lead.nome_completo} ({lead.email}), o histórico de status e as anotações serão apagados
          definitivamente. Esta ação não pode ser desfeita.
        </p>
        <form method="post" action={PANEL_PATH}>
          <input type="hidden" name="csrf_token" value={csrfToken} />
          <input type="hidden" name="acao" value="excluir" />
          <input type="hidden" name="lead_id" value={String(lead.id)} />
          <input type="hidden" name="confirmar" value="sim" />
          <p>
            <button type="submit" class="danger">
              Sim, excluir definitivamente
            </button>{' '}
            <a class="button secondary" href={`${PANEL_PATH}?lead=${lead.id}`}>
              Cancelar
            </a>
          </p>
        </form>
      </section>
    </Layout>
  );
}

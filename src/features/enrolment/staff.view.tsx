// Staff pages of enrolments: the list with its filters and the refunds queue, the detail
// (acceptance proof, payments, history, actions) and the contract's versions.
import { formatBRL } from '../../lib/text';
import { formatDateTime, formatDay } from '../../lib/time';
import { Csrf, StaffPage, type StaffProps } from '../../staff/form.view';
import { DataTable, Pagination } from '../../staff/list.view';
import type { PageWindow } from '../../lib/pagination';
import { formatCnpjDigits, formatCpfDigits, PLACEHOLDERS } from './contract';
import type { ContractVersion, HistoryRow } from './enrolment.repository';
import { STATUS_LABELS, type Enrolment, type Payment } from './enrolment.service';
import { DEFAULTING } from './staff.service';
import { paymentLabel } from './enrolment.view';

export const STAFF_PATH = '/admin/matriculas';
export const CONTRACT_PATH = '/admin/matriculas/contrato';
export const detailPath = (id: number) => `${STAFF_PATH}/${id}`;
const paymentActionPath = (id: number, pay: Pick<Payment, 'id' | 'tipo'>) =>
  `${detailPath(id)}/pagamentos/${pay.id}/${pay.tipo === 'reembolso' ? 'reembolso' : 'confirmar'}`;

type ListRow = Pick<
  Enrolment,
  'id' | 'unidade_nome' | 'plano_nome' | 'nome' | 'status' | 'primeiro_pagamento_centavos' | 'criado_em' | 'recepcao_em'
> &
  Partial<Pick<Enrolment, 'inadimplente_desde' | 'atencao'>>;

/** The badges beside a member's status: inadimplente, and a chargeback to answer. */
function Flags({ e }: { e: Partial<Pick<Enrolment, 'inadimplente_desde' | 'atencao'>> }) {
  return (
    <>
      {e.inadimplente_desde ? (
        <>
          {' '}
          <span class="badge badge-warn" data-inadimplente>
            Inadimplente
          </span>
        </>
      ) : null}
      {e.atencao ? (
        <>
          {' '}
          <span class="badge badge-warn" title={e.atencao}>
            Atenção
          </span>
        </>
      ) : null}
    </>
  );
}
type RefundRow = {
  id: number;
  valor_centavos: number;
  prazo: string | null;
  matricula_id: number;
  nome: string;
  unidade_nome: string;
};

export function EnrolmentListPage(p: {
  staff: StaffProps;
  units: { id: number; nome: string }[];
  filter: { unidade_id: string; status: string; de: string; ate: string };
  rows: ListRow[];
  window: PageWindow;
  refunds: RefundRow[];
  now: Date;
}) {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(p.filter)) if (v) params[k] = v;
  const qs = new URLSearchParams(params).toString();
  return (
    <StaffPage title="Matrículas online" staff={p.staff}>
      {p.refunds.length ? (
        <section class="card attention" aria-labelledby="reembolsos">
          <h2 id="reembolsos">Devoluções a fazer ({p.refunds.length})</h2>
          <ul class="attention-list">
            {p.refunds.map((r) => {
              const late = r.prazo !== null && r.prazo < p.now.toISOString();
              return (
                <li key={r.id} class={late ? 'late' : undefined}>
                  <a href={detailPath(r.matricula_id)}>
                    {r.nome} · {r.unidade_nome}
                  </a>
                  : {formatBRL(r.valor_centavos)} — {late ? 'ATRASADA, prazo era ' : 'até '}
                  {r.prazo ? formatDateTime(r.prazo) : '—'}
                </li>
              );
            })}
          </ul>
        </section>
      ) : null}
      <form method="get" action={STAFF_PATH} class="list-filter" aria-label="Filtros">
        <label for="f-unidade">Unidade</label>
        <select id="f-unidade" name="unidade_id">
          <option value="">Todas</option>
          {p.units.map((u) => (
            <option key={u.id} value={String(u.id)} selected={p.filter.unidade_id === String(u.id)}>
              {u.nome}
            </option>
          ))}
        </select>
        <label for="f-status">Situação</label>
        <select id="f-status" name="status">
          <option value="">Todas</option>
          {Object.entries(STATUS_LABELS).map(([k, label]) => (
            <option key={k} value={k} selected={p.filter.status === k}>
              {label}
            </option>
          ))}
          <option value={DEFAULTING} selected={p.filter.status === DEFAULTING}>
            Inadimplentes (mensalidade vencida)
          </option>
        </select>
        <label for="f-de">De</label>
        <input id="f-de" type="date" name="de" value={p.filter.de} />
        <label for="f-ate">Até</label>
        <input id="f-ate" type="date" name="ate" value={p.filter.ate} />
        <button type="submit">Filtrar</button>
        <p class="muted">
          {p.window.total === 1 ? '1 matrícula' : `${p.window.total} matrículas`} ·{' '}
          <a href={`${STAFF_PATH}.csv${qs ? `?${qs}` : ''}`}>Exportar CSV</a> · <a href={CONTRACT_PATH}>Contrato</a>
        </p>
      </form>
      <DataTable
        label="Matrículas"
        caption="Matrículas"
        rows={p.rows}
        empty="Nenhuma matrícula com estes filtros."
        columns={['Data', 'Nome', 'Unidade', 'Plano', 'Situação', '1º pagamento', 'Recepção']}
        row={(r) => (
          <tr key={r.id}>
            <td>{formatDateTime(r.criado_em)}</td>
            <td>
              <a href={detailPath(r.id)}>{r.nome}</a>
            </td>
            <td>{r.unidade_nome}</td>
            <td>{r.plano_nome}</td>
            <td>
              {STATUS_LABELS[r.status]}
              <Flags e={r} />
            </td>
            <td>{formatBRL(r.primeiro_pagamento_centavos)}</td>
            <td>{r.recepcao_em ? 'cadastrada' : '—'}</td>
          </tr>
        )}
      />
      <Pagination list={{ path: STAFF_PATH, q: '', params, page: p.window.page, pages: p.window.pages }} />
    </StaffPage>
  );
}

const NOTICES: Record<string, string> = {
  pagamento: 'Pagamento confirmado.',
  reembolso: 'Devolução registrada.',
  recepcao: 'Marcada como cadastrada na recepção.',
  nada: 'Nada mudou: a situação já era outra (outra pessoa pode ter agido antes).',
};

export function EnrolmentDetailPage(p: {
  staff: StaffProps;
  enrolment: Enrolment;
  payments: Payment[];
  history: HistoryRow[];
  notice?: string;
}) {
  const e = p.enrolment;
  return (
    <StaffPage title={`Matrícula de ${e.nome}`} staff={p.staff} crumbs={[{ href: STAFF_PATH, label: 'Matrículas' }]}>
      <p>
        Situação: <span class="badge">{STATUS_LABELS[e.status]}</span>
        <Flags e={e} />
      </p>
      {e.inadimplente_desde ? (
        <p class="alert alert-error" role="alert">
          Inadimplente desde {formatDateTime(e.inadimplente_desde)}: há mensalidade vencida sem pagamento.
        </p>
      ) : null}
      {e.atencao ? (
        <p class="alert alert-error" role="alert">
          {e.atencao}
        </p>
      ) : null}
      {p.notice && NOTICES[p.notice] ? (
        <p class="alert alert-ok" role="status">
          {NOTICES[p.notice]}
        </p>
      ) : null}
      <section class="card enrolment-section">
        <h2>Dados</h2>
        <dl class="details">
          <dt>Unidade e plano</dt>
          <dd>
            {e.unidade_nome} · {e.plano_nome}
          </dd>
          <dt>CPF</dt>
          <dd>{formatCpfDigits(e.cpf)}</dd>
          <dt>Nascimento</dt>
          <dd>{e.nascimento}</dd>
          <dt>Contato</dt>
          <dd>
            {e.email} · {e.whatsapp ?? '—'}
          </dd>
          {e.responsavel_nome ? (
            <>
              <dt>Responsável</dt>
              <dd>
                {e.responsavel_nome}, CPF {formatCpfDigits(e.responsavel_cpf ?? '')}
              </dd>
            </>
          ) : null}
          <dt>Valores aceitos</dt>
          <dd>
            Mensalidade {formatBRL(e.mensalidade_centavos)} (dia {e.dia_vencimento}); matrícula{' '}
            {formatBRL(e.taxa_matricula_centavos)}; anual {formatBRL(e.taxa_anual_centavos)}; fidelidade{' '}
            {e.fidelidade_meses} meses; multa {e.multa_percentual}%
          </dd>
          {e.protocolo ? (
            <>
              <dt>Cancelamento</dt>
              <dd>
                Protocolo {e.protocolo}, vale a partir de {e.cancelamento_efetivo_em}; multa{' '}
                {formatBRL(e.multa_centavos ?? 0)}
              </dd>
            </>
          ) : null}
        </dl>
        {e.status === 'ativa' && !e.recepcao_em ? (
          <form method="post" action={`${detailPath(e.id)}/recepcao`}>
            <Csrf token={p.staff.csrfToken} />
            <button type="submit">Marcar como cadastrada na recepção</button>
          </form>
        ) : null}
      </section>
      <section class="card enrolment-section">
        <h2>Pagamentos</h2>
        <ul class="payment-list">
          {p.payments.map((pay) => (
            <li key={pay.id}>
              {paymentLabel(pay)}: {formatBRL(pay.valor_centavos)} · ref. {pay.referencia}
              {pay.pago_em ? ` · ${formatDateTime(pay.pago_em)}` : ''}
              {pay.prazo && pay.status === 'pendente' ? ` · prazo ${formatDateTime(pay.prazo)}` : ''}
              {pay.vencimento ? ` · vence ${formatDay(pay.vencimento)}` : ''}
              {pay.provedor_id ? ` · ${pay.provedor} ${pay.provedor_id}` : ''}
              {/* A provider that confirms by itself (Asaas) settles its rows: staff act on Pix rows only. */}
              {pay.provedor === 'pix' &&
              (pay.status === 'pendente' || (pay.status === 'expirado' && pay.tipo === 'primeiro')) ? (
                <form method="post" action={paymentActionPath(e.id, pay)} class="inline">
                  <Csrf token={p.staff.csrfToken} />
                  <button type="submit">
                    {pay.tipo === 'reembolso' ? 'Registrar devolução feita' : 'Confirmar pagamento (visto no extrato)'}
                  </button>
                </form>
              ) : null}
              {/* Paid, then withdrawn before staff saw it: recorded, and a refund enters the queue. */}
              {pay.provedor === 'pix' &&
              pay.status === 'cancelado' &&
              pay.tipo !== 'reembolso' &&
              e.status === 'desistencia' ? (
                <form method="post" action={paymentActionPath(e.id, pay)} class="inline">
                  <Csrf token={p.staff.csrfToken} />
                  <button type="submit">Pix recebido depois da desistência: registrar e devolver</button>
                </form>
              ) : null}
            </li>
          ))}
        </ul>
      </section>
      <section class="card enrolment-section">
        <h2>Prova do aceite</h2>
        <dl class="details">
          <dt>Aceito em</dt>
          <dd>{formatDateTime(e.aceito_em)}</dd>
          <dt>IP e navegador</dt>
          <dd>
            {e.aceite_ip ?? '—'} · {e.aceite_user_agent ?? '—'}
          </dd>
          <dt>Empresa</dt>
          <dd>
            {e.razao_social}, <span class="nowrap">CNPJ {formatCnpjDigits(e.cnpj)}</span>, {e.endereco_juridico}
          </dd>
          <dt>Contrato</dt>
          <dd>
            versão {e.contrato_versao}, SHA-256 <code>{e.contrato_sha256}</code>
          </dd>
        </dl>
        <details>
          <summary>Texto exato aceito</summary>
          <pre class="contract-text">{e.contrato_texto}</pre>
        </details>
      </section>
      <section class="card enrolment-section">
        <h2>Histórico</h2>
        <ol class="timeline">
          {p.history.map((h) => (
            <li key={h.id}>
              {formatDateTime(h.criado_em)}: {h.de ? `${STATUS_LABELS[h.de as Enrolment['status']] ?? h.de} → ` : ''}
              {STATUS_LABELS[h.para as Enrolment['status']] ?? h.para} ({h.origem}
              {h.usuario_nome ? `: ${h.usuario_nome}` : ''}){h.detalhe ? ` — ${h.detalhe}` : ''}
            </li>
          ))}
        </ol>
      </section>
    </StaffPage>
  );
}

export function ContractPage(p: {
  staff: StaffProps;
  versions: (ContractVersion & { usuario_nome: string | null })[];
  text: string;
  error?: string;
  saved?: number | null;
}) {
  return (
    <StaffPage title="Contrato de matrícula" staff={p.staff} crumbs={[{ href: STAFF_PATH, label: 'Matrículas' }]}>
      {p.saved ? (
        <p class="alert alert-ok" role="status">
          Versão {p.saved} salva. As matrículas já aceitas mantêm a versão que aceitaram.
        </p>
      ) : null}
      <form method="post" action={CONTRACT_PATH} class="card">
        <Csrf token={p.staff.csrfToken} />
        <label for="texto">Texto do contrato (salvar cria uma nova versão)</label>
        {p.error ? (
          <p class="field-error" id="texto-erro">
            {p.error}
          </p>
        ) : null}
        <textarea
          id="texto"
          name="texto"
          rows={24}
          aria-invalid={p.error ? 'true' : undefined}
          aria-describedby={p.error ? 'texto-erro' : undefined}
        >
          {p.text}
        </textarea>
        <details>
          <summary>Campos que o texto pode usar</summary>
          <ul>
            {Object.entries(PLACEHOLDERS).map(([k, v]) => (
              <li key={k}>
                <code>{`{{${k}}}`}</code>: {v}
              </li>
            ))}
          </ul>
        </details>
        <button type="submit">Salvar nova versão</button>
      </form>
      <h2>Versões</h2>
      <ul>
        {p.versions.map((v) => (
          <li key={v.id}>
            <a href={`${CONTRACT_PATH}/${v.versao}`}>Versão {v.versao}</a> · {formatDateTime(v.criado_em)}
            {v.usuario_nome ? ` · ${v.usuario_nome}` : ''}
          </li>
        ))}
      </ul>
    </StaffPage>
  );
}

export function ContractVersionPage({ staff, version }: { staff: StaffProps; version: ContractVersion }) {
  return (
    <StaffPage
      title={`Contrato, versão ${version.versao}`}
      staff={staff}
      crumbs={[{ href: CONTRACT_PATH, label: 'Contrato' }]}
    >
      <p class="muted">Salva em {formatDateTime(version.criado_em)}.</p>
      <pre class="contract-text">{version.texto}</pre>
    </StaffPage>
  );
}

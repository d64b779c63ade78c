// The admins' page of the payment provider (/admin/pagamentos): its last webhook event,
// events waiting or failed, charges the reconciliation is asking about, the daily
// differences between the provider's received payments and ours, and chargebacks.
import type { Selectable } from 'kysely';
import type { PagamentosDivergenciasTable } from '../../db/types';
import { formatBRL } from '../../lib/text';
import { formatDateTime, formatDay } from '../../lib/time';
import { Csrf, StaffPage, type StaffProps } from '../../staff/form.view';
import { DataTable } from '../../staff/list.view';
import { detailPath, STAFF_PATH } from './staff.view';

export const PROVIDER_PATH = '/admin/pagamentos';

const DIFFERENCE: Record<string, string> = {
  so_no_provedor: 'recebido no provedor, não pago aqui',
  so_no_site: 'pago aqui, não recebido no provedor',
  valor: 'valores diferentes',
};

export interface ProviderPageProps {
  staff: StaffProps;
  provider: string;
  webhookUrl: string;
  events: {
    last: { id: string; tipo: string; recebido_em: string; status: string } | null;
    byStatus: Record<string, number>;
  };
  unsettled: {
    id: string;
    tipo: string;
    status: string;
    tentativas: number;
    recebido_em: string;
    erro: string | null;
  }[];
  stale: number;
  differences: Omit<Selectable<PagamentosDivergenciasTable>, 'criado_em'>[];
  attention: { id: number; nome: string; unidade_nome: string; atencao: string | null; atualizado_em: string }[];
  task: { ultima_em: string | null; ultimo_erro: string | null; proxima_em: string } | null;
  notice?: string;
}

const money = (c: number | null) => (c === null ? '—' : formatBRL(c));

export function ProviderPage(p: ProviderPageProps) {
  return (
    <StaffPage title="Pagamentos online" staff={p.staff} crumbs={[{ href: STAFF_PATH, label: 'Matrículas' }]}>
      {p.notice ? (
        <p class="alert alert-ok" role="status">
          {p.notice}
        </p>
      ) : null}
      <section class="card" aria-labelledby="provedor">
        <h2 id="provedor">Provedor: {p.provider}</h2>
        <dl class="details">
          <dt>Último evento recebido</dt>
          <dd data-last-event>
            {p.events.last
              ? `${p.events.last.tipo} em ${formatDateTime(p.events.last.recebido_em)} (${p.events.last.status})`
              : 'nenhum ainda: confira o webhook no painel do provedor'}
          </dd>
          <dt>Eventos</dt>
          <dd>
            {p.events.byStatus.pendente ?? 0} a processar · {p.events.byStatus.processado ?? 0} processados ·{' '}
            <strong data-failed-events>{p.events.byStatus.falhou ?? 0} com falha</strong>
          </dd>
          <dt>Conciliação pendente</dt>
          <dd data-stale>
            {p.stale === 1 ? '1 cobrança' : `${p.stale} cobranças`} a consultar no provedor: primeiras cobranças sem
            notícia há mais de 10 minutos e as demais já vencidas, sem notícia há mais de uma hora (o sistema consulta a
            cada minuto)
          </dd>
          <dt>Comparação diária</dt>
          <dd>
            {p.task?.ultima_em ? `última em ${formatDateTime(p.task.ultima_em)}` : 'ainda não feita'}
            {p.task?.ultimo_erro ? ` · erro: ${p.task.ultimo_erro}` : ''}
          </dd>
          <dt>Endereço do webhook</dt>
          <dd>
            <code>{p.webhookUrl}</code>
          </dd>
        </dl>
      </section>
      {p.attention.length ? (
        <section class="card attention" aria-labelledby="atencao">
          <h2 id="atencao">Precisa de atenção ({p.attention.length})</h2>
          <ul class="attention-list">
            {p.attention.map((a) => (
              <li key={a.id}>
                <a href={detailPath(a.id)}>
                  {a.nome} · {a.unidade_nome}
                </a>
                : {a.atencao}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <h2>Diferenças da comparação diária</h2>
      <DataTable
        label="Diferenças"
        caption="Diferenças entre os pagamentos recebidos no provedor e os registrados aqui"
        rows={p.differences}
        empty="Nenhuma diferença encontrada."
        columns={['Dia', 'Cobrança no provedor', 'Referência', 'Diferença', 'Provedor', 'Aqui']}
        row={(d) => (
          <tr key={d.id}>
            <td>{formatDay(d.dia)}</td>
            <td>
              <code>{d.provedor_id}</code>
            </td>
            <td>{d.referencia ?? '—'}</td>
            <td>{DIFFERENCE[d.tipo] ?? d.tipo}</td>
            <td>{money(d.valor_provedor_centavos)}</td>
            <td>{money(d.valor_site_centavos)}</td>
          </tr>
        )}
      />
      <h2>Eventos com falha ou em nova tentativa</h2>
      <DataTable
        label="Eventos"
        caption="Eventos do webhook que ainda não foram processados"
        rows={p.unsettled}
        empty="Nenhum."
        columns={['Recebido', 'Tipo', 'Tentativas', 'Erro', '']}
        row={(e) => (
          <tr key={e.id}>
            <td>{formatDateTime(e.recebido_em)}</td>
            <td>{e.tipo}</td>
            <td>{e.tentativas}</td>
            <td>{e.erro ?? '—'}</td>
            <td>
              {e.status === 'falhou' ? (
                <form method="post" action={`${PROVIDER_PATH}/eventos/reprocessar`} class="inline">
                  <Csrf token={p.staff.csrfToken} />
                  <input type="hidden" name="id" value={e.id} />
                  <button type="submit">Processar de novo</button>
                </form>
              ) : (
                'nova tentativa agendada'
              )}
            </td>
          </tr>
        )}
      />
    </StaffPage>
  );
}

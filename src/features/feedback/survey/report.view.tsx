import { BackLink, Layout } from '../../../views/layout';
import { DataTable, HeadedRow, PageLinks } from '../../../views/table';
import { formatDateTime } from '../../../lib/time';
import { ChoiceFilter, FilterActions, UnitFilter, type StaffProps } from '../filters.view';
import {
  categoryOf,
  CATEGORY_LABEL,
  countLabel,
  formatNps,
  formatPercent,
  npsCountsText,
  percent,
  type ResponseListFilter,
  type Period,
} from './nps';

const LIST_FILTER_LABEL: Record<ResponseListFilter, string> = {
  promotores: 'Promotores (9–10)',
  neutros: 'Neutros (7–8)',
  detratores: 'Detratores (0–6)',
  pendentes: 'Detratores com comentário a tratar',
};
import { NpsChart } from './nps-chart.view';
import type { createSurveyReportService } from './report.service';

type Report = Awaited<ReturnType<ReturnType<typeof createSurveyReportService>['report']>>;

export const REPORT_PATH = '/admin/pesquisa';

export interface SurveyReportProps {
  staff: StaffProps;
  units: { id: number; nome: string }[];
  filters: { unidade_id: string; categoria: string; period: Period };
  report: Report;
}

export function query(filters: SurveyReportProps['filters'], extra: Record<string, string | number> = {}): string {
  const p = new URLSearchParams();
  if (filters.unidade_id) p.set('unidade_id', filters.unidade_id);
  p.set('de', filters.period.de);
  p.set('ate', filters.period.ate);
  if (filters.categoria) p.set('categoria', filters.categoria);
  for (const [k, v] of Object.entries(extra)) p.set(k, String(v));
  return p.toString();
}

const br = (day: string) => day.split('-').reverse().join('/');

export function SurveyReportPage({ staff, units, filters, report }: SurveyReportProps) {
  const { byUnit, overall, trend, chart, byOrigin, distribution, list } = report;
  const chosen = filters.unidade_id ? units.find((u) => String(u.id) === filters.unidade_id) : undefined;
  return (
    <Layout title="Pesquisa de satisfação" staff={staff}>
      <h1>Pesquisa de satisfação</h1>
      <form method="get" action={REPORT_PATH} class="card report-filters">
        <div class="grid filter-grid">
          <UnitFilter units={units} selected={filters.unidade_id} />
          <div>
            <label for="f-de">De</label>
            <input type="date" id="f-de" name="de" value={filters.period.de} />
          </div>
          <div>
            <label for="f-ate">Até</label>
            <input type="date" id="f-ate" name="ate" value={filters.period.ate} />
          </div>
          <ChoiceFilter
            name="categoria"
            label="Nota (lista)"
            options={(Object.keys(LIST_FILTER_LABEL) as ResponseListFilter[]).map((c) => ({
              value: c,
              label: LIST_FILTER_LABEL[c],
            }))}
            selected={filters.categoria}
          />
        </div>
        <FilterActions csvHref={`${REPORT_PATH}/exportar.csv?${query(filters)}`} />
      </form>

      <section aria-labelledby="nps-titulo">
        <h2 id="nps-titulo">
          NPS de {br(filters.period.de)} a {br(filters.period.ate)}
        </h2>
        <div class="nps-headline card">
          <p class="nps-headline-label">{chosen ? `NPS da unidade ${chosen.nome}` : 'NPS da rede'}</p>
          <p
            class={
              `nps-headline-value ` +
              `${overall.nps === null ? '' : overall.nps >= 50 ? 'nps-good' : overall.nps >= 0 ? 'nps-mid' : 'nps-bad'}`
            }
          >
            <strong data-nps-geral="">{formatNps(overall.nps)}</strong>
          </p>
          <p class="muted" data-nps-contagem="">
            {npsCountsText(overall)}
          </p>
        </div>
        <p class="hint">NPS = % de promotores (notas 9 e 10) menos % de detratores (notas 0 a 6).</p>
        <DataTable
          label="Tabela do NPS por unidade"
          caption="NPS por unidade, da maior para a menor"
          columns={['#', 'Unidade', 'Notas', 'Promotores', 'Neutros', 'Detratores', 'NPS']}
          rows={byUnit}
          empty="Nenhuma resposta no período."
          row={(u, i) => (
            <HeadedRow
              key={u.unidadeId}
              data-ranking={u.unidadeId}
              before={[u.nps === null ? '—' : `${i + 1}º`]}
              head={u.nome}
              cells={[
                countLabel(u.total, 'nota', 'notas'),
                ...[u.promotores, u.neutros, u.detratores].map((n) => `${n} (${formatPercent(percent(n, u.total))})`),
                <strong key="nps">{formatNps(u.nps)}</strong>,
              ]}
            />
          )}
        />
      </section>

      <section aria-labelledby="grafico-titulo">
        <h2 id="grafico-titulo">NPS mês a mês (últimos 12 meses)</h2>
        <NpsChart
          points={chart}
          id="grafico-nps"
          caption={
            `NPS mensal ${chosen ? `da unidade ${chosen.nome}` : 'da rede'}, de ${chart[0]!.title} a ` +
            `${chart[chart.length - 1]!.title}`
          }
        />
      </section>

      <section aria-labelledby="canal-titulo">
        <h2 id="canal-titulo">Por canal</h2>
        <DataTable
          label="Tabela do NPS por canal"
          columns={['Canal', 'Notas', 'NPS']}
          rows={byOrigin}
          row={(o) => (
            <HeadedRow
              key={o.origem}
              data-canal={o.origem}
              head={o.label}
              cells={[npsCountsText(o), <strong key="nps">{formatNps(o.nps)}</strong>]}
            />
          )}
        />
      </section>

      <section aria-labelledby="tendencia-titulo">
        <h2 id="tendencia-titulo">Tendência mensal no período</h2>
        <DataTable
          label="Tabela da tendência mensal"
          columns={['Mês', 'Notas', 'Promotores', 'Detratores', 'NPS']}
          rows={trend}
          row={(m) => (
            <HeadedRow key={m.label} head={m.title} cells={[m.total, m.promotores, m.detratores, formatNps(m.nps)]} />
          )}
        />
      </section>

      <section aria-labelledby="distribuicao-titulo">
        <h2 id="distribuicao-titulo">Respostas por pergunta</h2>
        {distribution.map((d) => (
          <div class="card" key={d.id}>
            <h3>{d.texto}</h3>
            <p class="muted">{d.answered} respostas</p>
            <DataTable
              label={`Tabela: ${d.texto}`}
              columns={['Opção', 'Respostas', '%']}
              rows={d.opcoes}
              row={(o) => <HeadedRow key={o.id} head={o.texto} cells={[o.n, formatPercent(o.pct)]} />}
            />
          </div>
        ))}
      </section>

      <section aria-labelledby="lista-titulo">
        <h2 id="lista-titulo">Respostas ({list.total})</h2>
        <DataTable
          label="Tabela das respostas"
          columns={['Data', 'Unidade', 'Nota', 'Cliente', 'Comentário']}
          rows={list.rows}
          empty="Nenhuma resposta com estes filtros."
          row={(r) => {
            const cat = categoryOf(r.nota_nps);
            return (
              <tr key={r.id}>
                <td>
                  <a href={`${REPORT_PATH}/resposta/${r.id}`}>{formatDateTime(r.criado_em)}</a>
                </td>
                <td>{r.unidade}</td>
                <td>
                  {r.nota_nps ?? '—'} {cat ? <span class={`badge ${cat}`}>{CATEGORY_LABEL[cat]}</span> : null}
                </td>
                <td>{r.nome_cliente ?? <span class="muted">não informado</span>}</td>
                <td>
                  {r.comentario ? (r.comentario.length > 120 ? `${r.comentario.slice(0, 120)}…` : r.comentario) : ''}
                </td>
              </tr>
            );
          }}
        />
        <PageLinks
          page={list.page}
          pages={list.pages}
          href={(pagina) => `${REPORT_PATH}?${query(filters, { pagina })}`}
        />
      </section>
    </Layout>
  );
}

type Detail = NonNullable<Awaited<ReturnType<ReturnType<typeof createSurveyReportService>['response']>>>;

export function SurveyResponsePage({
  staff,
  detail,
  csrfToken,
  saved,
}: {
  staff: StaffProps;
  detail: Detail;
  csrfToken?: string;
  saved?: boolean;
}) {
  const { header, items } = detail;
  const cat = categoryOf(header.nota_nps);
  return (
    <Layout title={`Resposta #${header.id}`} staff={staff}>
      <BackLink href={REPORT_PATH} label="Voltar para a pesquisa" />
      <h1>Resposta #{header.id}</h1>
      <dl class="card details">
        <dt>Data</dt>
        <dd>{formatDateTime(header.criado_em)}</dd>
        <dt>Unidade</dt>
        <dd>{header.unidade}</dd>
        <dt>Nota de recomendação</dt>
        <dd>
          {header.nota_nps ?? '—'} {cat ? <span class={`badge ${cat}`}>{CATEGORY_LABEL[cat]}</span> : null}
        </dd>
        <dt>Nome</dt>
        <dd>{header.nome_cliente ?? 'não informado'}</dd>
        <dt>Contato</dt>
        <dd>{header.contato_cliente ?? 'não informado'}</dd>
        <dt>Comentário</dt>
        <dd class="pre-line">{header.comentario ?? '—'}</dd>
      </dl>
      {saved ? (
        <p class="alert alert-ok" role="status">
          Marcada como tratada.
        </p>
      ) : null}
      {cat === 'detratores' ? (
        header.tratada_em ? (
          <p class="card" data-tratada="">
            Tratada em {formatDateTime(header.tratada_em)}
            {header.tratada_por_nome ? ` por ${header.tratada_por_nome}` : ''}.
          </p>
        ) : csrfToken ? (
          <form method="post" action={`${REPORT_PATH}/resposta/${header.id}/tratada`} class="card">
            <input type="hidden" name="csrf_token" value={csrfToken} />
            <p>
              Falou com o cliente ou resolveu o problema? Marque como tratada para tirar esta resposta da fila de
              atenção.
            </p>
            <button type="submit">Marcar como tratada</button>
          </form>
        ) : null
      ) : null}
      <h2>Respostas</h2>
      <dl class="card details">
        {items.map((i) => (
          <>
            <dt key={`q${i.pergunta_id}`}>{i.pergunta}</dt>
            <dd key={`a${i.pergunta_id}`} class="pre-line">
              {i.opcao ?? [i.texto_ok ? 'Está tudo certo' : '', i.texto ?? ''].filter(Boolean).join(' · ')}
            </dd>
          </>
        ))}
      </dl>
    </Layout>
  );
}

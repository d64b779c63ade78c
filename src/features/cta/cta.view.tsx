// Staff: calls-to-action clicks per week and per unit. At chain scale (hundreds of units)
// the units come as one table of period totals, filtered by name/city and paged; a unit's
// name opens its own week-by-week table.
import { Layout } from '../../views/layout';
import { DataTable, PageLinks } from '../../views/table';
import type { PageWindow } from '../../lib/pagination';
import { CTA_ACTIONS, CTA_LABELS } from './cta';

export const CLICKS_PATH = '/admin/cliques';

interface Counts {
  byAction: Record<string, number>;
  total: number;
}

export interface ClicksReport {
  /** Mondays, newest first */
  weeks: string[];
  weekCount: number;
  q: string;
  selectedUnit: { id: number; nome: string; cidade: string } | null;
  /** every matching unit's clicks, per week */
  byWeek: (Counts & { semana: string })[];
  total: number;
  /** the page's units with their totals over the period */
  units: (Counts & { id: number; nome: string; cidade: string; uf: string })[];
  /** paging of the matching units */
  list: PageWindow;
}

const weekLabel = (monday: string) => `${monday.slice(8, 10)}/${monday.slice(5, 7)}/${monday.slice(0, 4)}`;

/** The report's address with its filters (links and page numbers keep them). */
function reportHref(report: ClicksReport, change: { unidade_id?: number | null; pagina?: number } = {}): string {
  const p = new URLSearchParams();
  const unit = change.unidade_id !== undefined ? change.unidade_id : (report.selectedUnit?.id ?? null);
  if (report.q) p.set('q', report.q);
  p.set('semanas', String(report.weekCount));
  if (unit !== null) p.set('unidade_id', String(unit));
  if (change.pagina && change.pagina > 1) p.set('pagina', String(change.pagina));
  return `${CLICKS_PATH}?${p.toString()}`;
}

const actionCells = (c: Counts) => [
  ...CTA_ACTIONS.map((a) => <td key={a}>{c.byAction[a] ?? 0}</td>),
  <td key="total">
    <strong>{c.total}</strong>
  </td>,
];

export function ClicksPage({
  staff,
  report,
}: {
  staff: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' };
  report: ClicksReport;
}) {
  const { list, selectedUnit: unit } = report;
  return (
    <Layout title="Cliques nas chamadas" staff={staff}>
      <h1>Cliques nas chamadas</h1>
      <p class="muted">
        Quantas vezes os visitantes tocaram em “Matricule-se”, “Aula experimental”, no WhatsApp e no benefício, por
        unidade e por semana (segunda a domingo, horário de São Paulo). Contados no servidor, sem cookies nem
        rastreadores.
      </p>
      <form method="get" action={CLICKS_PATH} class="filters" role="search" aria-label="Filtro dos cliques">
        {unit ? <input type="hidden" name="unidade_id" value={String(unit.id)} /> : null}
        <div>
          <label for="cliques-q">Unidade ou cidade</label>
          <input id="cliques-q" name="q" type="search" value={report.q} maxLength={100} />
        </div>
        <div>
          <label for="semanas">Semanas</label>
          <select id="semanas" name="semanas">
            {[4, 8, 12, 26, 52].map((n) => (
              <option value={String(n)} selected={report.weekCount === n} key={n}>
                Últimas {n}
              </option>
            ))}
          </select>
        </div>
        <div class="actions">
          <button type="submit">Filtrar</button>
          {report.q ? <a href={reportHref({ ...report, q: '' })}>Limpar filtro</a> : null}
        </div>
      </form>
      {unit ? (
        <p data-unidade-escolhida="">
          Só a unidade <strong>{unit.nome}</strong>
          {unit.cidade ? ` (${unit.cidade})` : ''} ·{' '}
          <a href={reportHref(report, { unidade_id: null })}>Ver todas as unidades</a>
        </p>
      ) : null}
      <p>
        <strong>{report.total}</strong> {report.total === 1 ? 'clique' : 'cliques'} no período
        {list.total === 1 ? ' em 1 unidade' : ` em ${list.total} unidades`}
        {report.q ? ` que ${list.total === 1 ? 'contém' : 'contêm'} “${report.q}”` : ''}.
      </p>

      <section aria-labelledby="cliques-semana">
        <h2 id="cliques-semana">Por semana</h2>
        <DataTable
          label="Cliques por semana"
          columns={['Semana de', ...CTA_ACTIONS.map((a) => CTA_LABELS[a]), 'Total']}
          rows={report.byWeek}
          row={(w) => (
            <tr key={w.semana}>
              <th scope="row">{weekLabel(w.semana)}</th>
              {actionCells(w)}
            </tr>
          )}
        />
      </section>

      <section aria-labelledby="cliques-unidade">
        <h2 id="cliques-unidade">Por unidade</h2>
        <DataTable
          label="Cliques por unidade no período"
          columns={['Unidade', 'Cidade', ...CTA_ACTIONS.map((a) => CTA_LABELS[a]), 'Total']}
          rows={report.units}
          empty={report.q ? 'Nenhuma unidade com este filtro.' : 'Nenhuma unidade.'}
          row={(u) => (
            <tr key={u.id} data-unidade={u.id}>
              <th scope="row">{unit ? u.nome : <a href={reportHref(report, { unidade_id: u.id })}>{u.nome}</a>}</th>
              <td>
                {u.cidade}/{u.uf}
              </td>
              {actionCells(u)}
            </tr>
          )}
        />
        <PageLinks page={list.page} pages={list.pages} href={(pagina) => reportHref(report, { pagina })} />
      </section>
    </Layout>
  );
}

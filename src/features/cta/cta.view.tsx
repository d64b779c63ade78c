// Staff: calls-to-action clicks per unit and per week.
import { Layout } from '../../views/layout';
import { DataTable } from '../../views/table';
import { CTA_ACTIONS, CTA_LABELS } from './cta';

export const CLICKS_PATH = '/admin/cliques';

export interface ClicksReport {
  weeks: string[];
  units: { id: number; nome: string; cidade: string; weeks: { semana: string; byAction: Record<string, number>; total: number }[]; total: number }[];
  selectedUnit: number | null;
  unitOptions: { id: number; nome: string }[];
  weekCount: number;
}

const weekLabel = (monday: string) => `${monday.slice(8, 10)}/${monday.slice(5, 7)}/${monday.slice(0, 4)}`;

export function ClicksPage({ staff, report }: { staff: { name: string; csrfToken: string; papel?: 'admin' | 'gerente' }; report: ClicksReport }) {
  return (
    <Layout title="Cliques nas chamadas" staff={staff}>
      <h1>Cliques nas chamadas</h1>
      <p class="muted">
        Quantas vezes os visitantes tocaram em “Matricule-se”, “Aula experimental”, no WhatsApp e no benefício, por unidade e por
        semana (segunda a domingo, horário de São Paulo). Contados no servidor, sem cookies nem rastreadores.
      </p>
      <form method="get" action={CLICKS_PATH} class="filters">
        <div>
          <label for="unidade_id">Unidade</label>
          <select id="unidade_id" name="unidade_id">
            <option value="">Todas as minhas unidades</option>
            {report.unitOptions.map((u) => (
              <option value={String(u.id)} selected={report.selectedUnit === u.id} key={u.id}>
                {u.nome}
              </option>
            ))}
          </select>
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
        </div>
      </form>
      {report.units.length === 0 ? <p>Nenhuma unidade.</p> : null}
      {report.units.map((u) => (
        <section class="card" aria-labelledby={`u-${u.id}`} key={u.id}>
          <h2 id={`u-${u.id}`}>
            {u.nome} <span class="muted">· {u.cidade}</span>
          </h2>
          <p>
            <strong>{u.total}</strong> {u.total === 1 ? 'clique' : 'cliques'} no período.
          </p>
          <DataTable
            label={`Cliques por semana, ${u.nome}`}
            columns={['Semana de', ...CTA_ACTIONS.map((a) => CTA_LABELS[a]), 'Total']}
            rows={u.weeks}
            row={(w) => (
              <tr key={w.semana}>
                <th scope="row">{weekLabel(w.semana)}</th>
                {CTA_ACTIONS.map((a) => (
                  <td key={a}>{w.byAction[a] ?? 0}</td>
                ))}
                <td>
                  <strong>{w.total}</strong>
                </td>
              </tr>
            )}
          />
        </section>
      ))}
    </Layout>
  );
}

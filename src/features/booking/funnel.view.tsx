// The trial-class funnel (CTA clicks → bookings → attended → enrolled, then the online
// enrolments started and activated) per unit and week, and its CSV.
import type { ComponentChildren } from 'preact';
import { Layout } from '../../views/layout';
import { TableWrap } from '../../views/table';
import { UnitFilter, type StaffProps } from '../feedback/filters.view';
import { conversion, formatConversion, type FunnelCounts, type FunnelRow, type FunnelUnit } from './staff.service';
import { Pagination } from '../../staff/list.view';
import { FUNNEL_PATH, SubNav, type Unit, type UnitListLinks } from './staff.view';

const weekLabel = (w: string) => `${w.slice(8, 10)}/${w.slice(5, 7)}/${w.slice(0, 4)}`;

function Steps({ c }: { c: FunnelCounts }) {
  return (
    <>
      <td>{c.cliques}</td>
      <td>{c.agendamentos}</td>
      <td>{formatConversion(conversion(c.agendamentos, c.cliques))}</td>
      <td>{c.compareceram}</td>
      <td>{formatConversion(conversion(c.compareceram, c.agendamentos))}</td>
      <td>{c.matricularam}</td>
      <td>{formatConversion(conversion(c.matricularam, c.compareceram))}</td>
      <td>{c.matriculas_iniciadas}</td>
      <td>{c.matriculas_ativadas}</td>
      <td>{formatConversion(conversion(c.matriculas_ativadas, c.matriculas_iniciadas))}</td>
    </>
  );
}

const HEAD = [
  'Cliques em “aula experimental”',
  'Agendamentos',
  'Clique → agendamento',
  'Compareceram',
  'Agendamento → presença',
  'Matricularam',
  'Presença → matrícula',
  'Matrículas online iniciadas',
  'Matrículas online ativadas',
  'Iniciada → ativada',
];

/** A unit in a row header: its name, then its city (names repeat across cities). */
function UnitName({ u }: { u: FunnelUnit }) {
  return (
    <th scope="row">
      {u.unidade}
      <span class="muted">
        {' '}
        · {u.cidade}/{u.uf}
      </span>
    </th>
  );
}

/** "N unidades" / "N unidades contêm “q”", under a unit list's filter. */
function unitCount(total: number, q: string) {
  return `${total === 1 ? '1 unidade' : `${total} unidades`}${q ? ` ${total === 1 ? 'contém' : 'contêm'} “${q}”` : ''}`;
}

export function FunnelPage(props: {
  staff: StaffProps;
  units: Unit[];
  unidadeId: string;
  period: { de: string; ate: string; weeks: string[] };
  funnel: { rows: FunnelRow[]; perUnit: (FunnelCounts & FunnelUnit)[]; total: FunnelCounts };
  list: UnitListLinks;
  csvHref: string;
}) {
  const { staff, units, unidadeId, period, funnel, list, csvHref } = props;
  const active = funnel.rows.filter(
    (r) => r.cliques || r.agendamentos || r.matriculas_iniciadas || r.matriculas_ativadas,
  );
  return (
    <Layout title="Funil de conversão" staff={staff}>
      <h1>Funil de conversão</h1>
      <SubNav current="funil" />
      <p>
        Por unidade e semana (segunda a domingo, horário de Brasília): cliques no botão de aula experimental →
        agendamentos → presença → matrícula. Agendamentos, presenças e matrículas contam na semana em que o agendamento
        foi feito. Depois, as matrículas online da unidade (de qualquer visitante, não só de quem fez aula
        experimental): iniciadas contam na semana em que o contrato foi aceito, ativadas na semana em que o primeiro
        pagamento foi confirmado.
      </p>
      <form method="get" action={FUNNEL_PATH} class="card filters">
        <UnitFilter units={units} selected={unidadeId} />
        <div>
          <label for="f-q">Nome, bairro ou cidade da unidade</label>
          <input id="f-q" name="q" type="search" value={list.q} maxLength={100} />
        </div>
        <div>
          <label for="f-de">Da semana de</label>
          <input id="f-de" name="de" type="date" value={period.de} />
        </div>
        <div>
          <label for="f-ate">Até a semana de</label>
          <input id="f-ate" name="ate" type="date" value={period.ate} />
        </div>
        <div class="actions">
          <button type="submit">Ver funil</button>
          <a class="button secondary" href={csvHref}>
            Exportar CSV<span class="visually-hidden"> (todas as páginas)</span>
          </a>
        </div>
      </form>
      <p class="muted" id="funil-contagem">
        {unitCount(list.total, list.q)}
        {list.pages > 1
          ? `; esta página mostra da ${list.offset + 1}ª à ${list.offset + funnel.perUnit.length}ª.`
          : '.'}
      </p>
      <section class="card">
        <h2 id="funil-total-titulo">Total do período</h2>
        <FunnelTable id="funil-total" labelledBy="funil-total-titulo" columns={['Unidade']}>
          {funnel.perUnit.map((u) => (
            <tr key={u.unidade_id}>
              <UnitName u={u} />
              <Steps c={u} />
            </tr>
          ))}
          {!funnel.perUnit.length ? (
            <tr>
              <td colSpan={HEAD.length + 1}>Nenhuma unidade encontrada.</td>
            </tr>
          ) : null}
          {list.total > 1 ? (
            <tr>
              <th scope="row">
                Todas{list.pages > 1 || list.q ? ` (${unitCount(list.total, '')}${list.q ? ' do filtro' : ''})` : ''}
              </th>
              <Steps c={funnel.total} />
            </tr>
          ) : null}
        </FunnelTable>
      </section>
      <section class="card">
        <h2 id="funil-semanas-titulo">Por semana</h2>
        <FunnelTable id="funil-semanas" labelledBy="funil-semanas-titulo" columns={['Unidade', 'Semana de']}>
          {active.map((r) => (
            <tr key={`${r.unidade_id}-${r.semana}`}>
              <UnitName u={r} />
              <td>{weekLabel(r.semana)}</td>
              <Steps c={r} />
            </tr>
          ))}
        </FunnelTable>
        {!active.length ? (
          <p class="muted">
            Nenhum clique, agendamento ou matrícula online no período
            {list.pages > 1 ? ' nas unidades desta página' : ''}.
          </p>
        ) : null}
      </section>
      <Pagination list={list} />
    </Layout>
  );
}

/** A funnel table (a wide one: the region scrolls by keyboard on a phone): its first columns, then the steps. */
function FunnelTable({
  id,
  labelledBy,
  columns,
  children,
}: {
  id: string;
  labelledBy: string;
  columns: string[];
  children: ComponentChildren;
}) {
  return (
    <TableWrap labelledBy={labelledBy}>
      <table class="funnel" id={id}>
        <thead>
          <tr>
            {[...columns, ...HEAD].map((h) => (
              <th scope="col" key={h}>
                {h}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </TableWrap>
  );
}

export function funnelCsv(rows: FunnelRow[]) {
  // City and state beside the unit: a chain repeats unit names across cities.
  const header = [
    'Unidade',
    'Cidade',
    'UF',
    'Semana (segunda-feira)',
    'Cliques aula experimental',
    'Agendamentos',
    'Compareceram',
    'Matricularam',
    'Clique → agendamento',
    'Agendamento → presença',
    'Presença → matrícula',
    'Clique → matrícula',
    // The online enrolment steps go last: spreadsheets that read the columns above by position keep working.
    'Matrículas online iniciadas',
    'Matrículas online ativadas',
    'Iniciada → ativada',
  ];
  async function* gen() {
    yield rows.map((r) => [
      r.unidade,
      r.cidade,
      r.uf,
      weekLabel(r.semana),
      r.cliques,
      r.agendamentos,
      r.compareceram,
      r.matricularam,
      formatConversion(conversion(r.agendamentos, r.cliques)),
      formatConversion(conversion(r.compareceram, r.agendamentos)),
      formatConversion(conversion(r.matricularam, r.compareceram)),
      formatConversion(conversion(r.matricularam, r.cliques)),
      r.matriculas_iniciadas,
      r.matriculas_ativadas,
      formatConversion(conversion(r.matriculas_ativadas, r.matriculas_iniciadas)),
    ]);
  }
  return { header, rows: gen() };
}

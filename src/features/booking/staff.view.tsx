// Staff pages of trial classes: bookings by day, the funnel, and the capacity per unit.
import type { ComponentChildren } from 'preact';
import { Layout } from '../../views/layout';
import { TableWrap } from '../../views/table';
import { formatPhone as formatBrazilianPhone } from '../../lib/form/index';
import { UnitFilter, type StaffProps } from '../feedback/filters.view';
import { timeOf } from './booking.service';
import { whatsappLink } from './booking.view';
import { capacityField, conversion, formatConversion, LIST_FUTURE_DAYS, LIST_PAST_DAYS, MAX_CAPACITY, STATUS_LABEL, STATUSES, type BookingDayList, type FunnelCounts, type FunnelRow, type FunnelUnit } from './staff.service';
import { ErrorSummary, FieldMessage, fieldAria, fieldId } from '../../views/form';
import type { PageWindow } from '../../lib/pagination';
import { Csrf } from '../../staff/form.view';
import { ListFilter, Pagination } from '../../staff/list.view';

export const STAFF_PATH = '/admin/aulas-experimentais';
export const FUNNEL_PATH = `${STAFF_PATH}/funil`;
export const CAPACITY_PATH = `${STAFF_PATH}/vagas`;

type Unit = { id: number; nome: string };

function SubNav({ current }: { current: 'lista' | 'funil' | 'vagas' }) {
  const items = [
    { key: 'lista', href: STAFF_PATH, label: 'Agendamentos' },
    { key: 'funil', href: FUNNEL_PATH, label: 'Funil de conversão' },
    { key: 'vagas', href: CAPACITY_PATH, label: 'Vagas por aula' },
  ] as const;
  return (
    <nav aria-label="Aulas experimentais">
      <ul class="subnav">
        {items.map((i) => (
          <li key={i.key}>
            <a href={i.href} aria-current={current === i.key ? 'page' : undefined}>
              {i.label}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const WHEN_TITLE = { hoje: 'Hoje', proximos: 'Próximos dias', anteriores: 'Dias anteriores' } as const;

/** What the bookings list's links keep: the unit, the text filter, the day and the page. */
export interface BookingListParams {
  unidadeId?: string;
  q?: string;
  dia?: string;
  page?: number;
}
/** The bookings list's address (the same order as the pager's links). */
export function bookingListHref(p: BookingListParams): string {
  const params = new URLSearchParams();
  if (p.unidadeId) params.set('unidade_id', p.unidadeId);
  if (p.dia) params.set('dia', p.dia);
  if (p.q) params.set('q', p.q);
  if (p.page && p.page > 1) params.set('pagina', String(p.page));
  const qs = params.toString();
  return qs ? `${STAFF_PATH}?${qs}` : STAFF_PATH;
}

const bookingCount = (n: number) => (n === 1 ? '1 agendamento' : `${n} agendamentos`);

/** The window's days: today, the coming days, the past days; each link keeps the filters and shows its count. */
function DayNav({ list, unidadeId }: { list: BookingDayList; unidadeId: string }) {
  const groups = (['hoje', 'proximos', 'anteriores'] as const).map((when) => ({ when, days: list.days.filter((d) => d.when === when) }));
  return (
    <nav aria-label="Dias" class="card">
      {groups.map((g) => (
        <div key={g.when}>
          <h2 id={`dias-${g.when}`}>{WHEN_TITLE[g.when]}</h2>
          <ul class="subnav" aria-labelledby={`dias-${g.when}`}>
            {g.days.map((d) => (
              <li key={d.day}>
                <a href={bookingListHref({ unidadeId, q: list.q, dia: d.day })} aria-current={d.day === list.day.day ? 'page' : undefined}>
                  {d.label}{' '}
                  <span class="badge">
                    {d.count}
                    <span class="visually-hidden"> {d.count === 1 ? 'agendamento' : 'agendamentos'}</span>
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </nav>
  );
}

export function BookingListPage(props: { staff: StaffProps; units: Unit[]; unidadeId: string; list: BookingDayList; saved?: number | null; brandName: string; recent: FunnelCounts }) {
  const { staff, units, unidadeId, list, saved, brandName, recent } = props;
  const { day, page } = list;
  // After a status change the list comes back to this day and page, with the same filters.
  const returnTo = bookingListHref({ unidadeId, q: list.q, dia: day.day, page: page.page });
  const params: Record<string, string> = { ...(unidadeId ? { unidade_id: unidadeId } : {}), dia: day.day };
  return (
    <Layout title="Aulas experimentais" staff={staff}>
      <h1>Aulas experimentais</h1>
      <SubNav current="lista" />
      <p class="card" id="funil-resumo">
        <strong>Últimas 4 semanas:</strong> {recent.cliques} cliques → {recent.agendamentos} agendamentos (
        {formatConversion(conversion(recent.agendamentos, recent.cliques))}) → {recent.compareceram} presenças (
        {formatConversion(conversion(recent.compareceram, recent.agendamentos))}) → {recent.matricularam} matrículas (
        {formatConversion(conversion(recent.matricularam, recent.compareceram))}). <a href={FUNNEL_PATH}>Ver o funil por semana</a>
      </p>
      <form method="get" action={STAFF_PATH} class="card filters" role="search" aria-label="Filtro dos agendamentos">
        <UnitFilter units={units} selected={unidadeId} />
        <div>
          <label for="f-q">Nome, bairro ou cidade da unidade</label>
          <input id="f-q" name="q" type="search" value={list.q} maxLength={100} />
        </div>
        <input type="hidden" name="dia" value={day.day} />
        <div class="actions">
          <button type="submit">Filtrar</button>
        </div>
      </form>
      {saved ? (
        <p class="alert alert-ok" role="status">
          Situação do agendamento atualizada.
        </p>
      ) : null}
      <DayNav list={list} unidadeId={unidadeId} />
      <section class="card" aria-labelledby="dia-escolhido" id="agendamentos">
        <h2 id="dia-escolhido">
          {day.when === 'hoje' ? 'Hoje, ' : ''}
          {day.label} <span class="badge">{bookingCount(page.total)}</span>
        </h2>
        {list.dayFallback ? (
          <p class="alert" role="status">
            {list.dayFallback === 'invalida' ? 'Data inválida: mostrando os agendamentos de hoje.' : `A lista vai de ${LIST_PAST_DAYS} dias atrás a ${LIST_FUTURE_DAYS} dias à frente: mostrando o dia mais próximo dessa data.`}
          </p>
        ) : null}
        {page.pages > 1 ? (
          <p class="muted">
            Esta página mostra do {page.offset + 1}º ao {page.offset + list.bookings.length}º, por horário.
          </p>
        ) : null}
        {!list.bookings.length ? <p class="muted">Nenhuma aula experimental agendada.</p> : null}
        <ul class="booking-list">
          {list.bookings.map((b) => (
            <li id={`agendamento-${b.id}`} key={b.id}>
              <p>
                <strong>
                  {timeOf(b.inicio_em)}–{timeOf(b.fim_em)} · {b.atividade}
                </strong>{' '}
                <span class={`badge status-${b.status}`}>{STATUS_LABEL[b.status as keyof typeof STATUS_LABEL] ?? b.status}</span>
                {units.length > 1 ? <span class="slot-meta">{b.unidade}</span> : null}
              </p>
              <p>
                {b.nome}
                {b.whatsapp ? (
                  <>
                    {' · '}
                    <a
                      href={whatsappLink(b.whatsapp, `Olá, ${b.nome}! Aqui é da ${brandName}, unidade ${b.unidade}, sobre a sua aula experimental de ${b.atividade} (${day.label}, às ${timeOf(b.inicio_em)}).`)}
                      rel="noopener noreferrer"
                    >
                      WhatsApp {formatBrazilianPhone(b.whatsapp)}
                      <span class="visually-hidden"> de {b.nome}</span>
                    </a>
                  </>
                ) : null}
                {b.email ? (
                  <>
                    {' · '}
                    <a href={`mailto:${b.email}`}>{b.email}</a>
                  </>
                ) : null}
              </p>
              {b.anonimizado_em ? null : (
                <form method="post" action={`${STAFF_PATH}/${b.id}/status`} class="status-form">
                  <input type="hidden" name="csrf_token" value={staff?.csrfToken ?? ''} />
                  <input type="hidden" name="voltar" value={returnTo} />
                  {STATUSES.filter((s) => s !== 'agendado' && s !== b.status).map((s) => (
                    <button type="submit" name="status" value={s} class="secondary" key={s} aria-label={`${STATUS_LABEL[s]}: ${b.nome}, ${timeOf(b.inicio_em)}`}>
                      {STATUS_LABEL[s]}
                    </button>
                  ))}
                </form>
              )}
            </li>
          ))}
        </ul>
      </section>
      <Pagination list={{ path: STAFF_PATH, q: list.q, params, page: page.page, pages: page.pages }} />
    </Layout>
  );
}

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
    </>
  );
}

const HEAD = ['Cliques em “aula experimental”', 'Agendamentos', 'Clique → agendamento', 'Compareceram', 'Agendamento → presença', 'Matricularam', 'Presença → matrícula'];

/** A unit in a row header: its name, then its city (names repeat across cities). */
function UnitName({ u }: { u: FunnelUnit }) {
  return (
    <th scope="row">
      {u.unidade}
      <span class="muted"> · {u.cidade}/{u.uf}</span>
    </th>
  );
}

/** "N unidades" / "N unidades contêm “q”", under a unit list's filter. */
function unitCount(total: number, q: string) {
  return `${total === 1 ? '1 unidade' : `${total} unidades`}${q ? ` ${total === 1 ? 'contém' : 'contêm'} “${q}”` : ''}`;
}

type UnitListLinks = PageWindow & { path: string; q: string; params?: Record<string, string> };

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
  const active = funnel.rows.filter((r) => r.cliques || r.agendamentos);
  return (
    <Layout title="Funil de conversão" staff={staff}>
      <h1>Funil de conversão</h1>
      <SubNav current="funil" />
      <p>
        Por unidade e semana (segunda a domingo, horário de Brasília): cliques no botão de aula experimental → agendamentos → presença →
        matrícula. Agendamentos, presenças e matrículas contam na semana em que o agendamento foi feito.
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
        {list.pages > 1 ? `; esta página mostra da ${list.offset + 1}ª à ${list.offset + funnel.perUnit.length}ª.` : '.'}
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
              <th scope="row">Todas{list.pages > 1 || list.q ? ` (${unitCount(list.total, '')}${list.q ? ' do filtro' : ''})` : ''}</th>
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
        {!active.length ? <p class="muted">Nenhum clique ou agendamento no período{list.pages > 1 ? ' nas unidades desta página' : ''}.</p> : null}
      </section>
      <Pagination list={list} />
    </Layout>
  );
}

/** A funnel table (a wide one: the region scrolls by keyboard on a phone): its first columns, then the steps. */
function FunnelTable({ id, labelledBy, columns, children }: { id: string; labelledBy: string; columns: string[]; children: ComponentChildren }) {
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
  const header = ['Unidade', 'Cidade', 'UF', 'Semana (segunda-feira)', 'Cliques aula experimental', 'Agendamentos', 'Compareceram', 'Matricularam', 'Clique → agendamento', 'Agendamento → presença', 'Presença → matrícula', 'Clique → matrícula'];
  async function* gen() {
    for (const r of rows) {
      yield [
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
      ];
    }
  }
  return { header, rows: gen() };
}

const unitLabel = (u: CapacityUnit) => `${u.nome} (${u.cidade}/${u.uf})${u.ativo ? '' : ', inativa'}`;

type CapacityUnit = { id: number; nome: string; cidade: string; uf: string; ativo: number; vagas_experimentais: number };

/**
 * The capacity of one page of units as one form: it saves the units shown (carrying the
 * list's `q` and `pagina` to come back to), each field keyed `vagas[<unit id>]`.
 */
export function CapacityPage(props: {
  staff: StaffProps;
  list: UnitListLinks;
  units: CapacityUnit[];
  errors: Record<string, string>;
  values: Record<string, string>;
  saved?: number | null;
}) {
  const { staff, list, units, errors, values, saved } = props;
  const labels = Object.fromEntries(units.map((u) => [capacityField(u.id), unitLabel(u)]));
  return (
    <Layout title="Vagas de aula experimental" staff={staff}>
      <h1>Vagas de aula experimental</h1>
      <SubNav current="vagas" />
      <p>Quantas pessoas em aula experimental cada aula (ou horário de treino livre) recebe. Vale para os próximos agendamentos.</p>
      <ListFilter list={list} label="Filtrar por nome, bairro ou cidade da unidade" noun={['unidade', 'unidades']} />
      {saved != null ? (
        <p class="alert alert-ok" role="status">
          {saved === 0 ? 'Nenhuma vaga mudou.' : saved === 1 ? 'Vagas atualizadas em 1 unidade.' : `Vagas atualizadas em ${saved} unidades.`}
        </p>
      ) : null}
      <ErrorSummary errors={errors} labels={labels} />
      {units.length ? (
        <form method="post" action={CAPACITY_PATH} class="card">
          <Csrf token={staff?.csrfToken ?? ''} />
          {list.q ? <input type="hidden" name="q" value={list.q} /> : null}
          {list.page > 1 ? <input type="hidden" name="pagina" value={String(list.page)} /> : null}
          <TableWrap label="Vagas por unidade">
            <table>
              <thead>
                <tr>
                  <th scope="col">Unidade</th>
                  <th scope="col">Vagas por aula (1 a {MAX_CAPACITY})</th>
                </tr>
              </thead>
              <tbody>
                {units.map((u) => {
                  const name = capacityField(u.id);
                  const id = fieldId(name);
                  return (
                    <tr key={u.id}>
                      <th scope="row">
                        <label for={id}>{unitLabel(u)}</label>
                      </th>
                      <td>
                        <input id={id} name={name} type="number" min={1} max={MAX_CAPACITY} inputMode="numeric" required value={values[name] ?? String(u.vagas_experimentais)} {...fieldAria(id, errors[name])} />
                        <FieldMessage id={id} message={errors[name]} />
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableWrap>
          <p>
            <button type="submit">Salvar as vagas desta página</button>
            {list.pages > 1 ? <span class="hint"> Cada página é salva à parte: salve antes de ir para outra.</span> : null}
          </p>
        </form>
      ) : (
        <p class="muted">Nenhuma unidade encontrada.</p>
      )}
      <Pagination list={list} />
    </Layout>
  );
}

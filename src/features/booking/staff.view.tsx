// Staff pages of trial classes: the bookings by day (this file), the funnel (funnel.view.tsx)
// and the capacity per unit (capacity.view.tsx), with the paths and sub-navigation they share.
import { Layout } from '../../views/layout';
import type { PageWindow } from '../../lib/pagination';
import { formatPhone as formatBrazilianPhone } from '../../lib/form/index';
import { UnitFilter, type StaffProps } from '../feedback/filters.view';
import { timeOf } from './booking.service';
import { whatsappLink } from './booking.view';
import {
  conversion,
  formatConversion,
  LIST_FUTURE_DAYS,
  LIST_PAST_DAYS,
  STATUS_LABEL,
  STATUSES,
  type BookingDayList,
  type FunnelCounts,
} from './staff.service';
import { Pagination } from '../../staff/list.view';

export const STAFF_PATH = '/admin/aulas-experimentais';
export const FUNNEL_PATH = `${STAFF_PATH}/funil`;
export const CAPACITY_PATH = `${STAFF_PATH}/vagas`;

export type Unit = { id: number; nome: string };
/** A page of units and what its links keep (the funnel's and the capacity form's pager). */
export type UnitListLinks = PageWindow & { path: string; q: string; params?: Record<string, string> };

export function SubNav({ current }: { current: 'lista' | 'funil' | 'vagas' }) {
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
  const groups = (['hoje', 'proximos', 'anteriores'] as const).map((when) => ({
    when,
    days: list.days.filter((d) => d.when === when),
  }));
  return (
    <nav aria-label="Dias" class="card">
      {groups.map((g) => (
        <div key={g.when}>
          <h2 id={`dias-${g.when}`}>{WHEN_TITLE[g.when]}</h2>
          <ul class="subnav" aria-labelledby={`dias-${g.when}`}>
            {g.days.map((d) => (
              <li key={d.day}>
                <a
                  href={bookingListHref({ unidadeId, q: list.q, dia: d.day })}
                  aria-current={d.day === list.day.day ? 'page' : undefined}
                >
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

export function BookingListPage(props: {
  staff: StaffProps;
  units: Unit[];
  unidadeId: string;
  list: BookingDayList;
  saved?: number | null;
  brandName: string;
  recent: FunnelCounts;
}) {
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
        {formatConversion(conversion(recent.matricularam, recent.compareceram))}).{' '}
        <a href={FUNNEL_PATH}>Ver o funil por semana</a>
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
            {list.dayFallback === 'invalida'
              ? 'Data inválida: mostrando os agendamentos de hoje.'
              : `A lista vai de ${LIST_PAST_DAYS} dias atrás a ${LIST_FUTURE_DAYS} dias à frente: mostrando o dia ` +
                `mais próximo dessa data.`}
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
                <span class={`badge status-${b.status}`}>
                  {STATUS_LABEL[b.status as keyof typeof STATUS_LABEL] ?? b.status}
                </span>
                {units.length > 1 ? <span class="slot-meta">{b.unidade}</span> : null}
              </p>
              <p>
                {b.nome}
                {b.whatsapp ? (
                  <>
                    {' · '}
                    <a
                      href={whatsappLink(
                        b.whatsapp,
                        `Olá, ${b.nome}! Aqui é da ${brandName}, unidade ${b.unidade}, sobre a sua aula experimental ` +
                          `de ${b.atividade} (${day.label}, às ${timeOf(b.inicio_em)}).`,
                      )}
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
                    <button
                      type="submit"
                      name="status"
                      value={s}
                      class="secondary"
                      key={s}
                      aria-label={`${STATUS_LABEL[s]}: ${b.nome}, ${timeOf(b.inicio_em)}`}
                    >
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

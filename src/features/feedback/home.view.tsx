import { Layout } from '../../views/layout';
import { PageLinks } from '../../views/table';
import { listHref } from '../../staff/list.view';
import { formatBRL } from '../../lib/text';
import { formatDateTime, saoPauloDay } from '../../lib/time';
import { REFUND_DUE_SOON_MS } from '../enrolment/reads.service';
import { type AttentionItem, DETRACTOR_WINDOW_DAYS } from './attention.service';
import type { StaffProps } from './filters.view';
import type { HomeQueue, ToolsPage } from './home.service';
import { formatDuration } from './messages/inbox.service';
import { INBOX_PATH } from './messages/inbox.view';
import { REPORT_PATH } from './survey/report.view';

export const HOME_PATH = '/admin';

const excerpt = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The full paged lists behind the queue: detractors (the report's 90 days) and messages, of one unit or all. */
/** The report's list of the detractors still waiting: the queue's rule, from the São Paulo day its window starts. */
const detractorsHref = (unidadeId: number | null, since: string) =>
  `${REPORT_PATH}?${unidadeId !== null ? `unidade_id=${unidadeId}&` : ''}categoria=pendentes&de=${since}`;
const messagesHref = (unidadeId: number | null) =>
  unidadeId !== null ? `${INBOX_PATH}?unidade_id=${unidadeId}` : INBOX_PATH;
/** The enrolment list (with its refunds queue), of one unit or all. */
const ENROLMENTS_PATH = '/admin/matriculas';
const enrolmentsHref = (unidadeId: number | null) =>
  unidadeId !== null ? `${ENROLMENTS_PATH}?unidade_id=${unidadeId}` : ENROLMENTS_PATH;
const refundSoonDays = Math.round(REFUND_DUE_SOON_MS / 86_400_000);

/** One waiting item: a link with what it is, then when and who. */
function Item({ it, now }: { it: AttentionItem; now: Date }) {
  if (it.kind === 'pagamento') {
    const expired = it.expiraEm !== null && Date.parse(it.expiraEm) <= now.getTime();
    return (
      <>
        <a href={`${ENROLMENTS_PATH}/${it.id}`}>
          <span class="badge status-nova">Pagamento Pix a confirmar · {formatBRL(it.valorCentavos)}</span>
        </a>{' '}
        <span class="hint">
          Matrícula de {it.nome} em {formatDateTime(it.criadoEm)}
          {it.expiraEm ? ` · ${expired ? 'expirou' : 'expira'} em ${formatDateTime(it.expiraEm)}` : ''}
        </span>
      </>
    );
  }
  if (it.kind === 'reembolso') {
    const overdue = it.prazo !== null && Date.parse(it.prazo) < now.getTime();
    return (
      <>
        <a href={`${ENROLMENTS_PATH}/${it.matriculaId}`}>
          <span class="badge status-detrator">
            Devolução de {formatBRL(it.valorCentavos)} {overdue ? 'atrasada' : 'perto do prazo'}
          </span>
        </a>{' '}
        <span class="hint">
          {it.nome}
          {it.prazo ? ` · prazo ${formatDateTime(it.prazo)}` : ''}
        </span>
      </>
    );
  }
  return (
    <>
      {it.kind === 'detrator' ? (
        <a href={`/admin/pesquisa/resposta/${it.id}`}>
          <span class="badge status-detrator">Detrator · nota {it.nota}</span>
        </a>
      ) : (
        <a href={`/admin/mensagens/${it.id}`}>
          <span class="badge status-nova">
            Mensagem sem resposta há {formatDuration(now.getTime() - Date.parse(it.criadoEm))}
          </span>
        </a>
      )}{' '}
      <span class="hint">
        {formatDateTime(it.criadoEm)} · {it.nome ?? 'Sem nome'}
        {it.contato ? ` · ${it.contato}` : ' · sem contato'}
      </span>
      <p class="pre-line">{excerpt(it.texto)}</p>
    </>
  );
}

/** The tools list's address: its filter and page, back at the list (#unidades). */
const toolsHref = (q: string, pagina = 1) => `${listHref({ path: HOME_PATH, q }, pagina)}#unidades`;

export function StaffHomePage({
  staff,
  queue,
  now,
  tools,
}: {
  staff: StaffProps;
  queue: HomeQueue;
  now: Date;
  tools: ToolsPage;
}) {
  const { list } = tools;
  const waitingUnits = queue.groups.length + queue.moreUnits;
  const since = saoPauloDay(new Date(now.getTime() - DETRACTOR_WINDOW_DAYS * 86_400_000));
  return (
    <Layout title="Início" staff={staff}>
      <h1>Início</h1>
      <section aria-labelledby="atencao-titulo">
        <h2 id="atencao-titulo">Precisa de atenção</h2>
        <p class="hint">
          Detratores (notas 0 a 6) que deixaram um comentário e ainda não foram tratados, mensagens sem resposta há mais
          de 48 horas, pagamentos Pix de matrícula a conferir no extrato e devoluções de matrícula com prazo em até{' '}
          {refundSoonDays} dias ou vencido. Os mais antigos primeiro.
        </p>
        {queue.total === 0 ? (
          <p class="card" data-fila-vazia="">
            Nada esperando: nenhum detrator com comentário pendente, nenhuma mensagem sem resposta há mais de 48 horas e
            nenhuma matrícula esperando a equipe.
          </p>
        ) : (
          <p data-fila-total="">
            {queue.partial ? 'Mais de ' : ''}
            {plural(queue.total, 'item esperando', 'itens esperando')} em {plural(waitingUnits, 'unidade', 'unidades')}
            {waitingUnits > queue.groups.length ? `; aqui as ${queue.groups.length} que esperam há mais tempo` : ''}.
          </p>
        )}
        {queue.groups.map((g) => (
          <section class="card attention-unit" key={`${g.unidadeId ?? g.unidade}`} aria-label={`Unidade ${g.unidade}`}>
            <h3>
              {g.unidade} <span class="badge">{g.total}</span>
            </h3>
            <ol class="attention-list">
              {g.items.map((it) => (
                <li key={`${it.kind}-${it.id}`} data-atencao={`${it.kind}-${it.id}`}>
                  <Item it={it} now={now} />
                </li>
              ))}
            </ol>
            {g.total > g.items.length ? (
              <p data-fila-mais={g.unidadeId ?? ''}>
                Mais {g.total - g.items.length} nesta unidade. Ver todos:{' '}
                {g.detractors ? (
                  <a href={detractorsHref(g.unidadeId, since)}>
                    detratores<span class="visually-hidden"> · {g.unidade}</span>
                  </a>
                ) : null}
                {g.detractors && g.messages ? ' · ' : null}
                {g.messages ? (
                  <a href={messagesHref(g.unidadeId)}>
                    mensagens<span class="visually-hidden"> · {g.unidade}</span>
                  </a>
                ) : null}
                {(g.detractors || g.messages) && g.enrolments ? ' · ' : null}
                {g.enrolments ? (
                  <a href={enrolmentsHref(g.unidadeId)}>
                    matrículas<span class="visually-hidden"> · {g.unidade}</span>
                  </a>
                ) : null}
              </p>
            ) : null}
          </section>
        ))}
        {queue.moreUnits ? (
          <p class="card" data-fila-outras="">
            Mais {plural(queue.moreUnits, 'unidade', 'unidades')} com{' '}
            {plural(queue.moreItems, 'item esperando', 'itens esperando')}. Ver todos:{' '}
            <a href={detractorsHref(null, since)}>detratores de todas as unidades</a> ·{' '}
            <a href={messagesHref(null)}>mensagens de todas as unidades</a> ·{' '}
            <a href={enrolmentsHref(null)}>matrículas de todas as unidades</a>
          </p>
        ) : null}
      </section>
      {list.all ? (
        <section id="unidades" aria-labelledby="unidades-titulo">
          <h2 id="unidades-titulo">Pesquisa na unidade</h2>
          {tools.filterable ? (
            <form
              method="get"
              action={`${HOME_PATH}#unidades`}
              class="list-filter"
              role="search"
              aria-label="Filtro das unidades"
            >
              <label for="unidades-q">Unidade ou cidade</label>
              <input id="unidades-q" name="q" type="search" value={list.q} maxLength={100} />
              <button type="submit">Filtrar</button>
              {list.q ? <a href={toolsHref('')}>Limpar filtro</a> : null}
              <p class="muted">
                {plural(list.total, 'unidade', 'unidades')}
                {list.q ? ` com “${list.q}”` : ''}
              </p>
            </form>
          ) : null}
          {tools.items.length ? (
            <ul class="unit-tools">
              {tools.items.map((u) => (
                <li key={u.id}>
                  {u.nome}:{' '}
                  <a href={`/admin/pesquisa/cartaz/${u.id}`}>
                    Cartaz com QR code<span class="visually-hidden"> · {u.nome}</span>
                  </a>{' '}
                  ·{' '}
                  <a href={`/NPS/nps_app_php/quiosque.php?unidade_id=${u.id}`}>
                    Modo quiosque (tablet da recepção)<span class="visually-hidden"> · {u.nome}</span>
                  </a>
                </li>
              ))}
            </ul>
          ) : (
            <p>Nenhuma unidade com este filtro.</p>
          )}
          <PageLinks page={list.page} pages={list.pages} href={(pagina) => toolsHref(list.q, pagina)} />
        </section>
      ) : null}
      <section aria-labelledby="funil-titulo">
        <h2 id="funil-titulo">Do site à matrícula</h2>
        {/* biome-ignore format: its fill leaves a line over 120 columns */}
        <p>
          <a href="/admin/aulas-experimentais/funil">Funil por unidade e semana</a> (cliques → agendamentos → presenças
          → matrículas) ·{' '}
          <a href="/admin/aulas-experimentais">Aulas experimentais de hoje e dos próximos dias</a> ·{' '}
          <a href="/admin/cliques">Cliques nos botões do site</a> ·{' '}
          <a href={ENROLMENTS_PATH}>Matrículas online</a>
        </p>
      </section>
      <p>
        <a href="/admin/pesquisa">Pesquisa de satisfação</a> · <a href="/admin/mensagens">Mensagens</a> ·{' '}
        <a href="/admin/preferencias">Preferências (resumo semanal por e-mail)</a>
      </p>
    </Layout>
  );
}

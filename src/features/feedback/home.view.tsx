import { Layout } from '../../views/layout';
import { formatDateTime } from '../../lib/time';
import type { StaffProps } from './filters.view';
import type { AttentionGroup } from './attention.service';
import { formatDuration } from './messages-admin.service';

export const HOME_PATH = '/admin';

const excerpt = (s: string, n = 160) => (s.length > n ? `${s.slice(0, n)}…` : s);

export function StaffHomePage({ staff, queue, now, units }: { staff: StaffProps; queue: AttentionGroup[]; now: Date; units: { id: number; nome: string }[] }) {
  const total = queue.reduce((n, g) => n + g.items.length, 0);
  return (
    <Layout title="Início" staff={staff}>
      <h1>Início</h1>
      <section aria-labelledby="atencao-titulo">
        <h2 id="atencao-titulo">Precisa de atenção</h2>
        <p class="hint">
          Detratores (notas 0 a 6) que deixaram um comentário e ainda não foram tratados, e mensagens sem resposta há mais de 48 horas. Os mais antigos
          primeiro.
        </p>
        {total === 0 ? (
          <p class="card" data-fila-vazia="">
            Nada esperando: nenhum detrator com comentário pendente e nenhuma mensagem sem resposta há mais de 48 horas.
          </p>
        ) : (
          queue.map((g) => (
            <section class="card attention-unit" key={`${g.unidadeId ?? g.unidade}`} aria-label={`Unidade ${g.unidade}`}>
              <h3>
                {g.unidade} <span class="badge">{g.items.length}</span>
              </h3>
              <ol class="attention-list">
                {g.items.map((it) => (
                  <li key={`${it.kind}-${it.id}`} data-atencao={`${it.kind}-${it.id}`}>
                    {it.kind === 'detrator' ? (
                      <a href={`/admin/pesquisa/resposta/${it.id}`}>
                        <span class="badge status-detrator">Detrator · nota {it.nota}</span>
                      </a>
                    ) : (
                      <a href={`/admin/mensagens/${it.id}`}>
                        <span class="badge status-nova">Mensagem sem resposta há {formatDuration(now.getTime() - Date.parse(it.criadoEm))}</span>
                      </a>
                    )}{' '}
                    <span class="hint">
                      {formatDateTime(it.criadoEm)} · {it.nome ?? 'Sem nome'}
                      {it.contato ? ` · ${it.contato}` : ' · sem contato'}
                    </span>
                    <p class="pre-line">{excerpt(it.texto)}</p>
                  </li>
                ))}
              </ol>
            </section>
          ))
        )}
      </section>
      {units.length ? (
        <section aria-labelledby="unidades-titulo">
          <h2 id="unidades-titulo">Pesquisa na unidade</h2>
          <ul class="unit-tools">
            {units.map((u) => (
              <li key={u.id}>
                {u.nome}: <a href={`/admin/pesquisa/cartaz/${u.id}`}>Cartaz com QR code<span class="visually-hidden"> · {u.nome}</span></a> ·{' '}
                <a href={`/NPS/nps_app_php/quiosque.php?unidade_id=${u.id}`}>Modo quiosque (tablet da recepção)<span class="visually-hidden"> · {u.nome}</span></a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="funil-titulo">
        <h2 id="funil-titulo">Do site à matrícula</h2>
        <p>
          <a href="/admin/aulas-experimentais/funil">Funil por unidade e semana</a> (cliques → agendamentos → presenças →
          matrículas) · <a href="/admin/aulas-experimentais">Aulas experimentais de hoje e dos próximos dias</a> ·{' '}
          <a href="/admin/cliques">Cliques nos botões do site</a>
        </p>
      </section>
      <p>
        <a href="/admin/pesquisa">Pesquisa de satisfação</a> · <a href="/admin/mensagens">Mensagens</a> ·{' '}
        <a href="/admin/preferencias">Preferências (resumo semanal por e-mail)</a>
      </p>
    </Layout>
  );
}

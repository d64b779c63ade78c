// The audit log page (admin only): who changed what, before and after.
import { formatDateTime } from '../../../lib/time';
import { Select, StaffPage, type StaffProps, TableWrap } from '../shared/components.view';

export const AUDIT_ENTITIES = [
  { value: 'unidade', label: 'Unidades' },
  { value: 'plano', label: 'Planos' },
  { value: 'area', label: 'Áreas' },
  { value: 'modalidade', label: 'Modalidades' },
  { value: 'aula', label: 'Aulas' },
  { value: 'grade', label: 'Grades inteiras' },
  { value: 'pergunta', label: 'Perguntas' },
  { value: 'opcao', label: 'Opções' },
  { value: 'usuario', label: 'Contas' },
  { value: 'catalogo', label: 'Importações do catálogo' },
];

function pretty(json: string | null): string {
  if (!json) return '—';
  try {
    return JSON.stringify(JSON.parse(json), null, 1);
  } catch {
    return json;
  }
}

export function AuditPage(p: {
  staff: StaffProps;
  entidade: string;
  page: number;
  pages: number;
  total: number;
  rows: { id: number; acao: string; entidade: string; entidade_id: number | null; antes: string | null; depois: string | null; criado_em: string; usuario_nome: string | null; usuario_email: string | null }[];
}) {
  const link = (page: number) => `/admin/auditoria?${new URLSearchParams({ ...(p.entidade ? { entidade: p.entidade } : {}), pagina: String(page) })}`;
  return (
    <StaffPage title="Registro de alterações" staff={p.staff}>
      <form method="get" action="/admin/auditoria" class="filters">
        <Select name="entidade" label="Tipo de cadastro" values={{ entidade: p.entidade }} placeholder="Todos" options={AUDIT_ENTITIES} />
        <p>
          <button type="submit" class="secondary">Filtrar</button>
        </p>
      </form>
      <p class="muted">{p.total === 1 ? '1 alteração' : `${p.total} alterações`}</p>
      <TableWrap label="Tabela das alterações">
        <table class="audit">
          <caption class="visually-hidden">Alterações, da mais recente para a mais antiga</caption>
          <thead>
            <tr>
              <th scope="col">Quando</th>
              <th scope="col">Quem</th>
              <th scope="col">O quê</th>
              <th scope="col">Antes</th>
              <th scope="col">Depois</th>
            </tr>
          </thead>
          <tbody>
            {p.rows.map((r) => (
              <tr key={r.id}>
                <td>{formatDateTime(r.criado_em)}</td>
                <td>{r.usuario_nome ? `${r.usuario_nome} (${r.usuario_email})` : 'Linha de comando'}</td>
                <td>
                  {r.acao} · {r.entidade}
                  {r.entidade_id ? ` #${r.entidade_id}` : ''}
                </td>
                <td>
                  <pre class="json">{pretty(r.antes)}</pre>
                </td>
                <td>
                  <pre class="json">{pretty(r.depois)}</pre>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      {p.pages > 1 ? (
        <nav class="pagination" aria-label="Páginas">
          {p.page > 1 ? <a href={link(p.page - 1)}>Anterior</a> : null}
          <span>
            Página {p.page} de {p.pages}
          </span>
          {p.page < p.pages ? <a href={link(p.page + 1)}>Próxima</a> : null}
        </nav>
      ) : null}
    </StaffPage>
  );
}

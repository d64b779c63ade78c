// The audit log page (admin only): who changed what, before and after.
import type { Selectable } from 'kysely';
import type { AuditoriaTable } from '../../db/types';
import { formatDateTime } from '../../lib/time';
import { Field, Select, StaffPage, type StaffProps } from '../../staff/form.view';
import { DataTable, Pagination } from '../../staff/list.view';
import type { ListState } from '../../staff/list';

export const AUDIT_ENTITIES = [
  { value: 'unidade', label: 'Unidades' },
  { value: 'plano', label: 'Planos' },
  { value: 'plano_unidade', label: 'Preços dos planos por unidade' },
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
  list: ListState;
  /** the rows with who made each change */
  rows: (Omit<Selectable<AuditoriaTable>, 'usuario_id'> & {
    usuario_nome: string | null;
    usuario_email: string | null;
  })[];
}) {
  return (
    <StaffPage title="Registro de alterações" staff={p.staff}>
      <form method="get" action="/admin/auditoria" class="filters">
        <Select
          name="entidade"
          label="Tipo de cadastro"
          values={{ entidade: p.entidade }}
          placeholder="Todos"
          options={AUDIT_ENTITIES}
        />
        <Field name="q" label="Contém o texto (nome, valor antes ou depois)" values={{ q: p.list.q }} maxLength={100} />
        <p>
          <button type="submit" class="secondary">
            Filtrar
          </button>
        </p>
      </form>
      <p class="muted">{p.list.total === 1 ? '1 alteração' : `${p.list.total} alterações`}</p>
      <DataTable
        label="Tabela das alterações"
        class="audit"
        caption="Alterações, da mais recente para a mais antiga"
        columns={['Quando', 'Quem', 'O quê', 'Antes', 'Depois']}
        rows={p.rows}
        row={(r) => (
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
        )}
      />
      <Pagination list={p.list} />
    </StaffPage>
  );
}

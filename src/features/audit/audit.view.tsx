// The audit log page (admin only): who changed what, before and after.
import type { Selectable } from 'kysely';
import type { AuditoriaTable } from '../../db/types';
import { formatDateTime } from '../../lib/time';
import { Field, Select, StaffPage, type StaffProps } from '../../staff/form.view';
import { type Column, PagedTable } from '../../staff/list.view';
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

type AuditRow = Omit<Selectable<AuditoriaTable>, 'usuario_id'> & {
  usuario_nome: string | null;
  usuario_email: string | null;
};

const AUDIT_COLUMNS: Column<AuditRow>[] = [
  ['Quando', (r) => formatDateTime(r.criado_em)],
  ['Quem', (r) => (r.usuario_nome ? `${r.usuario_nome} (${r.usuario_email})` : 'Linha de comando')],
  ['O quê', (r) => `${r.acao} · ${r.entidade}${r.entidade_id ? ` #${r.entidade_id}` : ''}`],
  ['Antes', (r) => <pre class="json">{pretty(r.antes)}</pre>],
  ['Depois', (r) => <pre class="json">{pretty(r.depois)}</pre>],
];

export function AuditPage(p: {
  staff: StaffProps;
  entidade: string;
  list: ListState;
  /** the rows with who made each change */
  rows: AuditRow[];
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
      <PagedTable
        list={p.list}
        noun={['alteração', 'alterações']}
        label="Tabela das alterações"
        class="audit"
        caption="Alterações, da mais recente para a mais antiga"
        rows={p.rows}
        columns={AUDIT_COLUMNS}
      />
    </StaffPage>
  );
}

// The incident register's pages (admins): the list, the new-incident form and one incident.
import { formatDateTime, formatDay } from '../../lib/time';
import {
  bindStaffFields,
  type Crumb,
  Field,
  Select,
  type StaffFieldBinder,
  StaffForm,
  StaffPage,
  type StaffProps,
  TextArea,
} from '../../staff/form.view';
import { type Column, PagedTable } from '../../staff/list.view';
import type { ListState } from '../../staff/list';
import type { FieldErrors, FormValues } from '../../staff/validation';
import type { Incident } from './incidents.repository';
import { INCIDENT_LIMITS, RISKS, riskLabel } from './incidents.service';
import { INCIDENT_RETENTION_YEARS } from './retention';

export const INCIDENTS_PATH = '/admin/privacidade/incidentes';
export const CONSENTS_PATH = '/admin/privacidade/consentimentos';

const crumbs: Crumb[] = [{ href: INCIDENTS_PATH, label: 'Incidentes de segurança' }];

function KeptNote() {
  return (
    <p class="hint">
      Cada registro é guardado por pelo menos {INCIDENT_RETENTION_YEARS} anos a partir da data em que foi registrado
      (Resolução ANPD nº 15/2024); só depois disso a rotina de retenção pode excluí-lo.
    </p>
  );
}

const dayOrNo = (day: string | null) => (day ? formatDay(day) : 'não');
const INCIDENT_COLUMNS: Column<Incident>[] = [
  ['Constatado em', (i) => <a href={`${INCIDENTS_PATH}/${i.id}`}>{formatDay(i.constatado_em)}</a>],
  ['O que aconteceu', (i) => (i.descricao.length > 140 ? `${i.descricao.slice(0, 140)}…` : i.descricao)],
  ['Risco', (i) => <span class={`badge risco-${i.risco}`}>{riskLabel(i.risco)}</span>],
  ['Pessoas (aprox.)', (i) => i.quantidade_titulares ?? '—'],
  ['ANPD comunicada', (i) => dayOrNo(i.anpd_comunicada_em)],
  ['Pessoas comunicadas', (i) => dayOrNo(i.titulares_comunicados_em)],
];

export function IncidentsListPage(p: { staff: StaffProps; rows: Incident[]; list: ListState; notice?: string }) {
  return (
    <StaffPage title="Incidentes de segurança" staff={p.staff} notice={p.notice}>
      <p>
        Registro de incidentes com dados pessoais: o que aconteceu, quem e que dados foram afetados, o risco, as medidas
        e quando a ANPD e as pessoas foram comunicadas.
      </p>
      <KeptNote />
      <p>
        <a class="button" href={`${INCIDENTS_PATH}/novo`}>
          Registrar incidente
        </a>{' '}
        <a class="button secondary" href={`${INCIDENTS_PATH}.csv`}>
          Exportar CSV
        </a>{' '}
        <a href={CONSENTS_PATH}>Consentimentos</a>
      </p>
      <PagedTable
        list={p.list}
        noun={['incidente', 'incidentes']}
        label="Tabela dos incidentes"
        caption="Incidentes, do constatado mais recente para o mais antigo"
        rows={p.rows}
        columns={INCIDENT_COLUMNS}
      />
    </StaffPage>
  );
}

function IncidentFields({ field }: { field: StaffFieldBinder }) {
  // The register's long texts: all required, each with the limit the service checks.
  const text = (name: keyof typeof INCIDENT_LIMITS) => ({
    ...field(name),
    required: true,
    maxLength: INCIDENT_LIMITS[name],
  });
  return (
    <>
      <Field {...field('constatado_em')} label="Data em que foi constatado" type="date" required hint="AAAA-MM-DD" />
      <TextArea {...text('descricao')} label="O que aconteceu" />
      <TextArea
        {...text('dados_afetados')}
        label="Dados afetados"
        hint="Tipos de dados: nome, e-mail, WhatsApp, fotos, mensagens…"
      />
      <TextArea
        {...text('titulares_afetados')}
        label="Pessoas afetadas"
        hint="Quem: clientes de uma unidade, candidatos a franquia, equipe…"
      />
      <Field
        {...field('quantidade_titulares')}
        label="Quantidade aproximada de pessoas"
        hint="Deixe em branco se ainda não se sabe."
        inputMode="numeric"
        maxLength={15}
      />
      <Select
        {...field('risco')}
        label="Risco para as pessoas"
        placeholder="Escolha"
        options={RISKS.map((r) => ({ ...r }))}
      />
      <TextArea {...text('medidas')} label="Medidas tomadas" />
      <Field
        {...field('anpd_comunicada_em')}
        label="ANPD comunicada em"
        type="date"
        hint="Deixe em branco se ainda não foi comunicada."
      />
      <Field
        {...field('titulares_comunicados_em')}
        label="Pessoas afetadas comunicadas em"
        type="date"
        hint="Deixe em branco se ainda não foram comunicadas."
      />
    </>
  );
}

export function IncidentFormPage(p: {
  staff: StaffProps;
  values: FormValues;
  errors?: FieldErrors;
  incident?: Incident;
  notice?: string;
}) {
  const action = p.incident ? `${INCIDENTS_PATH}/${p.incident.id}` : `${INCIDENTS_PATH}/novo`;
  return (
    <StaffPage
      title={p.incident ? `Incidente #${p.incident.id}` : 'Registrar incidente'}
      staff={p.staff}
      crumbs={crumbs}
      notice={p.notice}
    >
      {p.incident ? (
        <p class="hint">
          Registrado em {formatDateTime(p.incident.criado_em)}; última alteração em{' '}
          {formatDateTime(p.incident.atualizado_em)}. As alterações ficam no{' '}
          <a href={`/admin/auditoria?entidade=incidente&q=`}>registro de alterações</a>.
        </p>
      ) : null}
      <KeptNote />
      <StaffForm
        action={action}
        csrfToken={p.staff.csrfToken}
        errors={p.errors}
        class="card"
        submit={p.incident ? 'Salvar alterações' : 'Registrar incidente'}
      >
        <IncidentFields field={bindStaffFields(p.values, p.errors)} />
      </StaffForm>
    </StaffPage>
  );
}

/** The form's values from a stored incident. */
export function incidentValues(i: Incident): FormValues {
  return {
    constatado_em: i.constatado_em,
    descricao: i.descricao,
    dados_afetados: i.dados_afetados,
    titulares_afetados: i.titulares_afetados,
    quantidade_titulares: i.quantidade_titulares === null ? '' : String(i.quantidade_titulares),
    risco: i.risco,
    medidas: i.medidas,
    anpd_comunicada_em: i.anpd_comunicada_em ?? '',
    titulares_comunicados_em: i.titulares_comunicados_em ?? '',
  };
}

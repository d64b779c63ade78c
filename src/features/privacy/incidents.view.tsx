// The incident register's pages (admins): the list, the new-incident form and one incident.
import { formatDateTime } from '../../lib/time';
import {
  Csrf,
  Field,
  Select,
  StaffErrorSummary,
  StaffPage,
  TextArea,
  type Crumb,
  type StaffProps,
} from '../../staff/form.view';
import { DataTable, Pagination } from '../../staff/list.view';
import type { ListState } from '../../staff/list';
import type { FieldErrors, FormValues } from '../../staff/validation';
import { formatDay } from './consent';
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
      <p class="muted">{p.list.total === 1 ? '1 incidente' : `${p.list.total} incidentes`}</p>
      <DataTable
        label="Tabela dos incidentes"
        caption="Incidentes, do constatado mais recente para o mais antigo"
        columns={[
          'Constatado em',
          'O que aconteceu',
          'Risco',
          'Pessoas (aprox.)',
          'ANPD comunicada',
          'Pessoas comunicadas',
        ]}
        rows={p.rows}
        row={(i) => (
          <tr key={i.id}>
            <td>
              <a href={`${INCIDENTS_PATH}/${i.id}`}>{formatDay(i.constatado_em)}</a>
            </td>
            <td>{i.descricao.length > 140 ? `${i.descricao.slice(0, 140)}…` : i.descricao}</td>
            <td>
              <span class={`badge risco-${i.risco}`}>{riskLabel(i.risco)}</span>
            </td>
            <td>{i.quantidade_titulares ?? '—'}</td>
            <td>{i.anpd_comunicada_em ? formatDay(i.anpd_comunicada_em) : 'não'}</td>
            <td>{i.titulares_comunicados_em ? formatDay(i.titulares_comunicados_em) : 'não'}</td>
          </tr>
        )}
      />
      <Pagination list={p.list} />
    </StaffPage>
  );
}

function IncidentFields({ values, errors }: { values: FormValues; errors?: FieldErrors }) {
  return (
    <>
      <Field
        name="constatado_em"
        label="Data em que foi constatado"
        type="date"
        values={values}
        errors={errors}
        required
        hint="AAAA-MM-DD"
      />
      <TextArea
        name="descricao"
        label="O que aconteceu"
        values={values}
        errors={errors}
        required
        maxLength={INCIDENT_LIMITS.descricao}
      />
      <TextArea
        name="dados_afetados"
        label="Dados afetados"
        hint="Tipos de dados: nome, e-mail, WhatsApp, fotos, mensagens…"
        values={values}
        errors={errors}
        required
        maxLength={INCIDENT_LIMITS.dados_afetados}
      />
      <TextArea
        name="titulares_afetados"
        label="Pessoas afetadas"
        hint="Quem: clientes de uma unidade, candidatos a franquia, equipe…"
        values={values}
        errors={errors}
        required
        maxLength={INCIDENT_LIMITS.titulares_afetados}
      />
      <Field
        name="quantidade_titulares"
        label="Quantidade aproximada de pessoas"
        hint="Deixe em branco se ainda não se sabe."
        inputMode="numeric"
        values={values}
        errors={errors}
        maxLength={15}
      />
      <Select
        name="risco"
        label="Risco para as pessoas"
        values={values}
        errors={errors}
        placeholder="Escolha"
        options={RISKS.map((r) => ({ ...r }))}
      />
      <TextArea
        name="medidas"
        label="Medidas tomadas"
        values={values}
        errors={errors}
        required
        maxLength={INCIDENT_LIMITS.medidas}
      />
      <Field
        name="anpd_comunicada_em"
        label="ANPD comunicada em"
        type="date"
        hint="Deixe em branco se ainda não foi comunicada."
        values={values}
        errors={errors}
      />
      <Field
        name="titulares_comunicados_em"
        label="Pessoas afetadas comunicadas em"
        type="date"
        hint="Deixe em branco se ainda não foram comunicadas."
        values={values}
        errors={errors}
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
      <StaffErrorSummary errors={p.errors} />
      <form method="post" action={action} class="card" noValidate>
        <Csrf token={p.staff.csrfToken} />
        <IncidentFields values={p.values} errors={p.errors} />
        <p>
          <button type="submit">{p.incident ? 'Salvar alterações' : 'Registrar incidente'}</button>
        </p>
      </form>
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

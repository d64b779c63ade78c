// The staff screen of consents (admins): look a person up by e-mail or phone, see each
// consent with the text version accepted, when and how, and revoke them all.
import { formatPhone } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import { Field, StaffErrorSummary, StaffForm, StaffPage, type StaffProps, StatusNotice } from '../../staff/form.view';
import { type Column, ColumnTable } from '../../staff/list.view';
import type { FieldErrors } from '../../staff/validation';
import type { ConsentService } from './consent.service';
import { CONSENTS_PATH, INCIDENTS_PATH } from './incidents.view';

type ConsentRow = Awaited<ReturnType<ConsentService['lookup']>>[number];

const CHANNEL_LABEL: Record<string, string> = { site: 'Site', cartaz: 'Cartaz (QR code)', quiosque: 'Quiosque' };

const CONSENT_COLUMNS: Column<ConsentRow>[] = [
  ['Aceito em', (r) => formatDateTime(r.aceito_em)],
  [
    'Formulário',
    (r) => (
      <>
        {r.finalidade_nome} <span class="hint">#{r.registro_id}</span>
      </>
    ),
  ],
  [
    'Texto aceito',
    (r) =>
      r.texto ? (
        <>
          “{r.texto}” <span class="hint">(versão {r.versao})</span>
        </>
      ) : (
        '—'
      ),
  ],
  ['Canal', (r) => CHANNEL_LABEL[r.canal] ?? r.canal],
  ['Contato', (r) => [r.email, r.telefone ? formatPhone(r.telefone) : null].filter(Boolean).join(' · ') || '—'],
  [
    'Situação',
    (r) =>
      r.revogado_em
        ? `Revogado em ${formatDateTime(r.revogado_em)}` +
          (r.revogado_por_nome ? ` por ${r.revogado_por_nome}` : ' pela pessoa')
        : 'Em vigor',
  ],
];

export function ConsentsPage(p: {
  staff: StaffProps;
  contato: string;
  rows: ConsentRow[] | null;
  errors?: FieldErrors;
  notice?: string;
}) {
  const open = p.rows?.filter((r) => !r.revogado_em).length ?? 0;
  return (
    <StaffPage title="Consentimentos" staff={p.staff}>
      <StatusNotice text={p.notice} />
      <p>
        Cada formulário com autorização de contato guarda a versão do texto aceito, quando e por qual canal. Procure a
        pessoa pelo e-mail ou telefone para ver a prova ou revogar o consentimento (por exemplo, a pedido feito na
        recepção ou por telefone). Depois da revogação, a equipe não consegue mais responder às mensagens dela e a aula
        experimental não envia lembrete.
      </p>
      <p>
        <a href={INCIDENTS_PATH}>Incidentes de segurança</a>
      </p>
      <StaffErrorSummary errors={p.errors} />
      <form method="get" action={CONSENTS_PATH} class="filters" role="search">
        <Field
          name="contato"
          label="E-mail ou telefone (WhatsApp)"
          values={{ contato: p.contato }}
          errors={p.errors}
          maxLength={254}
        />
        <p>
          <button type="submit">Procurar</button>
        </p>
      </form>
      {p.rows ? (
        <>
          <p class="muted">
            {p.rows.length === 1 ? '1 consentimento' : `${p.rows.length} consentimentos`}
            {p.rows.length ? `, ${open} em vigor` : ''}
          </p>
          <ColumnTable
            label="Consentimentos da pessoa"
            caption="Consentimentos, do mais recente para o mais antigo"
            rows={p.rows}
            columns={CONSENT_COLUMNS}
          />
          {open ? (
            <StaffForm
              action={`${CONSENTS_PATH}/revogar`}
              csrfToken={p.staff.csrfToken}
              class="card"
              novalidate={false}
              submit="Revogar consentimento"
              submitClass="danger"
            >
              <input type="hidden" name="contato" value={p.contato} />
              <p>
                Revogar os {open === 1 ? 'consentimento em vigor' : `${open} consentimentos em vigor`} deste contato. A
                revogação fica registrada com a data e o seu nome.
              </p>
            </StaffForm>
          ) : null}
        </>
      ) : null}
    </StaffPage>
  );
}

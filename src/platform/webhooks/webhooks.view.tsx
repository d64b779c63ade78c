// The admins' webhook screens: the endpoints with the form for a new one, the secret shown
// once after creation, and one endpoint's settings, test button and delivery log.
import { ENVIO_FIELD, keptEnvioId, newEnvioId } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import { PageLinks } from '../../views/table';
import type { ComponentChildren } from 'preact';
import {
  ActiveBadge,
  bindStaffFields,
  ButtonForm,
  CheckboxGroup,
  Field,
  PostForm,
  StaffCheckbox,
  StaffErrorSummary,
  StaffPage,
  type StaffProps,
} from '../../staff/form.view';
import { type Column, ColumnTable } from '../../staff/list.view';
import type { FieldErrors, FormValues } from '../../staff/validation';
import { WEBHOOK_EVENTS } from './events';

export const WEBHOOKS_PATH = '/admin/webhooks';

const EVENT_OPTIONS = WEBHOOK_EVENTS.map((e) => ({ value: e.type, label: `${e.type} — ${e.label}` }));
const crumbs = [{ href: WEBHOOKS_PATH, label: 'Webhooks' }];

const STATUS_LABEL: Record<string, string> = {
  pendente: 'Na fila',
  enviando: 'Enviando',
  entregue: 'Entregue',
  falhou: 'Falhou',
};

export const NOTICES: Record<string, string> = {
  salvo: 'Alterações salvas.',
  teste: 'Evento de teste enfileirado: veja o resultado no registro abaixo em alguns segundos.',
  reenvio: 'Entrega enfileirada de novo (mesmo webhook-id).',
  excluido: 'Endpoint excluído, com o seu registro de entregas.',
  repetido:
    'Este formulário já tinha sido enviado: o endpoint foi cadastrado uma vez só. ' +
    'O segredo não é mostrado de novo; se não o guardou, exclua o endpoint e cadastre outro.',
};

export interface EndpointRow {
  id: number;
  url: string;
  eventos: string;
  ativo: number;
  desativado_motivo: string | null;
  entregas: Record<string, number>;
}

const eventList = (eventos: string) => eventos.split(',').filter(Boolean);

/** An endpoint's form (new or saved): its address, events and switch. `children` go first (the envio id). */
function EndpointForm(p: {
  action: string;
  csrfToken: string;
  values: FormValues;
  errors?: FieldErrors;
  submit: string;
  children?: ComponentChildren;
}) {
  const field = bindStaffFields(p.values, p.errors);
  return (
    <PostForm action={p.action} csrfToken={p.csrfToken} novalidate>
      {p.children}
      <StaffErrorSummary errors={p.errors} />
      <Field
        {...field('url')}
        label="Endereço (URL) que recebe os eventos"
        type="url"
        required
        maxLength={500}
        hint="https:// obrigatório. Cada evento vai por POST em JSON, assinado no padrão Standard Webhooks."
      />
      <CheckboxGroup {...field('eventos')} legend="Eventos" options={EVENT_OPTIONS} />
      <StaffCheckbox name="ativo" label="Ligado (recebe eventos)" values={p.values} />
      <p>
        <button type="submit">{p.submit}</button>
      </p>
    </PostForm>
  );
}

const ENDPOINT_COLUMNS: Column<EndpointRow>[] = [
  ['Endereço', (e) => <a href={`${WEBHOOKS_PATH}/${e.id}`}>{e.url}</a>],
  ['Eventos', (e) => eventList(e.eventos).join(', ')],
  [
    'Situação',
    (e) => (
      <>
        <ActiveBadge ativo={e.ativo} />
        {e.desativado_motivo ? <span class="hint"> {e.desativado_motivo}</span> : null}
      </>
    ),
  ],
  ['Na fila', (e) => (e.entregas.pendente ?? 0) + (e.entregas.enviando ?? 0)],
  ['Entregues', (e) => e.entregas.entregue ?? 0],
  ['Falharam', (e) => e.entregas.falhou ?? 0],
];

export function WebhooksPage(p: {
  staff: StaffProps;
  endpoints: EndpointRow[];
  values: FormValues;
  errors?: FieldErrors;
  notice?: string;
}) {
  return (
    <StaffPage title="Webhooks" staff={p.staff} notice={p.notice} notices={NOTICES} scripts={['envio-fresh.js']}>
      <p>
        Outras ferramentas da rede (CRM, automações, chamados) recebem aqui os eventos do site no formato Standard
        Webhooks: cabeçalhos <code>webhook-id</code>, <code>webhook-timestamp</code> e <code>webhook-signature</code>.
      </p>
      <ColumnTable
        label="Endpoints de webhook"
        rows={p.endpoints}
        empty="Nenhum endpoint cadastrado."
        columns={ENDPOINT_COLUMNS}
      />
      <h2 id="novo">Novo endpoint</h2>
      <EndpointForm
        action={WEBHOOKS_PATH}
        csrfToken={p.staff.csrfToken}
        values={p.values}
        errors={p.errors}
        submit="Cadastrar endpoint"
      >
        {/* A double click on "Cadastrar endpoint" creates one endpoint (platform/envio). */}
        <input type="hidden" name={ENVIO_FIELD} value={keptEnvioId(p.values)} />
      </EndpointForm>
    </StaffPage>
  );
}

/** Right after creation: the only time the secret is shown. */
export function SecretPage(p: { staff: StaffProps; id: number; url: string; segredo: string }) {
  return (
    <StaffPage title="Endpoint cadastrado" staff={p.staff} crumbs={crumbs}>
      <p class="alert alert-ok" role="status">
        Endpoint cadastrado para {p.url}.
      </p>
      <p>
        <strong>Segredo de assinatura (aparece só agora):</strong>
      </p>
      <p>
        <code id="segredo">{p.segredo}</code>
      </p>
      <p class="hint">
        Copie e guarde na ferramenta que recebe os eventos: ela confere a assinatura com ele. Se perder, exclua o
        endpoint e cadastre de novo.
      </p>
      <p>
        <a class="button" href={`${WEBHOOKS_PATH}/${p.id}`}>
          Ver o endpoint
        </a>
      </p>
    </StaffPage>
  );
}

export interface DeliveryRow {
  id: number;
  mensagem_id: string;
  evento: string;
  status: string;
  tentativas: number;
  proxima_tentativa_em: string;
  ultimo_codigo: number | null;
  ultima_duracao_ms: number | null;
  ultima_resposta: string | null;
  ultimo_erro: string | null;
  ultima_tentativa_em: string | null;
  criado_em: string;
}

/** The delivery log's columns; the last one resends a delivery that is not on its way. */
function deliveryColumns(base: string, csrfToken: string): Column<DeliveryRow>[] {
  return [
    ['Criada', (d) => formatDateTime(d.criado_em)],
    ['Evento', (d) => d.evento],
    ['webhook-id', (d) => <code>{d.mensagem_id}</code>],
    ['Situação', (d) => STATUS_LABEL[d.status] ?? d.status],
    ['Tentativas', (d) => d.tentativas],
    ['Resposta', (d) => <DeliveryAnswer delivery={d} />],
    ['Duração', (d) => (d.ultima_duracao_ms === null ? '' : `${d.ultima_duracao_ms} ms`)],
    ['Próxima', (d) => (d.status === 'pendente' ? formatDateTime(d.proxima_tentativa_em) : '')],
    [
      '',
      (d) =>
        d.status === 'enviando' ? null : (
          <ButtonForm
            action={`${base}/entregas/${d.id}/reenviar`}
            csrfToken={csrfToken}
            label="Reenviar"
            buttonClass="secondary"
          />
        ),
    ],
  ];
}

/** The receiver's answer: its status code or error, and the body folded away. */
function DeliveryAnswer({ delivery: d }: { delivery: DeliveryRow }) {
  return (
    <>
      {d.ultimo_codigo ?? (d.ultimo_erro ? '—' : '')}
      {d.ultimo_erro ? <span class="hint"> {d.ultimo_erro}</span> : null}
      {d.ultima_resposta ? (
        <details>
          <summary>corpo</summary>
          <pre>{d.ultima_resposta}</pre>
        </details>
      ) : null}
    </>
  );
}

export function EndpointPage(p: {
  staff: StaffProps;
  id: number;
  ativo: number;
  desativadoMotivo: string | null;
  values: FormValues;
  errors?: FieldErrors;
  notice?: string;
  log: { page: number; pages: number; total: number; rows: DeliveryRow[] };
}) {
  const base = `${WEBHOOKS_PATH}/${p.id}`;
  return (
    <StaffPage
      title={`Webhook ${p.id}`}
      staff={p.staff}
      crumbs={crumbs}
      notice={p.notice}
      notices={NOTICES}
      scripts={['envio-fresh.js']}
    >
      {p.desativadoMotivo && !p.ativo ? <p class="alert">{p.desativadoMotivo}</p> : null}
      <EndpointForm action={base} csrfToken={p.staff.csrfToken} values={p.values} errors={p.errors} submit="Salvar" />
      <ButtonForm action={`${base}/teste`} csrfToken={p.staff.csrfToken} label="Enviar teste" buttonClass="secondary">
        <input type="hidden" name={ENVIO_FIELD} value={newEnvioId()} />
      </ButtonForm>{' '}
      <ButtonForm
        action={`${base}/excluir`}
        csrfToken={p.staff.csrfToken}
        label="Excluir endpoint"
        buttonClass="danger"
        confirm="Excluir este endpoint e o seu registro de entregas?"
      />
      <h2>Registro de entregas</h2>
      <ColumnTable
        label="Registro de entregas"
        rows={p.log.rows}
        empty="Nenhuma entrega ainda."
        columns={deliveryColumns(base, p.staff.csrfToken)}
      />
      <PageLinks page={p.log.page} pages={p.log.pages} href={(n) => `${base}?pagina=${n}`} />
    </StaffPage>
  );
}

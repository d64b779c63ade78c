// The admins' webhook screens: the endpoints with the form for a new one, the secret shown
// once after creation, and one endpoint's settings, test button and delivery log.
import { ENVIO_FIELD, keptEnvioId, newEnvioId } from '../../lib/form/index';
import { formatDateTime } from '../../lib/time';
import { PageLinks } from '../../views/table';
import {
  ActiveBadge,
  CheckboxGroup,
  Csrf,
  Field,
  StaffCheckbox,
  StaffErrorSummary,
  StaffPage,
  type StaffProps,
} from '../../staff/form.view';
import { DataTable } from '../../staff/list.view';
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

function Notice({ notice }: { notice?: string }) {
  const text = notice ? NOTICES[notice] : undefined;
  return text ? (
    <p class="alert alert-ok" role="status">
      {text}
    </p>
  ) : null;
}

export interface EndpointRow {
  id: number;
  url: string;
  eventos: string;
  ativo: number;
  desativado_motivo: string | null;
  entregas: Record<string, number>;
}

const eventList = (eventos: string) => eventos.split(',').filter(Boolean);

function EndpointFields({ values, errors }: { values: FormValues; errors?: FieldErrors }) {
  return (
    <>
      <Field
        name="url"
        label="Endereço (URL) que recebe os eventos"
        type="url"
        values={values}
        errors={errors}
        required
        maxLength={500}
        hint="https:// obrigatório. Cada evento vai por POST em JSON, assinado no padrão Standard Webhooks."
      />
      <CheckboxGroup name="eventos" legend="Eventos" values={values} errors={errors} options={EVENT_OPTIONS} />
      <StaffCheckbox name="ativo" label="Ligado (recebe eventos)" values={values} />
    </>
  );
}

export function WebhooksPage(p: {
  staff: StaffProps;
  endpoints: EndpointRow[];
  values: FormValues;
  errors?: FieldErrors;
  notice?: string;
}) {
  return (
    <StaffPage title="Webhooks" staff={p.staff} scripts={['envio-fresh.js']}>
      <Notice notice={p.notice} />
      <p>
        Outras ferramentas da rede (CRM, automações, chamados) recebem aqui os eventos do site no formato Standard
        Webhooks: cabeçalhos <code>webhook-id</code>, <code>webhook-timestamp</code> e <code>webhook-signature</code>.
      </p>
      <DataTable
        label="Endpoints de webhook"
        columns={['Endereço', 'Eventos', 'Situação', 'Na fila', 'Entregues', 'Falharam']}
        rows={p.endpoints}
        empty="Nenhum endpoint cadastrado."
        row={(e) => (
          <tr key={e.id}>
            <td>
              <a href={`${WEBHOOKS_PATH}/${e.id}`}>{e.url}</a>
            </td>
            <td>{eventList(e.eventos).join(', ')}</td>
            <td>
              <ActiveBadge ativo={e.ativo} />
              {e.desativado_motivo ? <span class="hint"> {e.desativado_motivo}</span> : null}
            </td>
            <td>{(e.entregas.pendente ?? 0) + (e.entregas.enviando ?? 0)}</td>
            <td>{e.entregas.entregue ?? 0}</td>
            <td>{e.entregas.falhou ?? 0}</td>
          </tr>
        )}
      />
      <h2 id="novo">Novo endpoint</h2>
      <form method="post" action={WEBHOOKS_PATH} novalidate>
        <Csrf token={p.staff.csrfToken} />
        {/* A double click on "Cadastrar endpoint" creates one endpoint (platform/envio). */}
        <input type="hidden" name={ENVIO_FIELD} value={keptEnvioId(p.values)} />
        <StaffErrorSummary errors={p.errors} />
        <EndpointFields values={p.values} errors={p.errors} />
        <p>
          <button type="submit">Cadastrar endpoint</button>
        </p>
      </form>
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
    <StaffPage title={`Webhook ${p.id}`} staff={p.staff} crumbs={crumbs} scripts={['envio-fresh.js']}>
      <Notice notice={p.notice} />
      {p.desativadoMotivo && !p.ativo ? <p class="alert">{p.desativadoMotivo}</p> : null}
      <form method="post" action={base} novalidate>
        <Csrf token={p.staff.csrfToken} />
        <StaffErrorSummary errors={p.errors} />
        <EndpointFields values={p.values} errors={p.errors} />
        <p>
          <button type="submit">Salvar</button>
        </p>
      </form>
      <form method="post" action={`${base}/teste`} class="inline">
        <Csrf token={p.staff.csrfToken} />
        <input type="hidden" name={ENVIO_FIELD} value={newEnvioId()} />
        <button type="submit" class="secondary">
          Enviar teste
        </button>
      </form>{' '}
      <form
        method="post"
        action={`${base}/excluir`}
        class="inline"
        data-confirmar="Excluir este endpoint e o seu registro de entregas?"
      >
        <Csrf token={p.staff.csrfToken} />
        <button type="submit" class="danger">
          Excluir endpoint
        </button>
      </form>
      <h2>Registro de entregas</h2>
      <DataTable
        label="Registro de entregas"
        columns={['Criada', 'Evento', 'webhook-id', 'Situação', 'Tentativas', 'Resposta', 'Duração', 'Próxima', '']}
        rows={p.log.rows}
        empty="Nenhuma entrega ainda."
        row={(d) => (
          <tr key={d.id}>
            <td>{formatDateTime(d.criado_em)}</td>
            <td>{d.evento}</td>
            <td>
              <code>{d.mensagem_id}</code>
            </td>
            <td>{STATUS_LABEL[d.status] ?? d.status}</td>
            <td>{d.tentativas}</td>
            <td>
              {d.ultimo_codigo ?? (d.ultimo_erro ? '—' : '')}
              {d.ultimo_erro ? <span class="hint"> {d.ultimo_erro}</span> : null}
              {d.ultima_resposta ? (
                <details>
                  <summary>corpo</summary>
                  <pre>{d.ultima_resposta}</pre>
                </details>
              ) : null}
            </td>
            <td>{d.ultima_duracao_ms === null ? '' : `${d.ultima_duracao_ms} ms`}</td>
            <td>{d.status === 'pendente' ? formatDateTime(d.proxima_tentativa_em) : ''}</td>
            <td>
              {d.status === 'enviando' ? null : (
                <form method="post" action={`${base}/entregas/${d.id}/reenviar`} class="inline">
                  <Csrf token={p.staff.csrfToken} />
                  <button type="submit" class="secondary">
                    Reenviar
                  </button>
                </form>
              )}
            </td>
          </tr>
        )}
      />
      <PageLinks page={p.log.page} pages={p.log.pages} href={(n) => `${base}?pagina=${n}`} />
    </StaffPage>
  );
}

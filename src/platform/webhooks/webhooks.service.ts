// The admins' rules for webhook endpoints (the page and the CLI share them): the URL (https,
// or http on a loopback address for tests; never an internal address unless
// WEBHOOKS_ALLOW_PRIVATE), the events, on/off, the secret made once, the test event, the
// delivery log and "reenviar".
import { randomBytes } from 'node:crypto';
import type { WebhooksConfig } from '../../config';
import { nowIso } from '../../db/index';
import { oneLine, readEnvioId, take } from '../../lib/form/index';
import { pageWindow } from '../../lib/pagination';
import { fingerprintOf, storeOnce } from '../envio/index';
import { isWebhookEvent, TEST_EVENT, WEBHOOK_EVENTS, type WebhookEventType } from './events';
import { AddressRefusedError, LOOPBACK_HOSTS, resolveAllowed } from './ssrf';
import type { Transactional } from '../../db/transactional';
import { type WebhooksRepository, webhookBody } from './webhooks.repository';

export const URL_MAX = 500;
export const LOG_PAGE_SIZE = 50;

export interface EndpointInput {
  url: string;
  eventos: WebhookEventType[];
  ativo: boolean;
}

export type EndpointErrors = Partial<Record<'url' | 'eventos', string>>;
export type Checked = { ok: true; value: EndpointInput } | { ok: false; errors: EndpointErrors };
export type Created =
  | { ok: true; id: number; segredo: string; repeat: boolean }
  /** `repeatOf`: a repeat of a form stored a while ago, the endpoint it made (null: deleted since) */
  | { ok: false; errors: EndpointErrors; repeatOf?: number | null };

/** How long a repeated "Cadastrar endpoint" (double click, resend) still gets the secret again. */
export const SECRET_REPLAY_MS = 10 * 60 * 1000;

/** A new signing secret: "whsec_" and the base64 of 24 random bytes. */
export function newSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

export function createWebhooksService(
  repo: Transactional<WebhooksRepository>,
  config: Pick<WebhooksConfig, 'allowPrivate'>,
) {
  /** The URL's form, then every address its name resolves to (the SSRF rule). */
  async function checkUrl(errors: EndpointErrors, raw: unknown): Promise<string> {
    const text = take(
      errors,
      'url',
      oneLine(raw, { max: URL_MAX, required: 'Informe o endereço (URL) que recebe os eventos.' }),
      '',
    );
    if (!text) return '';
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      errors.url = 'Endereço inválido: use um link completo, como https://exemplo.com.br/webhooks.';
      return text;
    }
    const loopback = LOOPBACK_HOSTS.has(url.hostname.toLowerCase());
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
      errors.url = 'O endereço precisa começar com https:// (http só para 127.0.0.1 ou localhost, em testes).';
    } else if (url.username || url.password) {
      errors.url = 'Não coloque usuário e senha no endereço: o receptor confere a assinatura de cada evento.';
    } else if (url.hash) {
      errors.url = 'Tire a parte depois de "#" do endereço.';
    } else {
      try {
        await resolveAllowed(url.hostname, config.allowPrivate);
      } catch (err) {
        errors.url =
          err instanceof AddressRefusedError
            ? `Endereço recusado: ${err.message}. Webhooks só vão para endereços públicos da internet.`
            : `Não foi possível encontrar ${url.hostname} (DNS). Confira o endereço.`;
      }
    }
    return text;
  }

  function checkEvents(errors: EndpointErrors, raw: unknown): WebhookEventType[] {
    const list = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [])
      .filter((x): x is string => typeof x === 'string')
      .map((x) => x.trim())
      .filter(Boolean);
    const unknown = list.filter((x) => !isWebhookEvent(x));
    const known = WEBHOOK_EVENTS.map((e) => e.type).join(', ');
    if (unknown.length)
      errors.eventos = `Evento desconhecido: ${unknown.slice(0, 3).join(', ')}. Escolha entre ${known}.`;
    else if (!list.length) errors.eventos = 'Escolha pelo menos um evento.';
    // In the list's order, each once.
    return WEBHOOK_EVENTS.map((e) => e.type).filter((t) => list.includes(t));
  }

  async function check(body: { url?: unknown; eventos?: unknown; ativo?: unknown }): Promise<Checked> {
    const errors: EndpointErrors = {};
    const url = await checkUrl(errors, body.url);
    const eventos = checkEvents(errors, body.eventos);
    if (Object.keys(errors).length) return { ok: false, errors };
    return { ok: true, value: { url, eventos, ativo: body.ativo === true || body.ativo === '1' } };
  }

  return {
    check,

    list() {
      return repo.endpoints();
    },

    endpoint(id: number) {
      return repo.endpoint(id);
    },

    /**
     * Stores a new endpoint; the secret is returned here and never shown again. The form's
     * envio_id makes a double click store one endpoint: the repeat (same key and content)
     * stores nothing and, within a few minutes, is answered with the same endpoint and
     * secret (the browser shows only the last answer); later it only names the endpoint.
     */
    async create(body: { url?: unknown; eventos?: unknown; ativo?: unknown; envio_id?: unknown }): Promise<Created> {
      const checked = await check(body);
      if (!checked.ok) return checked;
      const envioId = readEnvioId(body);
      const envio = envioId ? { id: envioId, fingerprint: fingerprintOf(checked.value) } : null;
      const segredo = newSecret();
      const now = new Date();
      const stored = await repo.transaction((tx, trx) =>
        storeOnce(trx, 'webhook_endpoint', envio, () => tx.insertEndpoint({ ...checked.value, segredo }, nowIso(now))),
      );
      if (stored.status === 'stored') return { ok: true, id: stored.id, segredo, repeat: false };
      const first = stored.id === null ? undefined : await repo.endpoint(stored.id);
      if (first && Date.parse(first.criado_em) >= now.getTime() - SECRET_REPLAY_MS)
        return { ok: true, id: first.id, segredo: first.segredo, repeat: true };
      return { ok: false, errors: {}, repeatOf: first?.id ?? null };
    },

    async update(id: number, body: { url?: unknown; eventos?: unknown; ativo?: unknown }) {
      // A missing endpoint is a 404 whatever was posted (no form to show the errors on).
      if (!(await repo.endpoint(id))) return { ok: false as const, missing: true as const, errors: {} };
      const checked = await check(body);
      if (!checked.ok) return checked;
      const found = await repo.updateEndpoint(id, checked.value, nowIso());
      return found ? { ok: true as const } : { ok: false as const, missing: true as const, errors: {} };
    },

    remove(id: number) {
      return repo.deleteEndpoint(id);
    },

    /**
     * Queues the test event to this endpoint only; delivered like any other. A double click
     * on the button (same envio_id) queues one: the repeat answers with the first delivery.
     */
    async sendTest(id: number, form: { envio_id?: unknown } = {}): Promise<number | null> {
      const endpoint = await repo.endpoint(id);
      if (!endpoint) return null;
      const at = new Date();
      const body = webhookBody(TEST_EVENT, { mensagem: 'Evento de teste enviado pela equipe.', endpoint_id: id }, at);
      const envioId = readEnvioId(form);
      const envio = envioId ? { id: envioId, fingerprint: fingerprintOf({ endpoint: id }) } : null;
      const stored = await repo.transaction((tx, trx) =>
        storeOnce(trx, 'webhook_teste', envio, () => tx.queueTest(id, body, nowIso(at))),
      );
      return stored.id ?? 0;
    },

    /** One page of the endpoint's delivery log, newest first. */
    async log(id: number, page: unknown) {
      const total = await repo.countDeliveries(id);
      const window = pageWindow(total, LOG_PAGE_SIZE, page);
      return { ...window, rows: await repo.deliveries(id, window.size, window.offset) };
    },

    resend(endpointId: number, deliveryId: number) {
      return repo.resend(deliveryId, endpointId, nowIso());
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;

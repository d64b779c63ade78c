// The Asaas API v3 over fetch: every call has a time limit; GETs, DELETEs and updates are
// retried with backoff on a timeout, a network error, 5xx or 429 (honouring Retry-After).
// A create (customer, charge, subscription) or a refund is never simply sent again: the
// caller looks it up first (by externalReference or the payment's status), so a call that
// timed out after Asaas applied it is found instead of repeated (docs/decisions/246).
// Each call and its answer are logged without the key, query values or bodies.
import type { FastifyBaseLogger } from 'fastify';
import type { AsaasConfig } from '../../../config';

export type AsaasLog = Pick<FastifyBaseLogger, 'info' | 'warn'>;

export interface AsaasPayment {
  id: string;
  status: string;
  value: number;
  billingType?: string;
  customer?: string;
  subscription?: string | null;
  externalReference?: string | null;
  dueDate?: string;
  paymentDate?: string | null;
  clientPaymentDate?: string | null;
  confirmedDate?: string | null;
  invoiceUrl?: string | null;
  deleted?: boolean;
  creditCard?: { creditCardToken?: string | null } | null;
  /** the immediate QR code that made it (Pix Automático's first payment) */
  pixQrCodeId?: string | null;
}

export interface AsaasSubscription {
  id: string;
  status?: string;
  value: number;
  nextDueDate?: string;
  endDate?: string | null;
  externalReference?: string | null;
  deleted?: boolean;
}

/** A Pix Automático authorization (journey 3): its immediate QR pays the first month and authorises the rest. */
export interface AsaasAuthorization {
  id: string;
  status: string;
  contractId?: string;
  customerId?: string;
  subscriptionId?: string | null;
  immediateQrCode?: { payload?: string; conciliationIdentifier?: string; expirationDate?: string } | null;
}

interface AsaasList<T> {
  data: T[];
  hasMore?: boolean;
  totalCount?: number;
}

/** An answer Asaas gave (4xx/5xx), or none (timeout, network): `status` 0. */
export class AsaasError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AsaasError';
  }
  /** Worth trying again later: no answer, a server error or too many requests. */
  get transient(): boolean {
    return this.status === 0 || this.status === 429 || this.status >= 500;
  }
}

export interface AsaasClientOptions {
  /** attempts of a retried call (default 4) */
  attempts?: number;
  /** first backoff in ms, doubled each time (default 300) */
  backoffMs?: number;
  /** longest wait honoured from Retry-After (default 30 s) */
  maxWaitMs?: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const PAID = /^(RECEIVED|CONFIRMED|RECEIVED_IN_CASH)$/;

/** The path as logged: query values dropped (a CPF may be one). */
export function loggedPath(path: string): string {
  const [base, query] = path.split('?');
  if (!query) return base ?? path;
  const keys = query.split('&').map((kv) => kv.split('=')[0]);
  return `${base}?${keys.map((k) => `${k}=…`).join('&')}`;
}

/** What of an answer is logged: ids and statuses, never names, documents or addresses. */
function summary(body: unknown): Record<string, unknown> {
  if (!body || typeof body !== 'object') return {};
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.data))
    return { count: b.data.length, ids: b.data.slice(0, 10).map((d) => (d as { id?: string }).id) };
  if (Array.isArray(b.errors)) return { errors: b.errors.map((e) => (e as { code?: string }).code).slice(0, 5) };
  const out: Record<string, unknown> = {};
  for (const k of ['object', 'id', 'status', 'deleted', 'billingType', 'externalReference'])
    if (b[k] !== undefined) out[k] = b[k];
  return out;
}

export function createAsaasClient(config: AsaasConfig, log?: AsaasLog, options: AsaasClientOptions = {}) {
  const attempts = options.attempts ?? 4;
  const backoffMs = options.backoffMs ?? 300;
  const maxWaitMs = options.maxWaitMs ?? 30_000;

  /** One HTTP exchange, no retry. */
  async function once(method: string, path: string, body: unknown, attempt: number): Promise<unknown> {
    const started = Date.now();
    const where = { asaas: { method, path: loggedPath(path), attempt } };
    let res: Response;
    try {
      res = await fetch(`${config.apiUrl}${path}`, {
        method,
        headers: {
          access_token: config.apiKey,
          'content-type': 'application/json',
          accept: 'application/json',
          'user-agent': 'academia-site',
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(config.timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError' || (err as Error).name === 'AbortError';
      log?.warn({ ...where, ms: Date.now() - started, error: timedOut ? 'timeout' : 'network' }, 'asaas call failed');
      throw new AsaasError(
        0,
        timedOut ? 'timeout' : 'network',
        timedOut ? 'Asaas: sem resposta no prazo' : 'Asaas: erro de rede',
      );
    }
    const text = await res.text().catch(() => '');
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    const ms = Date.now() - started;
    if (res.ok) {
      log?.info({ ...where, status: res.status, ms, answer: summary(parsed) }, 'asaas call');
      return parsed;
    }
    log?.warn({ ...where, status: res.status, ms, answer: summary(parsed) }, 'asaas call refused');
    const first = (parsed as { errors?: { code?: string; description?: string }[] } | null)?.errors?.[0];
    const error = new AsaasError(
      res.status,
      first?.code ?? `http_${res.status}`,
      `Asaas ${res.status}: ${first?.description ?? ''}`,
    );
    const retryAfter = res.headers.get('retry-after');
    if (retryAfter) (error as AsaasError & { retryAfterMs?: number }).retryAfterMs = retryAfterMs(retryAfter);
    throw error;
  }

  function retryAfterMs(value: string): number {
    const seconds = Number(value);
    if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
    const at = Date.parse(value);
    return Number.isFinite(at) ? Math.max(0, at - Date.now()) : 0;
  }

  /** The wait before attempt `n + 1` after `err`. */
  function waitAfter(err: AsaasError, n: number): number {
    const hinted = (err as AsaasError & { retryAfterMs?: number }).retryAfterMs;
    const backoff = backoffMs * 2 ** (n - 1);
    return Math.min(maxWaitMs, hinted !== undefined ? Math.max(hinted, 0) : backoff);
  }

  /** A call safe to repeat: retried on transient failures. */
  async function retried<T>(method: string, path: string, body?: unknown): Promise<T> {
    for (let n = 1; ; n++) {
      try {
        return (await once(method, path, body, n)) as T;
      } catch (err) {
        if (!(err instanceof AsaasError) || !err.transient || n >= attempts) throw err;
        await sleep(waitAfter(err, n));
      }
    }
  }

  /**
   * A create that must happen once: look it up, create only when absent; after a transient
   * failure look again (the create may have been applied) before trying once more.
   */
  async function findOrCreate<T>(find: () => Promise<T | undefined>, create: () => Promise<T>): Promise<T> {
    for (let n = 1; ; n++) {
      const found = await find();
      if (found) return found;
      try {
        return await create();
      } catch (err) {
        if (!(err instanceof AsaasError) || !err.transient || n >= attempts) throw err;
        await sleep(waitAfter(err, n));
      }
    }
  }

  /** A DELETE safe to repeat: what is gone already (404) counts as removed. */
  async function removed(path: string): Promise<void> {
    try {
      await retried('DELETE', path);
    } catch (err) {
      if (err instanceof AsaasError && err.status === 404) return;
      throw err;
    }
  }

  const q = (v: string) => encodeURIComponent(v);

  const client = {
    /** The customer with this CPF, or a new one. */
    async customer(person: { name: string; cpf: string; email: string; phone: string | null }): Promise<string> {
      const found = await findOrCreate(
        async () => (await retried<AsaasList<{ id: string }>>('GET', `/customers?cpfCnpj=${q(person.cpf)}`)).data[0],
        () =>
          once(
            'POST',
            '/customers',
            {
              name: person.name,
              cpfCnpj: person.cpf,
              email: person.email,
              mobilePhone: person.phone?.replace(/^\+55/, '').replace(/\D/g, '') || undefined,
            },
            1,
          ) as Promise<{ id: string }>,
      );
      return found.id;
    },

    /** Charges of our reference, newest first (deleted ones left out). */
    async paymentsByReference(reference: string): Promise<AsaasPayment[]> {
      const list = await retried<AsaasList<AsaasPayment>>('GET', `/payments?externalReference=${q(reference)}`);
      return list.data.filter((p) => !p.deleted);
    },

    /** The charge of `reference`, created once. */
    async charge(c: {
      customer: string;
      reference: string;
      valueCents: number;
      dueDate: string;
      description: string;
      successUrl?: string;
    }): Promise<AsaasPayment> {
      const made = await findOrCreate(
        async () => (await client.paymentsByReference(c.reference))[0],
        () =>
          once(
            'POST',
            '/payments',
            {
              customer: c.customer,
              billingType: 'UNDEFINED',
              value: c.valueCents / 100,
              dueDate: c.dueDate,
              description: c.description,
              externalReference: c.reference,
              ...(c.successUrl ? { callback: { successUrl: c.successUrl, autoRedirect: true } } : {}),
            },
            1,
          ) as Promise<AsaasPayment>,
      );
      // Two instances looking at once may each have created one: all keep the same (a paid
      // one, else the smallest id) and remove the others, so only one can be paid.
      const all = await client.paymentsByReference(c.reference);
      if (all.length <= 1) return made;
      const paid = all.filter((p) => PAID.test(p.status));
      const keep = paid[0] ?? [...all].sort((a, b) => a.id.localeCompare(b.id))[0]!;
      for (const p of all) if (p.id !== keep.id && !PAID.test(p.status)) await client.deletePayment(p.id);
      log?.warn({ reference: c.reference, kept: keep.id, charges: all.length }, 'asaas: duplicate charges removed');
      return keep;
    },

    payment: (id: string) => retried<AsaasPayment>('GET', `/payments/${q(id)}`),

    pixQrCode: (id: string) =>
      retried<{ payload: string; encodedImage?: string; expirationDate?: string }>(
        'GET',
        `/payments/${q(id)}/pixQrCode`,
      ),

    /**
     * Refunds a charge in full, once: its status is read first, and a charge already refunded
     * (or being refunded) is not posted again; after a transient failure the status is read again.
     */
    async refund(id: string, description: string): Promise<AsaasPayment> {
      const refunded = (p: AsaasPayment) => /^(REFUNDED|REFUND_REQUESTED|REFUND_IN_PROGRESS)$/.test(p.status);
      return findOrCreate(
        async () => {
          const p = await client.payment(id);
          return refunded(p) ? p : undefined;
        },
        () => once('POST', `/payments/${q(id)}/refund`, { description }, 1) as Promise<AsaasPayment>,
      );
    },

    /** Payments received (paymentDate) from `from` to `to` (aaaa-mm-dd, inclusive), every page. */
    async receivedBetween(from: string, to: string): Promise<AsaasPayment[]> {
      const out: AsaasPayment[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await retried<AsaasList<AsaasPayment>>(
          'GET',
          `/payments?paymentDate%5Bge%5D=${from}&paymentDate%5Ble%5D=${to}&limit=100&offset=${offset}`,
        );
        out.push(...page.data);
        if (!page.hasMore || page.data.length === 0) return out;
      }
    },

    /** The monthly subscription of `reference`, created once. */
    async subscription(s: {
      customer: string;
      reference: string;
      valueCents: number;
      nextDueDate: string;
      description: string;
      creditCardToken?: string | null;
    }): Promise<AsaasSubscription> {
      return findOrCreate(
        async () => {
          const list = await retried<AsaasList<AsaasSubscription>>(
            'GET',
            `/subscriptions?externalReference=${q(s.reference)}`,
          );
          return list.data.find((x) => !x.deleted);
        },
        () =>
          once(
            'POST',
            '/subscriptions',
            {
              customer: s.customer,
              billingType: s.creditCardToken ? 'CREDIT_CARD' : 'UNDEFINED',
              ...(s.creditCardToken ? { creditCardToken: s.creditCardToken } : {}),
              value: s.valueCents / 100,
              nextDueDate: s.nextDueDate,
              cycle: 'MONTHLY',
              description: s.description,
              externalReference: s.reference,
            },
            1,
          ) as Promise<AsaasSubscription>,
      );
    },

    /**
     * The Pix Automático authorization of our `contractId` (created or active), or a new one:
     * monthly from `startDate`, its immediate QR charging the first payment.
     */
    async authorization(a: {
      customer: string;
      contractId: string;
      startDate: string;
      valueCents: number;
      firstCents: number;
      expirationSeconds: number;
      description: string;
    }): Promise<AsaasAuthorization> {
      return findOrCreate(
        async () => {
          const list = await retried<AsaasList<AsaasAuthorization>>(
            'GET',
            `/pix/automatic/authorizations?customerId=${q(a.customer)}&limit=100`,
          );
          return list.data.find((x) => x.contractId === a.contractId && /^(CREATED|ACTIVE)$/.test(x.status));
        },
        () =>
          once(
            'POST',
            '/pix/automatic/authorizations',
            {
              customerId: a.customer,
              frequency: 'MONTHLY',
              contractId: a.contractId,
              startDate: a.startDate,
              value: a.valueCents / 100,
              description: a.description.slice(0, 35),
              paymentCreationMode: 'SUBSCRIPTION',
              immediateQrCode: {
                originalValue: a.firstCents / 100,
                expirationSeconds: a.expirationSeconds,
                description: a.description.slice(0, 35),
              },
            },
            1,
          ) as Promise<AsaasAuthorization>,
      );
    },

    authorizationById: (id: string) => retried<AsaasAuthorization>('GET', `/pix/automatic/authorizations/${q(id)}`),

    /** Cancels an authorization; a second call finds it gone or cancelled. */
    async cancelAuthorization(id: string): Promise<void> {
      try {
        await retried('DELETE', `/pix/automatic/authorizations/${q(id)}`);
      } catch (err) {
        if (err instanceof AsaasError && (err.status === 404 || err.status === 400)) return;
        throw err;
      }
    },

    /** The payment made by an immediate QR code (Pix Automático's first payment), if any. */
    async paymentOfQrCode(customer: string, conciliationIdentifier: string): Promise<AsaasPayment | undefined> {
      const list = await retried<AsaasList<AsaasPayment>>(
        'GET',
        `/payments?customer=${q(customer)}&pixQrCodeId=${q(conciliationIdentifier)}`,
      );
      return list.data.find((p) => !p.deleted);
    },

    /** The charges a subscription made (deleted ones left out). */
    async subscriptionPayments(id: string): Promise<AsaasPayment[]> {
      const list = await retried<AsaasList<AsaasPayment>>('GET', `/subscriptions/${q(id)}/payments?limit=100`);
      return list.data.filter((p) => !p.deleted);
    },

    /** No charge after `endDate` (aaaa-mm-dd); repeating it changes nothing. */
    endSubscription: (id: string, endDate: string) =>
      retried<AsaasSubscription>('POST', `/subscriptions/${q(id)}`, { endDate }),

    /** Removes the subscription (its pending charges go with it); a second call finds it gone. */
    cancelSubscription: (id: string) => removed(`/subscriptions/${q(id)}`),

    /** Removes a pending charge; a second call finds it gone. */
    deletePayment: (id: string) => removed(`/payments/${q(id)}`),
  };
  return client;
}

export type AsaasClient = ReturnType<typeof createAsaasClient>;

// A fake Asaas (API v3) for tests, on 127.0.0.1 with a free port, written from Asaas's public API
// reference: customers, payments (charges), Pix QR codes, refunds, subscriptions, Pix Automático
// (journey 3), the hosted invoice page, and webhooks with the faults a real network has. Node's http
// only; each test file starts its own and closes it. Money is reais as a JSON number (99.9), days
// "YYYY-MM-DD" (São Paulo), lists {object:'list', hasMore, totalCount, limit, offset, data}, errors
// {errors:[{code, description}]} (400), 401 without or with a wrong `access_token`, 404 unknown ids.
//
// The API (paths under `url`, which ends in /v3):
//   POST/GET /customers (?cpfCnpj, email, name, externalReference), GET /customers/:id.
//     The CPF/CNPJ's check digits are verified (Asaas refuses a wrong one); the same CPF may have two.
//   POST /payments (customer, billingType PIX|CREDIT_CARD|BOLETO|UNDEFINED, value, dueDate not before
//     today, description, externalReference, callback {successUrl, autoRedirect}, pixAutomaticAuthorizationId)
//     → PENDING, invoiceUrl `<origin>/i/<id>`, PAYMENT_CREATED. netValue is value less a 0.99 fee.
//   GET /payments (?externalReference, status, customer, subscription, billingType, pixQrCodeId,
//     paymentDate[ge|le], dateCreated[ge|le], dueDate[ge|le], offset, limit: default 10, at most 100;
//     newest first; deleted payments left out). GET /payments/:id (a deleted one: `deleted: true`).
//   GET /payments/:id/pixQrCode → {success, encodedImage (a real QR PNG of the payload), payload (EMV
//     BR Code with the amount and a valid CRC), expirationDate}; 400 for a CREDIT_CARD charge.
//   POST /payments/:id/refund {value?, description?}: only RECEIVED/CONFIRMED; full → REFUNDED and
//     PAYMENT_REFUNDED, partial → PAYMENT_PARTIALLY_REFUNDED (status kept; several partials may add up
//     to the value); after holdRefunds() a full refund answers REFUND_REQUESTED with no event until
//     completeRefund(). DELETE /payments/:id → {deleted:true, id}, PAYMENT_DELETED; 400 once paid,
//     404 when unknown or already deleted (so a repeated DELETE finds it gone).
//   POST /subscriptions (customer, billingType, value, nextDueDate, cycle, description,
//     externalReference, endDate?, maxPayments?, creditCardToken?) → `sub_…` ACTIVE. As Asaas does,
//     the first payment (due nextDueDate) is created at once and nextDueDate moves one cycle on
//     (opts.firstPaymentOnCreate: false turns this off); a card subscription with a token whose
//     first payment is due today or earlier is charged at once. GET /subscriptions
//     (?customer, externalReference, status, billingType; deleted left out), GET /subscriptions/:id,
//     POST /subscriptions/:id (value, nextDueDate, endDate, status, description, billingType, cycle,
//     externalReference, creditCardToken; updatePendingPayments also changes the pending payments),
//     DELETE /subscriptions/:id → {deleted:true, id}, INACTIVE, its pending payments deleted
//     (PAYMENT_DELETED each); 404 when already deleted. GET /subscriptions/:id/payments.
//     Subscription events (SUBSCRIPTION_*) are not sent: the webhook is as if set up for payments only.
//   Pix Automático, journey 3 (POST /pix/automatic/authorizations: frequency, contractId, startDate,
//     finishDate?, value?, description?, customerId, immediateQrCode {expirationSeconds?, originalValue,
//     description?}, minLimitValue?, paymentCreationMode MANUAL|SUBSCRIPTION) → {id (uuid), status
//     CREATED, …, subscriptionId: null, immediateQrCode {payload, encodedImage, expirationDate,
//     conciliationIdentifier, originalValue, …}}, event PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED.
//     GET /pix/automatic/authorizations (?status, customerId), GET …/:id, DELETE …/:id → CANCELLED.
//     The payer pays with pixAutomatic.pay(): a PIX payment of the customer (no externalReference,
//     pixQrCodeId = the conciliationIdentifier) is created and received, then the authorization is
//     ACTIVE (PAYMENT_CREATED, PAYMENT_RECEIVED, …_AUTHORIZATION_ACTIVATED, the order of Asaas's
//     guide); with SUBSCRIPTION a PIX subscription (value, nextDueDate = startDate) is created just
//     before the activation (its first PAYMENT_CREATED comes first), so ACTIVATED carries subscriptionId;
//     renew() of that subscription is debited at once (fail: overdue), as a card's. Later charges:
//     POST /payments with pixAutomaticAuthorizationId (the authorization must be ACTIVE and the same
//     customer's). Authorization events carry the object under `authorization`. Not sure of Asaas
//     (the feature is under controlled access): the response fields beyond those, the key of the
//     object in its events, and whether the first payment is of the same customer.
// The hosted invoice page, GET <origin>/i/:id (no /v3, no key): the value, the due day and, by
// billingType, the Pix "copia e cola" (label "Pix copia e cola", button "Simular pagamento Pix", a
// fake-only shortcut) and/or a card form (labels "Nome impresso no cartão", "Número do cartão",
// "Validade (MM/AAAA)", "CVV", button "Pagar com cartão") that POSTs to the fake itself, so the card
// number never reaches the app (only its last 4 digits are kept). Paid → redirect 303 to
// callback.successUrl unless autoRedirect is false, else a page "Pagamento confirmado". Asaas's
// sandbox refusal cards 5184019740373151 and 4916561358240741 are refused (422 page,
// PAYMENT_CREDIT_CARD_CAPTURE_REFUSED). Any card with 13 to 19 digits is accepted.
//
// Webhooks: each event {id:'evt_<uuid>', event, dateCreated:'YYYY-MM-DD HH:MM:SS', payment (the
// whole object as it is at that moment) | authorization} is POSTed as JSON with `asaas-access-token`,
// after the API answer, one at a time in the order made (as Asaas's queue), round robin over the
// targets (each attempt takes the next one). Events made before any target is set wait for one.
// A delivery answered non-2xx or not at all (opts.webhookTimeoutMs, default 5 s) counts in `failing`
// and is tried again up to opts.webhookAttempts in all (default 3), after opts.webhookBackoffMs
// (default 20 ms) doubled each time; then it is given up (listed in webhooks.deliveries only).
// duplicate(): both copies are sent at the same time. Every attempt is in webhooks.deliveries.
//
// Faults: failNext() rules apply to /v3 calls with a valid key, the first matching rule first; `path`
// is relative to /v3 without the query ('/payments', '/payments/pay_x/refund'), a string matching
// exactly and a RegExp by test(). A refused call answers {errors:[{code:'fake_failure', …}]}.
// `calls` keeps every /v3 call with that same path; status 0 = never answered (hang, applyThenHang).
//
// Added to the contract: opts webhookAttempts/webhookBackoffMs/webhookTimeoutMs/firstPaymentOnCreate;
// pay() opts billingType (how an UNDEFINED charge is paid, default PIX) and confirmOnly (a card stays
// CONFIRMED; a later pay() makes it RECEIVED); webhooks.deliveries; holdRefunds(on = true)/completeRefund();
// state.authorizations; pixAutomatic.{pay, refuse, cancelByPayer}; invoice page POST /i/:id/pix.
import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface FailRule {
  method?: string;
  path?: string | RegExp;
  times?: number;
  status?: number;
  retryAfter?: number;
  hang?: boolean;
  applyThenHang?: boolean;
}

export interface FakeAsaasOptions {
  apiKey?: string;
  webhookToken?: string;
  /** attempts of one event before it is given up (default 3) */
  webhookAttempts?: number;
  /** wait before the 2nd attempt, doubled for each next one (default 20 ms) */
  webhookBackoffMs?: number;
  /** time limit of one attempt (default 5000 ms) */
  webhookTimeoutMs?: number;
  /** POST /subscriptions creates the first payment at once, as Asaas does (default true) */
  firstPaymentOnCreate?: boolean;
}

export interface WebhookDelivery {
  eventId: string;
  event: string;
  url: string;
  /** 0: no answer (refused, reset, timed out) */
  status: number;
  attempt: number;
}

export interface FakeAsaas {
  /** base including /v3, e.g. http://127.0.0.1:PORT/v3 (ASAAS_API_URL) */
  url: string;
  /** accepted in the header `access_token` */
  apiKey: string;
  /** sent as the header `asaas-access-token` on every webhook POST */
  webhookToken: string;
  setWebhookTargets(urls: string[]): void;
  failNext(rule: FailRule): void;
  webhooks: {
    /** drop the next n events (never delivered, still in state.events) */
    lose(n?: number): void;
    /** deliver each of the next n events twice (same id, both at once) */
    duplicate(n?: number): void;
    /** queue events instead of sending them */
    hold(): void;
    /** send the queued events (reverse: out of order) and wait for them */
    release(opts?: { reverse?: boolean }): Promise<void>;
    /** wait before each event's delivery (0: none) */
    delay(ms: number): void;
    /** attempts answered non-2xx or not answered */
    readonly failing: number;
    /** every attempt, in order */
    deliveries: WebhookDelivery[];
    /** resolves when no delivery is in flight or waiting (held events and no-target waits aside) */
    flush(): Promise<void>;
  };
  /**
   * The payer pays. Pix/boleto → RECEIVED (PAYMENT_RECEIVED); card → CONFIRMED (PAYMENT_CONFIRMED)
   * then RECEIVED (PAYMENT_RECEIVED). Sets clientPaymentDate, paymentDate (and confirmedDate for a card).
   */
  pay(
    paymentId: string,
    opts?: { date?: string; billingType?: 'PIX' | 'CREDIT_CARD' | 'BOLETO'; confirmOnly?: boolean },
  ): Promise<void>;
  /** OVERDUE, PAYMENT_OVERDUE (from PENDING) */
  overdue(paymentId: string): Promise<void>;
  /** CHARGEBACK_REQUESTED, PAYMENT_CHARGEBACK_REQUESTED (from RECEIVED/CONFIRMED) */
  chargeback(paymentId: string): Promise<void>;
  /**
   * The subscription's next payment (PAYMENT_CREATED) due nextDueDate; nextDueDate moves one cycle.
   * Card (or Pix Automático) subscription: charged at once (pay()); fail: a card gets
   * PAYMENT_CREDIT_CARD_CAPTURE_REFUSED, then every kind overdue(). Returns the payment's id.
   */
  renew(subscriptionId: string, opts?: { fail?: boolean }): Promise<string>;
  /** full refunds answer REFUND_REQUESTED (no event) until completeRefund(); holdRefunds(false) ends it */
  holdRefunds(on?: boolean): void;
  /** REFUND_REQUESTED → REFUNDED, PAYMENT_REFUNDED */
  completeRefund(paymentId: string): Promise<void>;
  pixAutomatic: {
    /** the payer pays the immediate QR: the first payment is received and the authorization ACTIVE; its id */
    pay(authorizationId: string, opts?: { date?: string }): Promise<string>;
    /** the QR expired unpaid or the bank refused: REFUSED */
    refuse(authorizationId: string): Promise<void>;
    /** the payer cancels in the bank's app: CANCELLED */
    cancelByPayer(authorizationId: string): Promise<void>;
  };
  state: {
    customers: Map<string, any>;
    payments: Map<string, any>;
    subscriptions: Map<string, any>;
    authorizations: Map<string, any>;
    refunds: Array<{ paymentId: string; value: number }>;
    /** every event made, delivered or not */
    events: any[];
  };
  calls: Array<{ method: string; path: string; query: Record<string, string>; body: any; status: number }>;
  close(): Promise<void>;
}

// ---------- small pieces ----------

const ALNUM = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function newId(prefix: string): string {
  const bytes = randomBytes(12);
  let out = prefix;
  for (const b of bytes) out += ALNUM[b % ALNUM.length];
  return out;
}

const dayFormat = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' });
const timeFormat = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'America/Sao_Paulo',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});
const today = () => dayFormat.format(new Date());
const nowText = () => timeFormat.format(new Date()).replace('T', ' ');

const DAY = /^\d{4}-\d{2}-\d{2}$/;
function validDay(v: unknown): v is string {
  if (typeof v !== 'string' || !DAY.test(v)) return false;
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v;
}

function addDays(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

/** n months on, the day kept or clamped to the month's last (Jan 31 + 1 → Feb 28/29). */
function addMonths(day: string, n: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const first = new Date(Date.UTC(y, m - 1 + n, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0)).getUTCDate();
  first.setUTCDate(Math.min(d, last));
  return first.toISOString().slice(0, 10);
}

const CYCLES: Record<string, (day: string) => string> = {
  WEEKLY: (d) => addDays(d, 7),
  BIWEEKLY: (d) => addDays(d, 14),
  MONTHLY: (d) => addMonths(d, 1),
  BIMONTHLY: (d) => addMonths(d, 2),
  QUARTERLY: (d) => addMonths(d, 3),
  SEMIANNUALLY: (d) => addMonths(d, 6),
  YEARLY: (d) => addMonths(d, 12),
};
const FREQUENCY_CYCLE: Record<string, string> = {
  WEEKLY: 'WEEKLY',
  MONTHLY: 'MONTHLY',
  QUARTERLY: 'QUARTERLY',
  SEMIANNUALLY: 'SEMIANNUALLY',
  ANNUALLY: 'YEARLY',
};

const round2 = (n: number) => Math.round(n * 100) / 100;
const digitsOf = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v).replace(/\D/g, '') : '');

function validCpf(c: string): boolean {
  if (!/^\d{11}$/.test(c) || /^(\d)\1{10}$/.test(c)) return false;
  const dv = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(c[i]) * (len + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return dv(9) === Number(c[9]) && dv(10) === Number(c[10]);
}

function validCnpj(c: string): boolean {
  if (!/^\d{14}$/.test(c) || /^(\d)\1{13}$/.test(c)) return false;
  const dv = (len: number) => {
    const weights = len === 12 ? [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] : [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(c[i]) * (weights[i] as number);
    const r = sum % 11;
    return r < 2 ? 0 : 11 - r;
  };
  return dv(12) === Number(c[12]) && dv(13) === Number(c[13]);
}

/** EMV TLV field: two-digit id, two-digit length, value. */
const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** CRC-16/CCITT-FALSE of the BR Code. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** A dynamic Pix BR Code like Asaas's: a location URL, the amount, a valid CRC; `recurrence` adds field 80. */
function pixPayload(value: number, location: string, recurrence?: string): string {
  let s =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', tlv('00', 'br.gov.bcb.pix') + tlv('25', `pix.fake-asaas.test/qr/v2/${location}`)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', value.toFixed(2)) +
    tlv('58', 'BR') +
    tlv('59', 'ACADEMIA FAKE ASAAS') +
    tlv('60', 'SAO PAULO') +
    tlv('62', tlv('05', '***'));
  if (recurrence) s += tlv('80', tlv('00', 'br.gov.bcb.pix') + tlv('25', `pix.fake-asaas.test/rec/${recurrence}`));
  s += '6304';
  return s + crc16(s);
}

let qrLib: typeof import('qrcode') | undefined;
/** The QR code of a payload as base64 PNG; qrcode is loaded on the first QR asked for. */
async function qrPng(payload: string): Promise<string> {
  qrLib ??= await import('qrcode');
  const toBuffer = qrLib.toBuffer ?? (qrLib as any).default.toBuffer;
  const png: Buffer = await toBuffer(payload, { type: 'png', margin: 1, scale: 4 });
  return png.toString('base64');
}

function cardBrand(number: string): string {
  if (/^(636368|438935|504175|451416|636297|5067|4576|4011|506699)/.test(number)) return 'ELO';
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  if (/^(606282|3841)/.test(number)) return 'HIPERCARD';
  return 'UNKNOWN';
}
const REFUSED_CARDS = new Set(['5184019740373151', '4916561358240741']);

const esc = (s: unknown) =>
  String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
const brl = (v: number) => `R$ ${v.toFixed(2).replace('.', ',')}`;
const brDay = (d: string) => d.split('-').reverse().join('/');

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    description: string,
  ) {
    super(description);
  }
}
const bad = (code: string, description: string) => new ApiError(400, code, description);
const notFound = (what: string) => new ApiError(404, 'not_found', `${what} não encontrado.`);

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const PAID = new Set(['RECEIVED', 'CONFIRMED', 'RECEIVED_IN_CASH']);

// ---------- the server ----------

export async function startFakeAsaas(opts: FakeAsaasOptions = {}): Promise<FakeAsaas> {
  const apiKey = opts.apiKey ?? `$aact_fake_${randomBytes(16).toString('hex')}`;
  const webhookToken = opts.webhookToken ?? randomBytes(24).toString('hex');
  const attempts = Math.max(1, opts.webhookAttempts ?? 3);
  const backoffMs = opts.webhookBackoffMs ?? 20;
  const timeoutMs = opts.webhookTimeoutMs ?? 5000;
  const firstPaymentOnCreate = opts.firstPaymentOnCreate ?? true;

  const state: FakeAsaas['state'] = {
    customers: new Map(),
    payments: new Map(),
    subscriptions: new Map(),
    authorizations: new Map(),
    refunds: [],
    events: [],
  };
  const calls: FakeAsaas['calls'] = [];
  /** where the hosted page sends the payer after paying (not part of Asaas's payment object) */
  const callbacks = new Map<string, { successUrl?: string; autoRedirect?: boolean }>();
  /** the Pix code of each payment, made once (not part of Asaas's payment object) */
  const pixCodes = new Map<string, string>();
  const pixCodeOf = (p: any): string => {
    let code = pixCodes.get(p.id);
    if (!code) pixCodes.set(p.id, (code = pixPayload(p.value, p.id.replace(/^pay_/, '').padEnd(25, '0'))));
    return code;
  };
  let invoiceSeq = 0;
  let origin = '';
  let refundsHeld = false;
  let closed = false;

  // ----- webhooks -----
  let targets: string[] = [];
  let rr = 0;
  let loseNext = 0;
  let duplicateNext = 0;
  let holding = false;
  let delayMs = 0;
  let failing = 0;
  const deliveries: WebhookDelivery[] = [];
  const held: Array<{ event: any; copies: number }> = [];
  const queue: Array<{ event: any; copies: number }> = [];
  let pumping = false;
  let flushWaiters: Array<() => void> = [];
  const outgoing = new Set<http.ClientRequest>();

  function emit(event: string, key: 'payment' | 'authorization', object: any): void {
    const e = { id: `evt_${randomUUID()}`, event, dateCreated: nowText(), [key]: structuredClone(object) };
    state.events.push(e);
    if (loseNext > 0) {
      loseNext--;
      return;
    }
    let copies = 1;
    if (duplicateNext > 0) {
      duplicateNext--;
      copies = 2;
    }
    if (holding) held.push({ event: e, copies });
    else {
      queue.push({ event: e, copies });
      setImmediate(pump);
    }
  }

  function idle(): boolean {
    return !pumping && (queue.length === 0 || targets.length === 0 || closed);
  }
  function settleFlush(): void {
    if (!idle()) return;
    const waiters = flushWaiters;
    flushWaiters = [];
    for (const w of waiters) w();
  }

  async function pump(): Promise<void> {
    if (pumping) return;
    pumping = true;
    try {
      while (queue.length > 0 && targets.length > 0 && !closed) {
        const item = queue.shift()!;
        if (delayMs > 0) await sleep(delayMs);
        await Promise.all(Array.from({ length: item.copies }, () => deliver(item.event)));
      }
    } finally {
      pumping = false;
      settleFlush();
    }
  }

  async function deliver(event: any): Promise<void> {
    const body = JSON.stringify(event);
    for (let attempt = 1; attempt <= attempts && !closed && targets.length > 0; attempt++) {
      const url = targets[rr++ % targets.length] as string;
      const status = await post(url, body);
      deliveries.push({ eventId: event.id, event: event.event, url, status, attempt });
      if (status >= 200 && status < 300) return;
      failing++;
      if (attempt < attempts) await sleep(backoffMs * 2 ** (attempt - 1));
    }
  }

  function post(url: string, body: string): Promise<number> {
    return new Promise((resolve) => {
      let done = false;
      const finish = (status: number) => {
        if (done) return;
        done = true;
        outgoing.delete(req);
        resolve(status);
      };
      const mod = url.startsWith('https:') ? https : http;
      const req = mod.request(url, {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
          'asaas-access-token': webhookToken,
          'user-agent': 'Asaas_Fake/3.0',
          connection: 'close',
        },
        timeout: timeoutMs,
      });
      let answered = 0;
      outgoing.add(req);
      req.on('response', (res) => {
        answered = res.statusCode ?? 0;
        res.resume();
        res.on('end', () => finish(answered));
        res.on('error', () => finish(answered));
      });
      req.on('timeout', () => req.destroy(new Error('timeout')));
      req.on('error', () => finish(answered));
      req.on('close', () => finish(answered));
      req.end(body);
    });
  }

  // ----- failures -----
  const rules: Array<Required<Pick<FailRule, 'times'>> & FailRule> = [];
  const hung = new Set<http.ServerResponse>();

  function takeRule(method: string, path: string): FailRule | undefined {
    const i = rules.findIndex(
      (r) =>
        (!r.method || r.method.toUpperCase() === method) &&
        (r.path === undefined || (typeof r.path === 'string' ? r.path === path : r.path.test(path))),
    );
    if (i < 0) return undefined;
    const rule = rules[i]!;
    if (--rule.times <= 0) rules.splice(i, 1);
    return rule;
  }

  // ----- objects -----
  function customerOf(id: unknown): any {
    const c = typeof id === 'string' ? state.customers.get(id) : undefined;
    if (!c || c.deleted) throw bad('invalid_customer', 'Cliente inválido ou não informado.');
    return c;
  }

  function money(v: unknown, field = 'value'): number {
    const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isFinite(n) || n <= 0)
      throw bad(`invalid_${field}`, `O campo ${field} deve ser um valor maior que zero.`);
    return round2(n);
  }

  function newPayment(
    p: {
      customer: string;
      billingType: string;
      value: number;
      dueDate: string;
      description?: unknown;
      externalReference?: unknown;
      subscription?: string | null;
    },
    extra: Record<string, unknown> = {},
  ): any {
    const id = newId('pay_');
    const payment: any = {
      object: 'payment',
      id,
      dateCreated: today(),
      customer: p.customer,
      subscription: p.subscription ?? null,
      installment: null,
      paymentLink: null,
      value: p.value,
      netValue: round2(Math.max(0, p.value - 0.99)),
      originalValue: null,
      interestValue: null,
      description: typeof p.description === 'string' ? p.description : null,
      billingType: p.billingType,
      canBePaidAfterDueDate: true,
      pixTransaction: null,
      pixQrCodeId: null,
      status: 'PENDING',
      dueDate: p.dueDate,
      originalDueDate: p.dueDate,
      paymentDate: null,
      clientPaymentDate: null,
      confirmedDate: null,
      creditDate: null,
      estimatedCreditDate: null,
      installmentNumber: null,
      invoiceUrl: `${origin}/i/${id}`,
      invoiceNumber: String(++invoiceSeq).padStart(8, '0'),
      externalReference: typeof p.externalReference === 'string' ? p.externalReference : null,
      deleted: false,
      anticipated: false,
      anticipable: false,
      transactionReceiptUrl: null,
      nossoNumero: null,
      bankSlipUrl: p.billingType === 'BOLETO' ? `${origin}/i/${id}` : null,
      lastInvoiceViewedDate: null,
      lastBankSlipViewedDate: null,
      discount: { value: 0, limitDate: null, dueDateLimitDays: 0, type: 'FIXED' },
      fine: { value: 0, type: 'FIXED' },
      interest: { value: 0, type: 'PERCENTAGE' },
      postalService: false,
      custody: null,
      escrow: null,
      refunds: null,
      creditCard: null,
      chargeback: null,
      ...extra,
    };
    state.payments.set(id, payment);
    emit('PAYMENT_CREATED', 'payment', payment);
    return payment;
  }

  function paymentOf(id: string): any {
    const p = state.payments.get(id);
    if (!p) throw new Error(`fake-asaas: no payment ${id}`);
    return p;
  }

  function payNow(
    p: any,
    o: { date?: string; billingType?: string; confirmOnly?: boolean; card?: { number: string } } = {},
  ): void {
    const date = o.date ?? today();
    if (p.deleted) throw new Error(`fake-asaas: payment ${p.id} is deleted`);
    if (p.status === 'CONFIRMED' && p.billingType === 'CREDIT_CARD') {
      p.status = 'RECEIVED';
      p.paymentDate = date;
      p.creditDate = date;
      emit('PAYMENT_RECEIVED', 'payment', p);
      return;
    }
    if (p.status !== 'PENDING' && p.status !== 'OVERDUE')
      throw new Error(`fake-asaas: payment ${p.id} is ${p.status}, not payable`);
    if (p.billingType === 'UNDEFINED') p.billingType = o.billingType ?? 'PIX';
    p.clientPaymentDate = date;
    if (p.billingType === 'CREDIT_CARD') {
      const number = o.card?.number ?? '4111111111111111';
      p.creditCard ??= {
        creditCardNumber: number.slice(-4),
        creditCardBrand: cardBrand(number),
        creditCardToken: randomUUID(),
      };
      const s = p.subscription ? state.subscriptions.get(p.subscription) : undefined;
      if (s && !s.creditCard) s.creditCard = { ...p.creditCard };
      p.status = 'CONFIRMED';
      p.confirmedDate = date;
      p.estimatedCreditDate = addDays(date, 30);
      emit('PAYMENT_CONFIRMED', 'payment', p);
      if (o.confirmOnly) return;
      p.status = 'RECEIVED';
      p.paymentDate = date;
      p.creditDate = date;
      emit('PAYMENT_RECEIVED', 'payment', p);
      return;
    }
    if (p.billingType === 'PIX') p.pixTransaction = randomUUID();
    p.status = 'RECEIVED';
    p.paymentDate = date;
    p.creditDate = date;
    p.estimatedCreditDate = date;
    emit('PAYMENT_RECEIVED', 'payment', p);
  }

  function makeOverdue(p: any): void {
    if (p.deleted || p.status !== 'PENDING') throw new Error(`fake-asaas: payment ${p.id} is ${p.status}, not pending`);
    p.status = 'OVERDUE';
    emit('PAYMENT_OVERDUE', 'payment', p);
  }

  /** The subscription's next payment, due nextDueDate; nextDueDate moves one cycle on. */
  function nextOfSubscription(s: any): any {
    const p = newPayment(
      {
        customer: s.customer,
        billingType: s.billingType,
        value: s.value,
        dueDate: s.nextDueDate,
        description: s.description,
        externalReference: s.externalReference,
        subscription: s.id,
      },
      {
        ...(s.pixAutomaticAuthorizationId ? { pixAutomaticAuthorizationId: s.pixAutomaticAuthorizationId } : {}),
        ...(s.creditCard ? { creditCard: { ...s.creditCard } } : {}),
      },
    );
    s.nextDueDate = (CYCLES[s.cycle] ?? CYCLES.MONTHLY!)(s.nextDueDate);
    return p;
  }

  function newSubscription(b: any, extra: Record<string, unknown> = {}): any {
    const customer = customerOf(b.customer);
    const billingType = b.billingType;
    if (!['PIX', 'CREDIT_CARD', 'BOLETO', 'UNDEFINED'].includes(billingType))
      throw bad('invalid_billingType', 'Forma de pagamento inválida.');
    const value = money(b.value);
    if (!validDay(b.nextDueDate)) throw bad('invalid_nextDueDate', 'Data do próximo vencimento inválida.');
    if (!CYCLES[b.cycle]) throw bad('invalid_cycle', 'Periodicidade inválida.');
    if (b.endDate != null && !validDay(b.endDate)) throw bad('invalid_endDate', 'Data de término inválida.');
    const token = typeof b.creditCardToken === 'string' && b.creditCardToken ? b.creditCardToken : null;
    const card = b.creditCard?.number ? digitsOf(b.creditCard.number) : null;
    if (card && REFUSED_CARDS.has(card))
      throw bad('invalid_creditCard', 'Transação não autorizada. Verifique os dados do cartão de crédito.');
    const s: any = {
      object: 'subscription',
      id: newId('sub_'),
      dateCreated: today(),
      customer: customer.id,
      paymentLink: null,
      billingType,
      cycle: b.cycle,
      value,
      nextDueDate: b.nextDueDate,
      endDate: b.endDate ?? null,
      description: typeof b.description === 'string' ? b.description : null,
      status: 'ACTIVE',
      discount: { value: 0, limitDate: null, dueDateLimitDays: 0, type: 'FIXED' },
      fine: { value: 0, type: 'FIXED' },
      interest: { value: 0, type: 'PERCENTAGE' },
      deleted: false,
      maxPayments: typeof b.maxPayments === 'number' ? b.maxPayments : null,
      externalReference: typeof b.externalReference === 'string' ? b.externalReference : null,
      ...extra,
    };
    if (billingType === 'CREDIT_CARD' && (token || card)) {
      const number = card ?? '4111111111111111';
      s.creditCard = {
        creditCardNumber: number.slice(-4),
        creditCardBrand: cardBrand(number),
        creditCardToken: token ?? randomUUID(),
      };
    }
    state.subscriptions.set(s.id, s);
    if (firstPaymentOnCreate) {
      const first = nextOfSubscription(s);
      if (s.creditCard && first.dueDate <= today()) payNow(first);
    }
    return s;
  }

  function refundNow(p: any, b: any): any {
    if (p.deleted) throw notFound('Cobrança');
    if (p.status === 'REFUNDED' || p.status === 'REFUND_REQUESTED' || p.status === 'REFUND_IN_PROGRESS')
      throw bad('invalid_action', 'Esta cobrança já foi estornada.');
    if (!PAID.has(p.status)) throw bad('invalid_action', 'Só é possível estornar cobranças recebidas ou confirmadas.');
    const already = (p.refunds ?? []).reduce((sum: number, r: any) => sum + r.value, 0);
    const remaining = round2(p.value - already);
    const value = b?.value === undefined || b?.value === null ? remaining : money(b.value);
    if (value > remaining)
      throw bad('invalid_value', `O valor do estorno excede o saldo estornável de ${brl(remaining)}.`);
    const full = round2(already + value) >= p.value;
    const refund = {
      dateCreated: nowText(),
      status: full && refundsHeld ? 'PENDING' : 'DONE',
      value,
      endToEndIdentifier: null,
      description: typeof b?.description === 'string' ? b.description : null,
      effectiveDate: full && refundsHeld ? null : nowText(),
      transactionReceiptUrl: null,
      refundedSplits: [],
    };
    p.refunds = [...(p.refunds ?? []), refund];
    state.refunds.push({ paymentId: p.id, value });
    if (!full) emit('PAYMENT_PARTIALLY_REFUNDED', 'payment', p);
    else if (refundsHeld) p.status = 'REFUND_REQUESTED';
    else {
      p.status = 'REFUNDED';
      emit('PAYMENT_REFUNDED', 'payment', p);
    }
    return p;
  }

  function deletePayment(p: any): void {
    p.deleted = true;
    emit('PAYMENT_DELETED', 'payment', p);
  }

  // ----- Pix Automático -----
  function authorizationOf(id: string): any {
    const a = state.authorizations.get(id);
    if (!a) throw new Error(`fake-asaas: no authorization ${id}`);
    return a;
  }
  function setAuthorization(a: any, status: string, event: string): void {
    a.status = status;
    emit(event, 'authorization', a);
  }

  async function createAuthorization(b: any): Promise<any> {
    if (!FREQUENCY_CYCLE[b.frequency]) throw bad('invalid_frequency', 'Periodicidade inválida.');
    if (typeof b.contractId !== 'string' || !b.contractId || b.contractId.length > 35)
      throw bad('invalid_contractId', 'O identificador do contrato deve ter de 1 a 35 caracteres.');
    if (!validDay(b.startDate)) throw bad('invalid_startDate', 'Data de início inválida.');
    if (b.finishDate != null && !validDay(b.finishDate)) throw bad('invalid_finishDate', 'Data de término inválida.');
    if (typeof b.description === 'string' && b.description.length > 35)
      throw bad('invalid_description', 'A descrição deve ter no máximo 35 caracteres.');
    const customer = customerOf(b.customerId);
    const qr = b.immediateQrCode;
    if (!qr || typeof qr !== 'object') throw bad('invalid_immediateQrCode', 'Informe o QR Code imediato.');
    const originalValue = money(qr.originalValue, 'originalValue');
    const value = b.value === undefined || b.value === null ? null : money(b.value);
    const mode = b.paymentCreationMode ?? 'MANUAL';
    if (mode !== 'MANUAL' && mode !== 'SUBSCRIPTION')
      throw bad('invalid_paymentCreationMode', 'Modo de criação de cobranças inválido.');
    const id = randomUUID();
    const seconds = Number.isInteger(qr.expirationSeconds) && qr.expirationSeconds > 0 ? qr.expirationSeconds : 86_400;
    const payload = pixPayload(originalValue, randomUUID().replace(/-/g, ''), id.replace(/-/g, ''));
    const a: any = {
      object: 'pixAutomaticAuthorization',
      id,
      status: 'CREATED',
      dateCreated: nowText(),
      customerId: customer.id,
      contractId: b.contractId,
      frequency: b.frequency,
      startDate: b.startDate,
      finishDate: b.finishDate ?? null,
      value,
      minLimitValue: typeof b.minLimitValue === 'number' ? b.minLimitValue : null,
      description: typeof b.description === 'string' ? b.description : null,
      paymentCreationMode: mode,
      subscriptionId: null,
      immediateQrCode: {
        conciliationIdentifier: randomBytes(16).toString('hex'),
        originalValue,
        expirationSeconds: seconds,
        expirationDate: timeFormat.format(new Date(Date.now() + seconds * 1000)).replace('T', ' '),
        description: typeof qr.description === 'string' ? qr.description : null,
        payload,
        encodedImage: await qrPng(payload),
      },
    };
    state.authorizations.set(id, a);
    emit('PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CREATED', 'authorization', a);
    return a;
  }

  function payAuthorization(a: any, date?: string): string {
    if (a.status !== 'CREATED') throw new Error(`fake-asaas: authorization ${a.id} is ${a.status}, not payable`);
    const p = newPayment(
      {
        customer: a.customerId,
        billingType: 'PIX',
        value: a.immediateQrCode.originalValue,
        dueDate: date ?? today(),
        description: a.immediateQrCode.description ?? a.description,
      },
      { pixQrCodeId: a.immediateQrCode.conciliationIdentifier },
    );
    payNow(p, { date });
    if (a.paymentCreationMode === 'SUBSCRIPTION') {
      const s = newSubscription(
        {
          customer: a.customerId,
          billingType: 'PIX',
          value: a.value ?? a.immediateQrCode.originalValue,
          nextDueDate: a.startDate,
          cycle: FREQUENCY_CYCLE[a.frequency],
          description: a.description,
          endDate: a.finishDate,
        },
        { pixAutomaticAuthorizationId: a.id },
      );
      a.subscriptionId = s.id;
    }
    setAuthorization(a, 'ACTIVE', 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_ACTIVATED');
    return p.id;
  }

  // ----- lists -----
  function list(items: any[], q: URLSearchParams): any {
    const offset = Math.max(0, Number.parseInt(q.get('offset') ?? '0', 10) || 0);
    const limit = Math.min(100, Math.max(1, Number.parseInt(q.get('limit') ?? '10', 10) || 10));
    const data = items.slice(offset, offset + limit);
    return {
      object: 'list',
      hasMore: offset + data.length < items.length,
      totalCount: items.length,
      limit,
      offset,
      data,
    };
  }
  const newestFirst = (m: Map<string, any>) => [...m.values()].reverse();
  const eq = (q: URLSearchParams, key: string, v: unknown) => !q.has(key) || q.get(key) === v;
  const range = (q: URLSearchParams, key: string, v: string | null) =>
    (!q.has(`${key}[ge]`) || (v !== null && v.slice(0, 10) >= (q.get(`${key}[ge]`) as string))) &&
    (!q.has(`${key}[le]`) || (v !== null && v.slice(0, 10) <= (q.get(`${key}[le]`) as string)));

  // ----- the API -----
  async function api(method: string, path: string, q: URLSearchParams, b: any): Promise<{ status: number; body: any }> {
    const seg = path.split('/').filter(Boolean);
    const ok = (body: any) => ({ status: 200, body });
    const [root, id, sub] = seg;

    if (root === 'customers') {
      if (method === 'POST' && seg.length === 1) {
        if (typeof b?.name !== 'string' || !b.name.trim())
          throw bad('invalid_name', 'O nome do cliente é obrigatório.');
        const doc = digitsOf(b.cpfCnpj);
        if (!doc) throw bad('invalid_cpfCnpj', 'O CPF/CNPJ do cliente é obrigatório.');
        if (!(doc.length === 11 ? validCpf(doc) : validCnpj(doc)))
          throw bad('invalid_cpfCnpj', 'O CPF/CNPJ informado é inválido.');
        const c = {
          object: 'customer',
          id: newId('cus_'),
          dateCreated: today(),
          name: b.name.trim(),
          email: b.email ?? null,
          phone: b.phone ?? null,
          mobilePhone: b.mobilePhone ?? null,
          address: b.address ?? null,
          addressNumber: b.addressNumber ?? null,
          complement: b.complement ?? null,
          province: b.province ?? null,
          postalCode: b.postalCode ?? null,
          cpfCnpj: doc,
          personType: doc.length === 11 ? 'FISICA' : 'JURIDICA',
          deleted: false,
          additionalEmails: b.additionalEmails ?? null,
          externalReference: b.externalReference ?? null,
          notificationDisabled: b.notificationDisabled === true,
          observations: b.observations ?? null,
          foreignCustomer: false,
        };
        state.customers.set(c.id, c);
        return ok(c);
      }
      if (method === 'GET' && seg.length === 1) {
        const doc = q.has('cpfCnpj') ? digitsOf(q.get('cpfCnpj')) : null;
        const items = newestFirst(state.customers).filter(
          (c) =>
            !c.deleted &&
            (doc === null || c.cpfCnpj === doc) &&
            eq(q, 'email', c.email) &&
            eq(q, 'externalReference', c.externalReference) &&
            (!q.has('name') ||
              String(c.name)
                .toLowerCase()
                .includes(String(q.get('name')).toLowerCase())),
        );
        return ok(list(items, q));
      }
      if (method === 'GET' && seg.length === 2) {
        const c = state.customers.get(id as string);
        if (!c) throw notFound('Cliente');
        return ok(c);
      }
    }

    if (root === 'payments') {
      if (method === 'POST' && seg.length === 1) {
        const customer = customerOf(b?.customer);
        if (!['PIX', 'CREDIT_CARD', 'BOLETO', 'UNDEFINED'].includes(b?.billingType))
          throw bad('invalid_billingType', 'Forma de pagamento inválida.');
        const value = money(b.value);
        if (!validDay(b.dueDate)) throw bad('invalid_dueDate', 'Data de vencimento inválida.');
        if (b.dueDate < today()) throw bad('invalid_dueDate', 'Não é permitido data de vencimento inferior a hoje.');
        if (typeof b.description === 'string' && b.description.length > 500)
          throw bad('invalid_description', 'A descrição deve ter no máximo 500 caracteres.');
        let authorization: any;
        if (b.pixAutomaticAuthorizationId != null) {
          authorization = state.authorizations.get(String(b.pixAutomaticAuthorizationId));
          if (authorization?.status !== 'ACTIVE' || authorization.customerId !== customer.id)
            throw bad('invalid_pixAutomaticAuthorizationId', 'Autorização de Pix Automático inválida ou inativa.');
          if (b.billingType !== 'PIX')
            throw bad('invalid_billingType', 'Pix Automático exige a forma de pagamento PIX.');
        }
        const callback = b.callback;
        if (callback != null && (typeof callback !== 'object' || typeof callback.successUrl !== 'string'))
          throw bad('invalid_callback', 'Informe a URL de sucesso do redirecionamento.');
        const p = newPayment(
          {
            customer: customer.id,
            billingType: b.billingType,
            value,
            dueDate: b.dueDate,
            description: b.description,
            externalReference: b.externalReference,
          },
          authorization ? { pixAutomaticAuthorizationId: authorization.id } : {},
        );
        if (callback) callbacks.set(p.id, { successUrl: callback.successUrl, autoRedirect: callback.autoRedirect });
        return ok(p);
      }
      if (method === 'GET' && seg.length === 1) {
        const items = newestFirst(state.payments).filter(
          (p) =>
            !p.deleted &&
            eq(q, 'externalReference', p.externalReference) &&
            eq(q, 'status', p.status) &&
            eq(q, 'customer', p.customer) &&
            eq(q, 'subscription', p.subscription) &&
            eq(q, 'billingType', p.billingType) &&
            eq(q, 'pixQrCodeId', p.pixQrCodeId) &&
            range(q, 'paymentDate', p.paymentDate) &&
            range(q, 'dateCreated', p.dateCreated) &&
            range(q, 'dueDate', p.dueDate),
        );
        return ok(list(items, q));
      }
      const p = state.payments.get(id as string);
      if (!p) throw notFound('Cobrança');
      if (method === 'GET' && seg.length === 2) return ok(p);
      if (p.deleted) throw notFound('Cobrança');
      if (method === 'GET' && sub === 'pixQrCode' && seg.length === 3) {
        if (p.billingType === 'CREDIT_CARD')
          throw bad('invalid_billingType', 'Não é possível gerar QR Code Pix para cobranças de cartão de crédito.');
        const payload = pixCodeOf(p);
        return ok({
          success: true,
          encodedImage: await qrPng(payload),
          payload,
          expirationDate: `${addDays(p.dueDate, 365)} 23:59:59`,
          description: p.description,
        });
      }
      if (method === 'POST' && sub === 'refund' && seg.length === 3) return ok(refundNow(p, b));
      if (method === 'DELETE' && seg.length === 2) {
        if (p.status !== 'PENDING' && p.status !== 'OVERDUE')
          throw bad('invalid_action', 'Não é possível remover uma cobrança recebida, confirmada ou estornada.');
        deletePayment(p);
        return ok({ deleted: true, id: p.id });
      }
    }

    if (root === 'subscriptions') {
      if (method === 'POST' && seg.length === 1) return ok(newSubscription(b ?? {}));
      if (method === 'GET' && seg.length === 1) {
        const items = newestFirst(state.subscriptions).filter(
          (s) =>
            !s.deleted &&
            eq(q, 'customer', s.customer) &&
            eq(q, 'externalReference', s.externalReference) &&
            eq(q, 'status', s.status) &&
            eq(q, 'billingType', s.billingType),
        );
        return ok(list(items, q));
      }
      const s = state.subscriptions.get(id as string);
      if (!s) throw notFound('Assinatura');
      if (method === 'GET' && seg.length === 2) return ok(s);
      if (method === 'GET' && sub === 'payments' && seg.length === 3) {
        const items = newestFirst(state.payments).filter(
          (p) => p.subscription === s.id && !p.deleted && eq(q, 'status', p.status),
        );
        return ok(list(items, q));
      }
      if (s.deleted) throw notFound('Assinatura');
      if (method === 'POST' && seg.length === 2) {
        const u = b ?? {};
        if (u.value !== undefined) s.value = money(u.value);
        if (u.nextDueDate !== undefined) {
          if (!validDay(u.nextDueDate)) throw bad('invalid_nextDueDate', 'Data do próximo vencimento inválida.');
          s.nextDueDate = u.nextDueDate;
        }
        if (u.endDate !== undefined) {
          if (u.endDate !== null && !validDay(u.endDate)) throw bad('invalid_endDate', 'Data de término inválida.');
          s.endDate = u.endDate;
        }
        if (u.status !== undefined) {
          if (u.status !== 'ACTIVE' && u.status !== 'INACTIVE') throw bad('invalid_status', 'Situação inválida.');
          s.status = u.status;
        }
        if (u.cycle !== undefined) {
          if (!CYCLES[u.cycle]) throw bad('invalid_cycle', 'Periodicidade inválida.');
          s.cycle = u.cycle;
        }
        if (u.billingType !== undefined) {
          if (!['PIX', 'CREDIT_CARD', 'BOLETO', 'UNDEFINED'].includes(u.billingType))
            throw bad('invalid_billingType', 'Forma de pagamento inválida.');
          s.billingType = u.billingType;
        }
        if (typeof u.description === 'string') s.description = u.description;
        if (typeof u.externalReference === 'string') s.externalReference = u.externalReference;
        if (typeof u.creditCardToken === 'string' && u.creditCardToken)
          s.creditCard = {
            creditCardNumber: s.creditCard?.creditCardNumber ?? '1111',
            creditCardBrand: s.creditCard?.creditCardBrand ?? 'VISA',
            creditCardToken: u.creditCardToken,
          };
        if (u.updatePendingPayments === true)
          for (const p of state.payments.values())
            if (p.subscription === s.id && !p.deleted && p.status === 'PENDING') {
              p.value = s.value;
              p.netValue = round2(Math.max(0, s.value - 0.99));
              p.billingType = s.billingType;
              emit('PAYMENT_UPDATED', 'payment', p);
            }
        return ok(s);
      }
      if (method === 'DELETE' && seg.length === 2) {
        s.deleted = true;
        s.status = 'INACTIVE';
        for (const p of state.payments.values())
          if (p.subscription === s.id && !p.deleted && (p.status === 'PENDING' || p.status === 'OVERDUE'))
            deletePayment(p);
        return ok({ deleted: true, id: s.id });
      }
    }

    if (root === 'pix' && id === 'automatic' && sub === 'authorizations') {
      const authId = seg[3];
      if (method === 'POST' && seg.length === 3) return ok(await createAuthorization(b ?? {}));
      if (method === 'GET' && seg.length === 3) {
        const items = newestFirst(state.authorizations).filter(
          (a) => eq(q, 'status', a.status) && eq(q, 'customerId', a.customerId),
        );
        return ok(list(items, q));
      }
      const a = state.authorizations.get(authId as string);
      if (!a) throw notFound('Autorização');
      if (method === 'GET' && seg.length === 4) return ok(a);
      if (method === 'DELETE' && seg.length === 4) {
        if (a.status !== 'CREATED' && a.status !== 'ACTIVE')
          throw bad('invalid_action', 'Esta autorização não pode ser cancelada.');
        setAuthorization(a, 'CANCELLED', 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED');
        return ok(a);
      }
    }

    throw new ApiError(404, 'not_found', 'Recurso não encontrado.');
  }

  // ----- the hosted invoice page -----
  function page(res: http.ServerResponse, status: number, title: string, body: string): void {
    const html =
      `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>${esc(title)}</title></head>` +
      `<body><main><h1>${esc(title)}</h1>${body}</main></body></html>`;
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(html);
  }

  function paidAnswer(res: http.ServerResponse, p: any) {
    const cb = callbacks.get(p.id);
    if (cb?.successUrl && cb.autoRedirect !== false) {
      res.writeHead(303, { location: cb.successUrl });
      res.end();
      return;
    }
    const back = cb?.successUrl ? `<p><a href="${esc(cb.successUrl)}">Voltar ao site</a></p>` : '';
    page(res, 200, 'Pagamento confirmado', `<p>Recebemos o pagamento de ${esc(brl(p.value))}.</p>${back}`);
  }

  function cardForm(p: any, error?: string, holder = ''): string {
    return (
      (error ? `<p role="alert">${esc(error)}</p>` : '') +
      `<form method="post" action="/i/${esc(p.id)}/cartao">` +
      `<label>Nome impresso no cartão <input name="holderName" value="${esc(holder)}" autocomplete="cc-name"></label>` +
      '<label>Número do cartão <input name="number" inputmode="numeric" autocomplete="cc-number"></label>' +
      '<label>Validade (MM/AAAA) <input name="expiry" autocomplete="cc-exp"></label>' +
      '<label>CVV <input name="ccv" inputmode="numeric" autocomplete="cc-csc"></label>' +
      '<button type="submit">Pagar com cartão</button></form>'
    );
  }

  function invoice(res: http.ServerResponse, p: any, error?: string, holder?: string, status = 200) {
    if (p.deleted) return page(res, 410, 'Cobrança removida', '<p>Esta cobrança foi removida.</p>');
    if (PAID.has(p.status)) return paidAnswer(res, p);
    if (p.status !== 'PENDING' && p.status !== 'OVERDUE')
      return page(res, 409, 'Cobrança indisponível', `<p>Situação: ${esc(p.status)}.</p>`);
    const head =
      `<p>Valor: ${esc(brl(p.value))}</p><p>Vencimento: ${esc(brDay(p.dueDate))}</p>` +
      (p.description ? `<p>${esc(p.description)}</p>` : '');
    let body = head;
    if (p.billingType !== 'CREDIT_CARD') {
      body +=
        '<section><h2>Pix</h2><label>Pix copia e cola ' +
        `<textarea readonly rows="4" cols="60">${esc(pixCodeOf(p))}</textarea></label>` +
        `<form method="post" action="/i/${esc(p.id)}/pix"><button type="submit">Simular pagamento Pix</button></form>` +
        '</section>';
    }
    if (p.billingType === 'CREDIT_CARD' || p.billingType === 'UNDEFINED')
      body += `<section><h2>Cartão de crédito</h2>${cardForm(p, error, holder)}</section>`;
    page(res, status, `Fatura ${p.invoiceNumber}`, body);
  }

  function invoicePost(res: http.ServerResponse, p: any, action: string, form: URLSearchParams) {
    if (p.deleted || !(p.status === 'PENDING' || p.status === 'OVERDUE')) return invoice(res, p);
    if (action === 'pix') {
      if (p.billingType === 'CREDIT_CARD') return invoice(res, p, 'Esta cobrança é paga com cartão.', '', 422);
      payNow(p, { billingType: 'PIX' });
      return paidAnswer(res, p);
    }
    if (p.billingType !== 'CREDIT_CARD' && p.billingType !== 'UNDEFINED')
      return invoice(res, p, 'Esta cobrança não aceita cartão.', '', 422);
    const holder = (form.get('holderName') ?? '').trim();
    const number = digitsOf(form.get('number') ?? '');
    const expiry = (form.get('expiry') ?? '').trim();
    const ccv = digitsOf(form.get('ccv') ?? '');
    const m = /^(\d{2})\/(\d{2}|\d{4})$/.exec(expiry);
    const year = m ? Number(m[2]!.length === 2 ? `20${m[2]}` : m[2]) : 0;
    const month = m ? Number(m[1]) : 0;
    const [ty, tm] = today().split('-').map(Number) as [number, number];
    let error: string | undefined;
    if (holder.length < 2) error = 'Informe o nome impresso no cartão.';
    else if (number.length < 13 || number.length > 19) error = 'Número do cartão inválido.';
    else if (!m || month < 1 || month > 12 || year < ty || (year === ty && month < tm)) error = 'Validade inválida.';
    else if (ccv.length < 3 || ccv.length > 4) error = 'CVV inválido.';
    if (error) return invoice(res, p, error, holder, 422);
    if (REFUSED_CARDS.has(number)) {
      emit('PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', 'payment', p);
      return invoice(res, p, 'Pagamento não autorizado pela operadora do cartão.', holder, 422);
    }
    p.billingType = 'CREDIT_CARD';
    payNow(p, { card: { number } });
    paidAnswer(res, p);
  }

  // ----- HTTP -----
  function readBody(req: http.IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      req.on('error', reject);
    });
  }

  function json(res: http.ServerResponse, status: number, body: any, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(text);
  }

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const method = (req.method ?? 'GET').toUpperCase();
    const raw = await readBody(req);

    const pageMatch = /^\/i\/([^/]+)(?:\/(cartao|pix))?$/.exec(url.pathname);
    if (pageMatch) {
      const p = state.payments.get(decodeURIComponent(pageMatch[1]!));
      if (!p) return page(res, 404, 'Cobrança não encontrada', '<p>Confira o endereço.</p>');
      if (method === 'GET' && !pageMatch[2]) return invoice(res, p);
      if (method === 'POST' && pageMatch[2]) return invoicePost(res, p, pageMatch[2], new URLSearchParams(raw));
      return page(res, 405, 'Método não permitido', '');
    }

    if (url.pathname !== '/v3' && !url.pathname.startsWith('/v3/')) return json(res, 404, notFoundBody());
    const path = url.pathname.slice(3) || '/';
    const query = Object.fromEntries(url.searchParams);
    let body: any = null;
    if (raw) {
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
    }
    const call = { method, path, query, body, status: 0 };
    calls.push(call);
    const answer = (status: number, b: any, headers?: Record<string, string>) => {
      call.status = status;
      json(res, status, b, headers);
    };

    if (req.headers.access_token !== apiKey)
      return answer(401, {
        errors: [{ code: 'invalid_access_token', description: 'A chave de API fornecida é inválida.' }],
      });

    const rule = takeRule(method, path);
    if (rule?.hang) {
      hung.add(res);
      return;
    }
    if (rule && !rule.applyThenHang) {
      const status = rule.status ?? 500;
      const headers: Record<string, string> = {};
      if (rule.retryAfter !== undefined) headers['retry-after'] = String(rule.retryAfter);
      return answer(
        status,
        { errors: [{ code: 'fake_failure', description: `Falha simulada (${status}).` }] },
        headers,
      );
    }
    if (raw && typeof body === 'string')
      return answer(400, {
        errors: [{ code: 'invalid_json', description: 'O corpo da requisição não é JSON válido.' }],
      });

    let result: { status: number; body: any };
    try {
      result = await api(method, path, url.searchParams, body);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      result = { status: err.status, body: { errors: [{ code: err.code, description: err.message }] } };
    }
    if (rule?.applyThenHang) {
      hung.add(res);
      return;
    }
    answer(result.status, result.body);
  }

  const notFoundBody = () => ({ errors: [{ code: 'not_found', description: 'Recurso não encontrado.' }] });

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (res.headersSent) return res.destroy();
      json(res, 500, { errors: [{ code: 'fake_error', description: String((err as Error)?.message ?? err) }] });
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;

  const fake: FakeAsaas = {
    url: `${origin}/v3`,
    apiKey,
    webhookToken,
    setWebhookTargets(urls) {
      targets = [...urls];
      rr = 0;
      setImmediate(pump);
      settleFlush();
    },
    failNext(rule) {
      rules.push({ ...rule, times: rule.times ?? 1 });
    },
    webhooks: {
      lose(n = 1) {
        loseNext += n;
      },
      duplicate(n = 1) {
        duplicateNext += n;
      },
      hold() {
        holding = true;
      },
      async release(o = {}) {
        holding = false;
        const items = held.splice(0);
        if (o.reverse) items.reverse();
        queue.push(...items);
        setImmediate(pump);
        await fake.webhooks.flush();
      },
      delay(ms) {
        delayMs = ms;
      },
      get failing() {
        return failing;
      },
      deliveries,
      flush() {
        return new Promise<void>((resolve) => {
          flushWaiters.push(resolve);
          // a pump scheduled by setImmediate may not have started yet
          setImmediate(settleFlush);
        });
      },
    },
    async pay(paymentId, o = {}) {
      payNow(paymentOf(paymentId), o);
    },
    async overdue(paymentId) {
      makeOverdue(paymentOf(paymentId));
    },
    async chargeback(paymentId) {
      const p = paymentOf(paymentId);
      if (!PAID.has(p.status)) throw new Error(`fake-asaas: payment ${p.id} is ${p.status}, not paid`);
      p.status = 'CHARGEBACK_REQUESTED';
      p.chargeback = { status: 'REQUESTED', reason: 'PROCESS_ERROR' };
      emit('PAYMENT_CHARGEBACK_REQUESTED', 'payment', p);
    },
    async renew(subscriptionId, o = {}) {
      const s = state.subscriptions.get(subscriptionId);
      if (!s || s.deleted || s.status !== 'ACTIVE')
        throw new Error(`fake-asaas: subscription ${subscriptionId} is not active`);
      if (s.endDate && s.nextDueDate > s.endDate)
        throw new Error(`fake-asaas: subscription ${subscriptionId} ended on ${s.endDate}`);
      const p = nextOfSubscription(s);
      const automatic = s.billingType === 'CREDIT_CARD' || !!s.pixAutomaticAuthorizationId;
      if (o.fail) {
        if (s.billingType === 'CREDIT_CARD') emit('PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', 'payment', p);
        makeOverdue(p);
      } else if (automatic) payNow(p);
      return p.id;
    },
    holdRefunds(on = true) {
      refundsHeld = on;
    },
    async completeRefund(paymentId) {
      const p = paymentOf(paymentId);
      if (p.status !== 'REFUND_REQUESTED') throw new Error(`fake-asaas: payment ${p.id} is ${p.status}`);
      p.status = 'REFUNDED';
      for (const r of p.refunds ?? []) if (r.status === 'PENDING') (r.status = 'DONE'), (r.effectiveDate = nowText());
      emit('PAYMENT_REFUNDED', 'payment', p);
    },
    pixAutomatic: {
      async pay(authorizationId, o = {}) {
        return payAuthorization(authorizationOf(authorizationId), o.date);
      },
      async refuse(authorizationId) {
        const a = authorizationOf(authorizationId);
        if (a.status !== 'CREATED') throw new Error(`fake-asaas: authorization ${a.id} is ${a.status}`);
        setAuthorization(a, 'REFUSED', 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_REFUSED');
      },
      async cancelByPayer(authorizationId) {
        const a = authorizationOf(authorizationId);
        if (a.status !== 'ACTIVE') throw new Error(`fake-asaas: authorization ${a.id} is ${a.status}`);
        setAuthorization(a, 'CANCELLED', 'PIX_AUTOMATIC_RECURRING_AUTHORIZATION_CANCELLED');
      },
    },
    state,
    calls,
    async close() {
      if (closed) return;
      closed = true;
      for (const req of outgoing) req.destroy();
      for (const res of hung) res.destroy();
      hung.clear();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      settleFlush();
    },
  };
  return fake;
}

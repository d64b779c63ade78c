// Online enrolment through the public pages, for tests: the unit and plan sold online, a
// person's form data, the steps data form → summary → acceptance (in the app, or through a
// cluster's proxy), "Minha matrícula", staff on the enrolments' list, and the app paid through
// the fake Asaas.
import type { AddressInfo } from 'node:net';
import type { Insertable, Updateable } from 'kysely';
import { expect } from 'vitest';
import type { App } from '../../src/app';
import type { Db } from '../../src/db/index';
import type { MatriculasTable, PlanosUnidadesTable } from '../../src/db/types';
import { createTestApp, type TestContext } from './app';
import { responseCookies } from './cluster';
import { validCpf } from './cpf';
import type { FakeAsaas } from './fake-asaas';
import { cookiesFrom, fetchForm, form } from './http';
import { onlineOffers } from './offers';
import { createStaffUser, loginAs, staffToken } from './staff';

type Fields = Record<string, string>;
type Site = { app: App; db: Db };
const FORM_TYPE = 'application/x-www-form-urlencoded';

/** Mails queued, not sent (no SMTP server answers there); links in them to the public site. */
export const ENROLMENT_ENV = {
  SMTP_HOST: '127.0.0.1',
  SMTP_PORT: '2',
  SMTP_SECURE: 'none',
  PUBLIC_URL: 'https://www.exemplo.com.br',
};

/** The value of the input `name` in a page (its value right after its name); '' without one. */
export function hiddenValue(html: string, name: string): string {
  return new RegExp(`name="${name}" value="([^"]*)"`).exec(html)?.[1] ?? '';
}

/** Round prices for the arithmetic of the assertions: R$ 129,90 a month, R$ 50,00 to enrol. */
export const KNOWN_PRICES = {
  mensalidade_centavos: 12990,
  taxa_matricula_centavos: 5000,
  taxa_anual_centavos: 0,
  taxa_anual_mes: null,
};
/** The known prices with a 12-month term and a fine of 10 % of each month left. */
export const KNOWN_TERMS = { ...KNOWN_PRICES, fidelidade_meses: 12, multa_percentual: 10 };

export interface Offer {
  unitId: number;
  planId: number;
  /** `?unidade=…&plano=…` */
  query: string;
}

/** Changes the prices or terms of the offer (the enrolments already accepted keep theirs). */
type EnrolmentRow = Insertable<MatriculasTable>;

/**
 * A stored enrolment for tests that need rows without going through the pages (counts, lists,
 * retention): a R$ 99,90 plan without fees or term, paid by Pix, accepted and stored at `at`.
 * `row` names it and sets anything else.
 */
export function enrolmentRow(
  row: Pick<EnrolmentRow, 'codigo' | 'unidade_id' | 'plano_id' | 'status' | 'nome' | 'cpf' | 'email'> &
    Partial<EnrolmentRow>,
  at: string,
): EnrolmentRow {
  return {
    nascimento: '1990-01-01',
    unidade_nome: 'Unidade',
    plano_nome: 'Plano',
    razao_social: 'Academia Exemplo Ltda',
    cnpj: '11222333000181',
    endereco_juridico: 'Rua Exemplo, 1',
    mensalidade_centavos: 9990,
    taxa_matricula_centavos: 0,
    taxa_anual_centavos: 0,
    primeiro_pagamento_centavos: 9990,
    fidelidade_meses: 0,
    multa_percentual: 0,
    dia_vencimento: 10,
    contrato_versao: 1,
    contrato_texto: 'Contrato',
    contrato_sha256: '0'.repeat(64),
    aceito_em: at,
    provedor: 'pix',
    criado_em: at,
    atualizado_em: at,
    ...row,
  };
}

export async function setTerms(db: Db, offer: Offer, terms: Updateable<PlanosUnidadesTable>): Promise<void> {
  await db
    .updateTable('planos_unidades')
    .set(terms)
    .where('unidade_id', '=', offer.unitId)
    .where('plano_id', '=', offer.planId)
    .execute();
}

/** The first plan sold online at an active unit with a CNPJ, with `terms` set on it when given. */
export async function onlineOffer(db: Db, terms?: Updateable<PlanosUnidadesTable>): Promise<Offer> {
  const row = await onlineOffers(db).executeTakeFirstOrThrow();
  const offer = {
    unitId: row.unidade_id,
    planId: row.plano_id,
    query: `?unidade=${row.unidade_id}&plano=${row.plano_id}`,
  };
  if (terms) await setTerms(db, offer, terms);
  return offer;
}

/**
 * A person's data for the form: a valid CPF of its own (`cpfStart` keeps a file's series apart)
 * and an e-mail named after it at `mailbox`, with `over` on top.
 */
export function person(over: Fields = {}, options: { cpfStart?: number; mailbox?: string } = {}) {
  const cpf = validCpf(options.cpfStart);
  return {
    nome: 'Maria da Silva',
    cpf,
    nascimento: '1990-05-10',
    email: `${options.mailbox ?? 'maria'}.${cpf}@exemplo.com.br`,
    whatsapp: '(11) 98765-4321',
    ...over,
  };
}

/** Client addresses in `prefix` (two octets), a new one each call. */
export function addressSeries(prefix: string): () => string {
  let n = 0;
  return () => {
    n++;
    return `${prefix}.${Math.floor(n / 250)}.${(n % 250) + 1}`;
  };
}

/** The cookie and CSRF token of a page a form is posted from. */
export interface FormSession {
  cookie: string;
  token: string;
}

/**
 * The enrolment pages of one offer. `remoteAddress` gives each POST's client address (the
 * per-address limits, the acceptance's IP); without it they come from the default one.
 */
export function enrolmentPages(t: Site, offer: Offer, options: { remoteAddress?: () => string } = {}) {
  const flowUrl = `/matricula${offer.query}`;
  const postForm = (app: App, url: string, cookie: string, payload: string) =>
    app.inject({
      method: 'POST',
      url,
      ...(options.remoteAddress ? { remoteAddress: options.remoteAddress() } : {}),
      headers: { cookie, 'content-type': FORM_TYPE },
      payload,
    });

  /** The data form: its cookie, CSRF token and envio_id. */
  async function open() {
    const page = await fetchForm(t.app, flowUrl);
    return { cookie: page.cookie, token: page.token, envio: hiddenValue(page.res.body, 'envio_id') };
  }

  /** The data step: `data` posted to /matricula/resumo from a data form of its own. */
  async function summary(data: Fields) {
    const page = await open();
    const payload = form({ csrf_token: page.token, envio_id: page.envio, ...data });
    return { ...page, res: await postForm(t.app, `/matricula/resumo${offer.query}`, page.cookie, payload) };
  }

  /**
   * Up to the summary, which must show: the fields its acceptance posts (contract version and
   * SHA-256, "aceite") and that POST, by default of those fields to this app and offer.
   */
  async function accept(data: Fields) {
    const s = await summary(data);
    expect(s.res.statusCode).toBe(200);
    const fields: Fields = {
      csrf_token: s.token,
      envio_id: s.envio,
      ...data,
      contrato_versao: hiddenValue(s.res.body, 'contrato_versao'),
      contrato_sha256: hiddenValue(s.res.body, 'contrato_sha256'),
      aceite: 'sim',
    };
    const post = (to: { app?: App; payload?: string; query?: string } = {}) =>
      postForm(to.app ?? t.app, `/matricula${to.query ?? offer.query}`, s.cookie, to.payload ?? form(fields));
    return { summary: s.res, cookie: s.cookie, fields, post };
  }

  /** An enrolment accepted through the pages (303): its row. */
  async function enrol(data: Fields & { cpf: string }) {
    const res = await (await accept(data)).post();
    expect(res.statusCode).toBe(303);
    return t.db.selectFrom('matriculas').selectAll().where('cpf', '=', data.cpf).executeTakeFirstOrThrow();
  }

  /** Opens "Minha matrícula" with the last link queued for `email`. */
  async function openMine(email: string): Promise<FormSession> {
    const mail = await t.db
      .selectFrom('fila_emails')
      .select('texto')
      .where('destinatario', '=', email)
      .where('texto', 'like', '%/matricula/minha/entrar?token=%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const link = /\/matricula\/minha\/entrar\?token=([A-Za-z0-9_-]+)/.exec(mail.texto)![1]!;
    const page = await fetchForm(t.app, `/matricula/minha/entrar?token=${link}`);
    const res = await postForm(
      t.app,
      '/matricula/minha/entrar',
      page.cookie,
      form({ csrf_token: page.token, token: link }),
    );
    expect(res.statusCode).toBe(303);
    return { cookie: cookiesFrom(res, page.cookie), token: page.token };
  }

  /** A button's form (nothing but the CSRF token) posted to `path` from the page of `session`. */
  const press = (path: string, session: FormSession, app = t.app) =>
    postForm(app, path, session.cookie, form({ csrf_token: session.token }));

  return { flowUrl, open, summary, accept, enrol, openMine, press };
}

/**
 * Through a cluster's proxy at `baseUrl`: one browser tab up to the summary (sent with `headers`,
 * e.g. pinned to an instance), which must show; its acceptance is then posted with the headers given.
 */
export async function proxyTab(baseUrl: string, query: string, headers: Fields, data: Fields) {
  const page = await fetch(`${baseUrl}/matricula${query}`, { headers });
  const html = await page.text();
  const sent = { cookie: responseCookies(page), 'content-type': FORM_TYPE };
  const base = { csrf_token: hiddenValue(html, 'csrf_token'), envio_id: hiddenValue(html, 'envio_id'), ...data };
  const summary = await fetch(`${baseUrl}/matricula/resumo${query}`, {
    method: 'POST',
    headers: { ...headers, ...sent },
    body: new URLSearchParams(base),
  });
  const body = await summary.text();
  expect(summary.status, body.slice(0, 300)).toBe(200);
  const accept = new URLSearchParams({
    ...base,
    contrato_versao: hiddenValue(body, 'contrato_versao'),
    contrato_sha256: hiddenValue(body, 'contrato_sha256'),
    aceite: 'sim',
  });
  return (postHeaders: Fields) =>
    fetch(`${baseUrl}/matricula${query}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...postHeaders, ...sent },
      body: accept,
    });
}

/** A staff member of `papel` logged in: cookie, a CSRF token of the enrolments' list, and id. */
export async function staffSession(t: Site, papel: 'admin' | 'gerente' = 'admin', unidadeIds?: number[]) {
  const u = await createStaffUser(t.db, { papel, unidadeIds });
  const cookie = await loginAs(t.app, u.email, u.password);
  return { cookie, token: await staffToken(t.app, cookie, '/admin/matriculas'), id: u.id };
}

/** Where staff confirm that a payment of an enrolment arrived. */
export const confirmPath = (enrolmentId: number, paymentId: number) =>
  `/admin/matriculas/${enrolmentId}/pagamentos/${paymentId}/confirmar`;

/** A webhook endpoint taking the enrolment events, so each event is stored to be counted. */
export async function addEnrolmentWebhook(db: Db): Promise<void> {
  const at = new Date().toISOString();
  await db
    .insertInto('webhook_endpoints')
    .values({
      url: 'https://hooks.exemplo.com.br/matriculas',
      segredo: 'x'.repeat(40),
      eventos: ',matricula.criada,matricula.ativada,matricula.cancelada,',
      ativo: 1,
      criado_em: at,
      atualizado_em: at,
    })
    .execute();
}

/** The app paying through the fake Asaas, listening, the fake's webhooks sent to it. */
export async function asaasTestApp(fake: FakeAsaas, env: Record<string, string> = {}): Promise<TestContext> {
  const t = await createTestApp({
    env: {
      ...ENROLMENT_ENV,
      PAYMENT_PROVIDER: 'asaas',
      ASAAS_API_URL: fake.url,
      ASAAS_API_KEY: fake.apiKey,
      ASAAS_WEBHOOK_TOKEN: fake.webhookToken,
      ASAAS_TIMEOUT_MS: '400',
      ...env,
    },
  });
  try {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  } catch (err) {
    await t.close();
    throw err;
  }
  fake.setWebhookTargets([`http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/webhooks/asaas`]);
  return t;
}

/**
 * The Asaas tests' steps: an enrolment accepted for a new person (`people` keeps a file's CPFs
 * and mailbox apart), its rows, the fake's live charges, and its webhooks settled.
 */
export function asaasFlow(
  t: TestContext,
  fake: FakeAsaas,
  offer: Offer,
  people: { cpfStart: number; mailbox: string },
) {
  const pages = enrolmentPages(t, offer);
  let seq = 0;
  return {
    pages,
    /** Accepts an enrolment through the pages; its row. */
    enrol: () => pages.enrol(person({ nome: `Pessoa Asaas ${++seq}` }, people)),
    enrolment: (id: number) => t.db.selectFrom('matriculas').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    payments: (id: number) =>
      t.db.selectFrom('matriculas_pagamentos').selectAll().where('matricula_id', '=', id).orderBy('id').execute(),
    chargesOf: (reference: string) =>
      [...fake.state.payments.values()].filter((p) => p.externalReference === reference && !p.deleted),
    /** Webhooks delivered, then the stored events processed. */
    async settle(now?: Date) {
      await fake.webhooks.flush();
      while ((await t.app.paymentJobs!.processEvents(now)).claimed > 0);
    },
  };
}

/** The mails queued for `email` with a subject LIKE `subject`, oldest first. */
export function mailsTo(db: Db, email: string, subject: string) {
  return db
    .selectFrom('fila_emails')
    .select(['id', 'assunto', 'texto'])
    .where('destinatario', '=', email)
    .where('assunto', 'like', subject)
    .orderBy('id')
    .execute();
}

/** The audit rows of `action` on an enrolment. */
export function enrolmentAudit(db: Db, enrolmentId: number, action: string) {
  return db
    .selectFrom('auditoria')
    .select('id')
    .where('entidade', '=', 'matricula')
    .where('entidade_id', '=', enrolmentId)
    .where('acao', '=', action)
    .execute();
}

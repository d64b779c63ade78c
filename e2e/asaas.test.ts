// The payment page with PAYMENT_PROVIDER=asaas in Chromium, against the fake Asaas: Asaas's
// dynamic Pix and the card button on a phone, no script blocked by our CSP; paid by Pix, the
// open page turns to "ativa" by itself (payment-status.js); paid by card on Asaas's own page
// (the card number never reaches the site), the enrolment's page shows it active.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startFakeAsaas, type FakeAsaas } from '../test/helpers/fake-asaas';
import { validCpf } from '../test/helpers/cpf';
import { fetchForm, form } from '../test/helpers/http';
import { onlineOffers } from '../test/helpers/offers';
import { phoneContext, useServerAndBrowser, watchPage } from './helpers';

let fake: FakeAsaas;
const suite = useServerAndBrowser(async () => {
  fake = await startFakeAsaas();
  return {
    env: {
      PAYMENT_PROVIDER: 'asaas',
      ASAAS_API_URL: fake.url,
      ASAAS_API_KEY: fake.apiKey,
      ASAAS_WEBHOOK_TOKEN: fake.webhookToken,
    },
  };
});
afterAll(async () => {
  await fake?.close();
});

let flow = '';
beforeAll(async () => {
  fake.setWebhookTargets([`${suite.server.baseUrl}/webhooks/asaas`]);
  const offer = await onlineOffers(suite.server.db)
    .where('pu.mensalidade_centavos', 'is not', null)
    .executeTakeFirstOrThrow();
  flow = `/matricula?unidade=${offer.unidade_id}&plano=${offer.plano_id}`;
});

const hidden = (body: string, name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(body)?.[1] ?? '';

/** An enrolment accepted through the pages (by HTTP: the browser part is the payment); its code. */
async function accepted(n: number): Promise<string> {
  const app = suite.server.app;
  const page = await fetchForm(app, flow);
  const data = {
    csrf_token: page.token,
    envio_id: hidden(page.res.body, 'envio_id'),
    nome: `Pessoa do Navegador ${n}`,
    cpf: validCpf(777_000_000),
    nascimento: '1992-07-01',
    email: `navegador${n}@exemplo.com.br`,
    whatsapp: '(11) 98765-4321',
  };
  const headers = { cookie: page.cookie, 'content-type': 'application/x-www-form-urlencoded' };
  const summary = await app.inject({
    method: 'POST',
    url: flow.replace('/matricula?', '/matricula/resumo?'),
    headers,
    payload: form(data),
  });
  const res = await app.inject({
    method: 'POST',
    url: flow,
    headers,
    payload: form({
      ...data,
      aceite: 'sim',
      contrato_versao: hidden(summary.body, 'contrato_versao'),
      contrato_sha256: hidden(summary.body, 'contrato_sha256'),
    }),
  });
  expect(res.statusCode).toBe(303);
  return String(res.headers.location).split('/').pop()!;
}

/** Delivers Asaas's webhooks and processes them, as the worker of a running server does. */
async function settle() {
  await fake.webhooks.flush();
  while ((await suite.server.app.paymentJobs!.processEvents()).claimed > 0);
}

it('paid by Pix, the open payment page turns to "ativa" by itself', async () => {
  const codigo = await accepted(1);
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watched = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/matricula/${codigo}`);
  const code = page.getByLabel('Pix copia e cola', { exact: true });
  expect(await code.inputValue()).toMatch(/^000201/);
  const href = await page.getByRole('link', { name: 'Pagar com cartão' }).getAttribute('href');
  expect(href).toMatch(new RegExp(`^${fake.url.replace('/v3', '')}/i/pay_`));
  await page.getByText('esta página se atualiza sozinha').waitFor();
  const charge = [...fake.state.payments.values()].find((p) => p.invoiceUrl === href);
  await fake.pay(charge.id);
  await settle();
  // payment-status.js asks every 4 s and reloads: no navigation from the test.
  await page.getByRole('heading', { name: 'Matrícula: ativa' }).waitFor({ timeout: 15_000 });
  expect(watched.errors).toEqual([]);
  await context.close();
});

it("paid by card on Asaas's page, the enrolment shows active; the card number never reaches the site", async () => {
  const codigo = await accepted(2);
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const requests: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(suite.server.baseUrl)) requests.push(`${r.url()} ${r.postData() ?? ''}`);
  });
  await page.goto(`${suite.server.baseUrl}/matricula/${codigo}`);
  await page.getByRole('link', { name: 'Pagar com cartão' }).click();
  await page.waitForURL(/\/i\/pay_/);
  await page.getByLabel('Nome impresso no cartão').fill('PESSOA DO NAVEGADOR');
  await page.getByLabel('Número do cartão').fill('4111 1111 1111 1111');
  await page.getByLabel('Validade (MM/AAAA)').fill('12/2030');
  await page.getByLabel('CVV').fill('123');
  // Asaas sends the person back to the enrolment's page (callback.successUrl, on PUBLIC_URL).
  const back = page.waitForRequest((r) => r.url().endsWith(`/matricula/${codigo}`));
  await page.getByRole('button', { name: 'Pagar com cartão' }).click();
  await back;
  await settle();
  // A page of its own: the first one may still be ending its navigation to PUBLIC_URL's host.
  const check = await context.newPage();
  await check.goto(`${suite.server.baseUrl}/matricula/${codigo}`);
  await check.getByRole('heading', { name: 'Matrícula: ativa' }).waitFor({ timeout: 10_000 });
  expect(requests.some((r) => r.includes('4111'))).toBe(false);
  await context.close();
});

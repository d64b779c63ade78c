// The feedback loop in a real browser: a customer leaves a contact, a manager answers
// from the inbox and the reply reaches a real SMTP server with the staff member's text.
import { afterAll, expect, it } from 'vitest';
import { createAggregatesRepository } from '../src/features/feedback/survey/aggregates.repository';
import { deliverDueMail } from '../src/platform/mail/worker';
import { createStaffUser } from '../test/helpers/staff';
import { startSmtp, type TestSmtp } from '../test/helpers/smtp';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser, watchPage } from './helpers';
import type { Page } from 'playwright-core';
import jsQR from 'jsqr';
import sharp from 'sharp';

let smtp: TestSmtp;
const suite = useServerAndBrowser(async () => {
  smtp = await startSmtp();
  return { env: { ...smtp.env, BRAND_NAME: 'Rede Teste', PUBLIC_URL: 'https://rede.example' } };
});
afterAll(async () => smtp?.close());

async function login(page: Page, path: string, email: string, password: string) {
  await page.goto(`${suite.server.baseUrl}${path}`);
  await page.waitForURL(/admin\.php\?voltar=/);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha').fill(password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL((u) => u.pathname === path);
}

it(`a customer leaves an e-mail; the unit manager replies from the inbox and the mail reaches SMTP with the \
text`, async () => {
  const unit = await suite.server.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .executeTakeFirstOrThrow();
  await suite.server.db
    .updateTable('unidades')
    .set({ email: 'gerencia@rede.example' })
    .where('id', '=', unit.id)
    .execute();
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/NPS/nps_app_php/fale_aqui.php?unidade=${unit.id}`);
  await expect(page.getByLabel('Unidade', { exact: true }).inputValue()).resolves.toBe(String(unit.id));
  await page.getByLabel('Seu nome').fill('Marina Costa');
  await page.getByLabel('Mensagem', { exact: true }).fill('O bebedouro do 2º andar não funciona.');
  await page.getByLabel('E-mail').fill('marina@cliente.example');
  await expectNoA11yViolations(page);
  await page.getByRole('button', { name: 'Enviar mensagem' }).click();
  // the agreement is required with a contact: the same form, values kept
  await expect(page.locator('.field-error', { hasText: 'marque que aceita ser contatado' }).isVisible()).resolves.toBe(
    true,
  );
  await expect(page.getByLabel('E-mail').inputValue()).resolves.toBe('marina@cliente.example');
  await expectNoA11yViolations(page);
  await page.getByLabel(/Aceito que a equipe/).check();
  await page.getByRole('button', { name: 'Enviar mensagem' }).click();
  await page.waitForURL(/obrigado\.php$/);

  const manager = await createStaffUser(suite.server.db, {
    papel: 'gerente',
    nome: 'Rita Gerente',
    unidadeIds: [unit.id],
  });
  const staffPage = await context.newPage();
  const staffWatch = watchPage(staffPage);
  await login(staffPage, '/admin/mensagens', manager.email, manager.password);
  await expectNoA11yViolations(staffPage);
  await staffPage.locator('table a').first().click();
  await staffPage.waitForURL(/\/admin\/mensagens\/\d+$/);
  await expect(staffPage.locator('[data-status]').textContent()).resolves.toBe('Lida');
  await expectNoA11yViolations(staffPage);
  await staffPage.getByLabel('Resposta').fill('Oi, Marina! O bebedouro já foi trocado. Obrigada por avisar.');
  await staffPage.getByRole('button', { name: 'Enviar resposta' }).click();
  await expect(staffPage.getByText('Resposta registrada.').isVisible()).resolves.toBe(true);
  await expect(staffPage.locator('[data-status]').textContent()).resolves.toBe('Respondida');
  await expectNoA11yViolations(staffPage);

  await deliverDueMail({ db: suite.server.db, config: suite.server.config });
  const mail = smtp.messages.find((m) => m.to.includes('marina@cliente.example'));
  expect(mail).toBeDefined();
  expect(mail!.headers['reply-to']).toBe('gerencia@rede.example');
  expect(decodeQp(mail!.raw)).toContain('Oi, Marina! O bebedouro já foi trocado. Obrigada por avisar.');
  // the refused submission answers 422 (Chromium logs it); nothing else may fail
  expect(watch.errors.filter((e) => !/status of 422/.test(e))).toEqual([]);
  expect(staffWatch.errors).toEqual([]);
  await context.close();
});

/** The text of a quoted-printable (or plain 8-bit) body. */
function decodeQp(raw: string): string {
  const body = raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  if (!/quoted-printable/i.test(raw)) return body;
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

it(`the dashboard shows the hand-computed NPS as headline and on the server-drawn chart; staff home and preferences \
pass axe`, async () => {
  const unit = await suite.server.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  const now = new Date();
  // 10, 9, 8, 3 → (2 promoters − 1 detractor) / 4 = NPS 25
  for (const nota_nps of [10, 9, 8, 3]) {
    await suite.server.db
      .insertInto('respostas_nps')
      .values({
        unidade_id: unit.id,
        nota_nps,
        comentario: nota_nps === 3 ? 'Fila enorme na recepção' : null,
        criado_em: now.toISOString(),
      })
      .execute();
  }
  // Rows written straight into the tables, as another tool would: the figures are recounted.
  await createAggregatesRepository(suite.server.db).rebuild();
  const admin = await createStaffUser(suite.server.db, { papel: 'admin', nome: 'Dora Diretora' });
  const context = await suite.browser.newContext({
    viewport: { width: 1280, height: 900 },
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = await context.newPage();
  const watch = watchPage(page);
  await login(page, '/admin', admin.email, admin.password);
  // the detractor with a comment waits in the attention queue
  await expect(page.getByText('Fila enorme na recepção').isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);

  await page.goto(`${suite.server.baseUrl}/admin/pesquisa?unidade_id=${unit.id}`);
  await expect(page.locator('[data-nps-geral]').textContent()).resolves.toBe('25');
  await expect(page.locator('[data-nps-contagem]').textContent()).resolves.toBe(
    '4 notas: 2 promotores, 1 neutro, 1 detrator',
  );
  const chart = page.locator('svg[data-nps-chart]');
  await expect(chart.isVisible()).resolves.toBe(true);
  const label = now.toLocaleDateString('en-CA', { timeZone: 'America/Sao_Paulo' }).slice(0, 7);
  await expect(chart.locator(`[data-mes="${label}"] text`).textContent()).resolves.toBe('25');
  // drawn, not just present: the point sits in the upper half (NPS > 0)
  const box = await chart.boundingBox();
  const point = await chart.locator(`[data-mes="${label}"] circle`).boundingBox();
  expect(point!.y + point!.height / 2).toBeLessThan(box!.y + box!.height / 2);
  await expectNoA11yViolations(page);

  await page.goto(`${suite.server.baseUrl}/admin/preferencias`);
  await expectNoA11yViolations(page);
  expect(watch.errors).toEqual([]);
  await context.close();
});

it(`the poster's QR code, decoded from a screenshot, opens the right unit's survey and the answer is counted as \
cartaz`, async () => {
  const units = await suite.server.db
    .selectFrom('unidades')
    .select(['id', 'nome'])
    .where('ativo', '=', 1)
    .orderBy('id')
    .limit(3)
    .execute();
  const unit = units[2]!;
  const manager = await createStaffUser(suite.server.db, {
    papel: 'gerente',
    nome: 'Paulo Gerente',
    unidadeIds: [unit.id],
  });
  const context = await suite.browser.newContext({
    viewport: { width: 1000, height: 1400 },
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
  const page = await context.newPage();
  const watch = watchPage(page);
  await login(page, '/admin', manager.email, manager.password);
  await page.getByRole('link', { name: new RegExp(`Cartaz com QR code · ${unit.nome}`) }).click();
  await page.waitForURL(new RegExp(`/admin/pesquisa/cartaz/${unit.id}$`));
  await expect(page.getByRole('heading', { name: unit.nome }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('Rede Teste').first().isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  // printed on one A4 page
  const pdf = await page.pdf({ format: 'A4' });
  expect((pdf.toString('latin1').match(/\/Type\s*\/Page[^s]/g) ?? []).length).toBe(1);

  const png = await page.locator('[data-qr]').screenshot();
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const decoded = jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height);
  expect(decoded?.data).toBe(`https://rede.example/NPS/nps_app_php/index.php?unidade_id=${unit.id}&origem=cartaz`);

  // a customer's phone opens it (PUBLIC_URL is the production origin; here the test server)
  const phone = await phoneContext(suite.browser);
  const customer = await phone.newPage();
  const customerWatch = watchPage(customer);
  await customer.goto(decoded!.data.replace('https://rede.example', suite.server.baseUrl));
  await expect(customer.getByText(unit.nome).first().isVisible()).resolves.toBe(true);
  await customer.locator('.scale label').nth(10).click();
  for (const q of await customer.locator('fieldset.question').all()) {
    if ((await q.locator('input[type=radio]:checked').count()) === 0 && (await q.locator('.scale').count()) === 0) {
      const radios = q.locator('input[type=radio]');
      if (await radios.count()) await radios.first().check();
      const ok = q.locator('input[type=checkbox]');
      if (await ok.count()) await ok.first().check();
    }
  }
  await customer.getByRole('button', { name: 'Enviar avaliação' }).click();
  await customer.waitForURL(/obrigado\.php$/);
  const stored = await suite.server.db
    .selectFrom('respostas_nps')
    .select(['unidade_id', 'origem', 'nota_nps'])
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  expect(stored).toEqual({ unidade_id: unit.id, origem: 'cartaz', nota_nps: 10 });
  expect(watch.errors).toEqual([]);
  expect(customerWatch.errors).toEqual([]);
  await phone.close();
  await context.close();
});

// Forms that help and staff pages on a phone: the error summary takes the focus on a 422
// and links to each field, invalid fields show the red outline, the privacy notice, and no
// staff page scrolls sideways at 360 px.
import { expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { createStaffUser } from '../test/helpers/staff';
import { expectNoA11yViolations, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser();

const phone = (browser: Browser) =>
  browser.newContext({
    viewport: { width: 360, height: 780 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });

it(`franchise form: on a 422 the focus is on the error summary, whose links lead to each field, marked in \
red`, async () => {
  const ctx = await phone(suite.browser);
  const page = await ctx.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/pages/Franquia/index.php`);
  await expectNoA11yViolations(page);
  await page.getByRole('textbox', { name: 'E-mail' }).fill('nao-e-um-email');
  await Promise.all([
    page.waitForLoadState('load'),
    page.getByRole('button', { name: 'Enviar meu interesse' }).click(),
  ]);
  await page.waitForSelector('[data-error-summary]');
  await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('erros');
  const summary = page.getByRole('alert').filter({ hasText: /Revise (o campo|os \d+ campos)/ });
  await expect(summary.isVisible()).resolves.toBe(true);
  // the summary is in the first screen
  const box = await summary.boundingBox();
  expect(box!.y).toBeLessThan(780);
  await expectNoA11yViolations(page);
  // the e-mail keeps its value and is outlined in red (the specificity bug is gone)
  await expect(page.getByRole('textbox', { name: 'E-mail' }).inputValue()).resolves.toBe('nao-e-um-email');
  const border = await page.locator('#email').evaluate((el) => getComputedStyle(el).borderTopColor);
  expect(border).toBe('rgb(179, 38, 30)');
  // a link in the summary moves to its field
  await summary.getByRole('link', { name: /^E-mail/ }).click();
  await expect(page.evaluate(() => document.activeElement?.id)).resolves.toBe('email');
  // sections with a reason each, the investment ranges explained, the privacy notice linked
  await expect(page.getByRole('group', { name: '3. Investimento' }).isVisible()).resolves.toBe(true);
  await expect(page.getByText('O que cada faixa de investimento permite').isVisible()).resolves.toBe(true);
  await Promise.all([
    page.waitForURL(/\/privacidade$/),
    page.getByRole('link', { name: 'Aviso de privacidade' }).click(),
  ]);
  await expect(page.getByRole('heading', { level: 1, name: 'Aviso de privacidade' }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  // the 422 itself is logged by Chromium; nothing else may be
  expect(watch.errors.filter((e) => !e.includes('status of 422'))).toEqual([]);
  await ctx.close();
});

it('staff pages at 360 px never scroll sideways, and the clicks report has no a11y violations', async () => {
  const admin = await createStaffUser(suite.server.db, { papel: 'admin', nome: 'Ana Admin' });
  const ctx = await phone(suite.browser);
  const page = await ctx.newPage();
  await page.goto(`${suite.server.baseUrl}/pages/Franquia/admin.php`);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Senha').fill(admin.password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Entrar' }).click()]);
  const unit = (
    await suite.server.db
      .selectFrom('unidades')
      .select('id')
      .where('nome', '=', 'Movimento Pinheiros')
      .executeTakeFirstOrThrow()
  ).id;
  // a click to count
  await ctx.request.get(`${suite.server.baseUrl}/ir/aula_experimental?unidade=${unit}`, { maxRedirects: 0 });
  const pages = [
    '/pages/Franquia/admin.php',
    '/admin/cliques',
    '/admin/pesquisa',
    '/admin/mensagens',
    '/pages/Franquia/smtp_test.php',
    '/admin/conteudo',
    '/admin/conteudo/unidades',
    `/admin/conteudo/unidades/${unit}`,
    `/admin/conteudo/unidades/${unit}/aulas`,
    `/admin/conteudo/unidades/${unit}/fotos`,
    '/admin/conteudo/planos',
    '/admin/conteudo/perguntas',
    '/admin/contas',
    '/admin/auditoria',
  ];
  const wide: string[] = [];
  for (const path of pages) {
    await page.goto(`${suite.server.baseUrl}${path}`);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 360) wide.push(`${path}: ${width}px`);
    if (path === '/admin/cliques') {
      await expect(page.getByRole('heading', { level: 1, name: 'Cliques nas chamadas' }).isVisible()).resolves.toBe(
        true,
      );
      await expectNoA11yViolations(page);
    }
  }
  expect(wide).toEqual([]);

  // the photo screen on a phone: upload one with its description, then it is the cover
  await page.goto(`${suite.server.baseUrl}/admin/conteudo/unidades/${unit}/fotos`);
  await expectNoA11yViolations(page);
  const photo = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: 20, g: 110, b: 80 } } })
    .jpeg()
    .toBuffer();
  await page
    .getByLabel('Foto', { exact: true })
    .setInputFiles({ name: 'sala.jpg', mimeType: 'image/jpeg', buffer: photo });
  await page.getByLabel(/^Descrição \(para quem/).fill('Sala de musculação vista da entrada');
  await Promise.all([page.waitForURL(/fotos\?salvo=1$/), page.getByRole('button', { name: 'Enviar foto' }).click()]);
  await expect(page.getByLabel('Descrição da foto 1').inputValue()).resolves.toBe(
    'Sala de musculação vista da entrada',
  );
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  await expectNoA11yViolations(page);
  await page.goto(`${suite.server.baseUrl}/Detalhes.php?id=${unit}`);
  await expect(page.locator('.unit-hero img').getAttribute('alt')).resolves.toBe('Sala de musculação vista da entrada');
  await ctx.close();
});

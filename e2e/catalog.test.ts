// The public site in Chromium on a phone: search as you type, keyboard and tap, unit and
// Pass pages, no accessibility violations, no console errors (CSP violations included).
import { expect, it } from 'vitest';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser();

it('searches as you type, opens a unit with the keyboard, and has no a11y violations', async () => {
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/`);
  await expect(page.getByRole('heading', { name: 'Encontre sua unidade' }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);

  const box = page.getByRole('combobox', { name: /Busque por unidade/ });
  await box.pressSequentially('pinhe', { delay: 40 });
  const option = page.getByRole('option', { name: /Movimento Pinheiros/ });
  await option.waitFor({ state: 'visible' });
  await expect(box.getAttribute('aria-expanded')).resolves.toBe('true');
  await page
    .getByRole('status')
    .filter({ hasText: /1 resultado/ })
    .waitFor({ state: 'attached' });
  // the open listbox is accessible too
  await expectNoA11yViolations(page);

  await box.press('ArrowDown');
  await expect(option.getAttribute('aria-selected')).resolves.toBe('true');
  await expect(box.getAttribute('aria-activedescendant')).resolves.toBe(await option.getAttribute('id'));
  await Promise.all([page.waitForURL(/\/Detalhes\.php\?id=\d+$/), box.press('Enter')]);
  await expect(page.getByRole('heading', { level: 1, name: 'Movimento Pinheiros' }).isVisible()).resolves.toBe(true);
  await expect(page.getByRole('link', { name: /WhatsApp/ }).getAttribute('href')).resolves.toBe(
    'https://wa.me/5511987451200',
  );
  await expect(
    page
      .getByRole('heading', { level: 3, name: /\(hoje\)$/ })
      .first()
      .isVisible(),
  ).resolves.toBe(true);
  await expectNoA11yViolations(page);

  // Escape closes the list without leaving the page
  await page.goto(`${suite.server.baseUrl}/`);
  const box2 = page.getByRole('combobox', { name: /Busque por unidade/ });
  await box2.pressSequentially('plano', { delay: 40 });
  await page.getByRole('option', { name: /Plano Anual/ }).waitFor({ state: 'visible' });
  await box2.press('Escape');
  await expect(box2.getAttribute('aria-expanded')).resolves.toBe('false');

  expect(watch.errors).toEqual([]);
  await context.close();
});

it(`opens a unit with a tap, then its benefit page; a unit without a link and none near points to all \
units`, async () => {
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const watch = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/`);
  const box = page.getByRole('combobox', { name: /Busque por unidade/ });
  await box.tap();
  await box.pressSequentially('recife', { delay: 40 });
  const option = page.getByRole('option', { name: /Movimento Boa Viagem/ });
  await option.waitFor({ state: 'visible' });
  await Promise.all([page.waitForURL(/\/Detalhes\.php\?id=\d+$/), option.tap()]);
  await expect(page.getByRole('heading', { level: 1, name: 'Movimento Boa Viagem' }).isVisible()).resolves.toBe(true);

  const unitUrl = new URL(page.url());
  await page.goto(`${suite.server.baseUrl}/pages/Pass/index.php?id=${unitUrl.searchParams.get('id')}`);
  await expect(
    page.getByRole('heading', { name: 'Esta unidade ainda não aceita benefício' }).isVisible(),
  ).resolves.toBe(true);
  // the nearest unit with a benefit is 1,600+ km away: none is suggested, all units are linked
  await expect(page.getByText(/Nenhuma unidade com benefício fica perto desta/).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);

  await Promise.all([page.waitForURL(/\/unidades$/), page.getByRole('link', { name: 'Veja todas as unidades' }).tap()]);
  await Promise.all([
    page.waitForURL(/\/Detalhes\.php\?id=\d+$/),
    page.getByRole('link', { name: 'Movimento Savassi', exact: true }).tap(),
  ]);
  await Promise.all([
    page.waitForURL(/\/pages\/Pass\/index\.php\?id=\d+$/),
    page.getByRole('link', { name: /^Treine aqui com Wellhub/ }).tap(),
  ]);
  const cta = page.getByRole('link', { name: /^Acessar (Wellhub|TotalPass)/ });
  await expect(cta.getAttribute('rel')).resolves.toBe('noopener noreferrer nofollow');
  await expect(cta.getAttribute('href')).resolves.toMatch(/^\/ir\/beneficio\?unidade=\d+$/);
  await expectNoA11yViolations(page);

  expect(watch.errors).toEqual([]);
  await context.close();
});

it('works without JavaScript: the form renders results on the suite.server', async () => {
  const context = await suite.browser.newContext({
    javaScriptEnabled: false,
    viewport: { width: 412, height: 915 },
    locale: 'pt-BR',
  });
  const page = await context.newPage();
  await page.goto(`${suite.server.baseUrl}/`);
  await page.getByRole('searchbox', { name: /Busque por unidade/ }).fill('curitiba');
  await Promise.all([page.waitForURL(/\?q=curitiba/), page.getByRole('button', { name: 'Buscar' }).click()]);
  await expect(page.getByRole('heading', { name: /Resultados para/ }).isVisible()).resolves.toBe(true);
  await expect(page.getByRole('link', { name: 'Movimento Batel' }).first().isVisible()).resolves.toBe(true);
  await context.close();
});

// The staff home and the clicks report at chain scale in Chromium: the unit filters are
// plain GET forms, the page links keep them; axe-core on each.
import { expect, it } from 'vitest';
import { seedLargeCatalog } from '../src/db/seeds/large';
import { createStaffUser } from '../test/helpers/staff';
import { expectNoA11yViolations, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser({ seed: false });

it('the home’s survey tools and the clicks report filter by unit or city and page, keeping the filter', async () => {
  await seedLargeCatalog(suite.server.db, { units: 90, plans: 20 });
  const admin = await createStaffUser(suite.server.db, { papel: 'admin', nome: 'Ana Escala' });
  const context = await suite.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'pt-BR' });
  const page = await context.newPage();
  const watched = watchPage(page);
  await page.goto(`${suite.server.baseUrl}/admin`);
  await page.waitForURL(/\/pages\/Franquia\/admin\.php/);
  await page.getByLabel('E-mail').fill(admin.email);
  await page.getByLabel('Senha').fill(admin.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await page.waitForURL((u) => u.pathname === '/admin');

  const tools = page.getByRole('region', { name: 'Pesquisa na unidade' });
  await expect(tools.getByRole('link', { name: /^Cartaz com QR code/ }).count()).resolves.toBe(20);
  await expect(tools.getByText('Página 1 de 5').isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  await page.getByLabel('Unidade ou cidade').fill('florianopolis');
  await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
  await page.waitForURL(/q=florianopolis#unidades$/);
  await expect(tools.getByRole('link', { name: /^Cartaz com QR code/ }).count()).resolves.toBe(3);
  await expectNoA11yViolations(page);

  await page.goto(`${suite.server.baseUrl}/admin/cliques`);
  await expect(
    page.getByRole('region', { name: 'Cliques por unidade no período' }).locator('tbody tr').count(),
  ).resolves.toBe(50);
  await expectNoA11yViolations(page);
  await page.getByLabel('Unidade ou cidade').fill('movimento');
  await page.getByLabel('Semanas').selectOption('12');
  await page.getByRole('button', { name: 'Filtrar', exact: true }).click();
  await page.waitForURL(/q=movimento/);
  await page.getByRole('link', { name: 'Próxima' }).click();
  await page.waitForURL(/pagina=2/);
  expect(new URL(page.url()).searchParams.get('q')).toBe('movimento');
  expect(new URL(page.url()).searchParams.get('semanas')).toBe('12');
  await expect(page.getByText('Página 2 de 2').isVisible()).resolves.toBe(true);
  await expect(page.getByLabel('Semanas').inputValue()).resolves.toBe('12');
  // a unit's name opens its week-by-week table
  await page.getByRole('region', { name: 'Cliques por unidade no período' }).getByRole('link').first().click();
  await page.waitForURL(/unidade_id=\d+/);
  await expect(page.getByText('Ver todas as unidades').isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  expect(watched.errors).toEqual([]);
  await context.close();
});

import { expect, it } from 'vitest';
import { expectNoA11yViolations, phoneContext, useServerAndBrowser } from './helpers';

const suite = useServerAndBrowser();

it('renders the 404 page in Chromium with no accessibility violations', async () => {
  const context = await phoneContext(suite.browser);
  const page = await context.newPage();
  const res = await page.goto(`${suite.server.baseUrl}/nao-existe`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Página não encontrada' }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  await context.close();
});

import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { expectNoA11yViolations, launchBrowser, phoneContext, startServer, type Server } from './helpers';

let server: Server;
let browser: Browser;
beforeAll(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

it('renders the 404 page in Chromium with no accessibility violations', async () => {
  const context = await phoneContext(browser);
  const page = await context.newPage();
  const res = await page.goto(`${server.baseUrl}/nao-existe`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Página não encontrada' }).isVisible()).resolves.toBe(true);
  await expectNoA11yViolations(page);
  await context.close();
});

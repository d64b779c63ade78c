// Browser-test fixtures: the real app on a database of its own, listening on a free
// port, and Debian's Chromium driven by playwright-core (no browser download).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { createTestApp, type TestAppOptions, type TestContext } from '../test/helpers/app';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export interface Server extends TestContext {
  baseUrl: string;
}

export async function startServer(options: TestAppOptions = {}): Promise<Server> {
  const ctx = await createTestApp(options);
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { ...ctx, baseUrl: `http://127.0.0.1:${port}` };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** A phone-sized context (Pixel-7-like), pt-BR, São Paulo time. */
export async function phoneContext(browser: Browser): Promise<BrowserContext> {
  return browser.newContext({
    viewport: { width: 412, height: 915 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  });
}

/**
 * Collects CSP violations and page errors, so a test can assert there were none
 * (a strict CSP that silently blocks our own script would otherwise go unnoticed).
 */
export function watchPage(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  return { errors };
}

/** Runs axe-core in the page (through the DevTools protocol, so our CSP is untouched). */
export async function expectNoA11yViolations(page: Page): Promise<void> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    // @ts-expect-error axe is injected above
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v: { id: string; help: string; nodes: { target: string[] }[] }) => ({
      id: v.id,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')).slice(0, 5),
    }));
  });
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

/**
 * The real app and a Chromium for the calling test file, started before its tests and
 * closed after them. `options` may be a function, for set-up that must run first (an
 * SMTP server whose port goes into the environment).
 */
export function useServerAndBrowser(options: TestAppOptions | (() => Promise<TestAppOptions>) = {}) {
  const suite = {} as { server: Server; browser: Browser };
  beforeAll(async () => {
    suite.server = await startServer(typeof options === 'function' ? await options() : options);
    suite.browser = await launchBrowser();
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.close();
  });
  return suite;
}

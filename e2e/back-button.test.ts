// The back button after a sent form (docs/decisions/183): the customer sends a "Fale aqui"
// message, presses Back, writes a different message on the page the browser shows again
// and sends it. Both are stored. With JavaScript the page shown from history gets a fresh
// envio_id (from the back-forward cache: `pageshow` with `persisted`; or loaded again from
// history); without it the server still tells the new content from a repeat.
import { expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH, useServerAndBrowser, watchPage } from './helpers';

const suite = useServerAndBrowser();

const FORM = '/NPS/nps_app_php/fale_aqui.php';

/** Records every pageshow of the page's documents (a bfcache restore keeps the same window). */
async function recordPageshows(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __pageshows: boolean[] };
    w.__pageshows = [];
    window.addEventListener('pageshow', (e) => w.__pageshows.push(e.persisted));
  });
}

const envioOf = (page: Page) => page.locator('form.fale-aqui-form input[name="envio_id"]').inputValue();

async function send(page: Page, message: string, fill: { unit?: string } = {}) {
  if (fill.unit) await page.getByLabel('Unidade', { exact: true }).selectOption(fill.unit);
  await page.getByLabel('Mensagem', { exact: true }).fill(message);
  await Promise.all([page.waitForURL(/obrigado\.php$/), page.getByRole('button', { name: /Enviar/ }).click()]);
}

async function messages(texts: string[]) {
  return suite.server.db.selectFrom('fale_aqui').select(['mensagem']).where('mensagem', 'in', texts).execute();
}

async function backAndResend(browser: Browser, options: { javaScriptEnabled: boolean; label: string }) {
  const context = await browser.newContext({
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    javaScriptEnabled: options.javaScriptEnabled,
  });
  await recordPageshows(context);
  const page = await context.newPage();
  const watch = watchPage(page);
  const unit = await suite.server.db
    .selectFrom('unidades')
    .select('id')
    .where('ativo', '=', 1)
    .orderBy('nome')
    .executeTakeFirstOrThrow();
  await page.goto(`${suite.server.baseUrl}${FORM}`);
  const firstKey = await envioOf(page);
  const first = `Primeira mensagem (${options.label}): o ar-condicionado da sala 1 pinga.`;
  const second = `Segunda mensagem (${options.label}): e a catraca 2 trava.`;
  await send(page, first, { unit: String(unit.id) });

  // A page restored from the back-forward cache fires pageshow but no load: wait for the commit.
  await page.goBack({ waitUntil: 'commit' });
  expect(new URL(page.url()).pathname).toBe(FORM);
  let persisted: boolean | null = null;
  if (options.javaScriptEnabled) {
    await page.waitForFunction(() => (window as unknown as { __pageshows?: boolean[] }).__pageshows?.length);
    persisted = await page.evaluate(() => (window as unknown as { __pageshows: boolean[] }).__pageshows.at(-1)!);
  } else {
    await page.waitForLoadState('load');
  }
  const keyAfterBack = await envioOf(page);
  if (options.javaScriptEnabled) {
    // Restored from the back-forward cache or loaded again: either way, never the used key.
    expect(keyAfterBack).not.toBe(firstKey);
    expect(keyAfterBack).toMatch(/^[A-Za-z0-9_-]{22}$/);
  }
  // The unit may or may not have been restored by the browser: choose it again, as a person would.
  await send(page, second, { unit: String(unit.id) });

  const stored = await messages([first, second]);
  expect(stored.map((m) => m.mensagem).sort()).toEqual([first, second].sort());
  expect(watch.errors).toEqual([]);
  await context.close();
  return { persisted, firstKey, keyAfterBack };
}

it('with JavaScript: the page shown again by Back gets a fresh envio_id; the second message is stored', async () => {
  const result = await backAndResend(suite.browser, { javaScriptEnabled: true, label: 'js' });
  // Chromium keeps no-store pages out of its back-forward cache unless told otherwise: loaded again.
  expect(typeof result.persisted).toBe('boolean');
});

it('from the back-forward cache (no-store pages kept): pageshow.persisted renews the envio_id', async () => {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    // playwright-core turns the back-forward cache off by default; this browser keeps it on.
    ignoreDefaultArgs: ['--disable-back-forward-cache'],
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--enable-features=BackForwardCache,CacheControlNoStoreEnterBackForwardCache',
    ],
  });
  try {
    const result = await backAndResend(browser, { javaScriptEnabled: true, label: 'bfcache' });
    // This is the path under test: the page came back whole, with the used key, and the script renewed it.
    expect(result.persisted).toBe(true);
  } finally {
    await browser.close();
  }
});

it('without JavaScript: the server stores the different second message under the used envio_id', async () => {
  const result = await backAndResend(suite.browser, { javaScriptEnabled: false, label: 'sem-js' });
  expect(result.keyAfterBack).toMatch(/^[A-Za-z0-9_-]{8,64}$/);
});
